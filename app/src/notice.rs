//! What an admin's form post did, as the admin page says it atop (`?notice=`): one
//! of a closed set of notices, carried by a code the server writes (`built.12`), so
//! that a link carrying other words in `notice` shows nothing.

use std::fmt;

/// The rows an imported file held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported {
    Sentences,
    Pairs,
}

impl Imported {
    const ALL: [Imported; 2] = [Imported::Sentences, Imported::Pairs];

    /// Its word in a code and on the page.
    fn code(self) -> &'static str {
        match self {
            Imported::Sentences => "sentences",
            Imported::Pairs => "pairs",
        }
    }

    fn parse(code: &str) -> Option<Imported> {
        Imported::ALL.into_iter().find(|i| i.code() == code)
    }
}

/// What an admin's post did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Item building made `items` items.
    Built { items: u64 },
    /// A file's `rows` were imported: `inserted` new ones, `duplicates` already present.
    Imported { rows: Imported, inserted: u64, duplicates: u64 },
}

impl Notice {
    /// Its code in the page's address: its kind, then its numbers, dot-separated.
    pub fn code(self) -> String {
        match self {
            Notice::Built { items } => format!("built.{items}"),
            Notice::Imported { rows, inserted, duplicates } => format!("imported.{}.{inserted}.{duplicates}", rows.code()),
        }
    }

    /// The notice of `code`; `None` for anything the server does not write.
    pub fn parse(code: &str) -> Option<Notice> {
        let parts: Vec<&str> = code.split('.').collect();
        match parts.as_slice() {
            ["built", items] => Some(Notice::Built { items: number(items)? }),
            ["imported", rows, inserted, duplicates] => {
                Some(Notice::Imported { rows: Imported::parse(rows)?, inserted: number(inserted)?, duplicates: number(duplicates)? })
            }
            _ => None,
        }
    }
}

/// A count as a code writes it: digits only.
fn number(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::Built { items } => write!(f, "{items} items built."),
            Notice::Imported { rows, inserted, duplicates } => {
                write!(f, "{inserted} {} imported, {duplicates} already present.", rows.code())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_go_by_code_and_other_words_show_nothing() {
        for notice in [Notice::Built { items: 12 }, Notice::Imported { rows: Imported::Pairs, inserted: 3, duplicates: 0 }] {
            assert_eq!(Notice::parse(&notice.code()), Some(notice));
        }
        assert_eq!(Notice::Built { items: 2 }.to_string(), "2 items built.");
        for junk in ["", "built", "built.", "built.-1", "built.+1", "built.1.2", "imported.rows.1.2", "Send your password to evil.example"]
        {
            assert_eq!(Notice::parse(junk), None, "{junk}");
        }
    }
}
