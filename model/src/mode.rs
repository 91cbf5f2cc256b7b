//! The game's modes, one enum that every list of modes is derived from: the pages
//! and their links, the tables each mode writes, the answers fitted by item response
//! theory, the report's parts and the model preparation. Each list is an exhaustive
//! `match` on [`Mode`], so adding a variant makes the compiler name every place that
//! needs it (docs/src/adding-a-mode.md walks through them).

use std::fmt;

/// A way to play: the main game and the five side modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The main game: which word of a pair fills the gap (the paper's Eq. 2).
    Play,
    /// Rating how much one sentence tells the words of a pair apart.
    Rate,
    /// Word-to-definition and definition-to-word rounds.
    Define,
    /// Guessing a sentence's next word.
    Guess,
    /// Judging sentences that use an invented word.
    NewWords,
    /// Typing the word blanked out of a sentence.
    Cloze,
}

impl Mode {
    /// Every mode, in the order the menu shows them (the order of the variants: a
    /// variant missing here does not compile, see below).
    pub const ALL: [Mode; 6] = [Mode::Play, Mode::Rate, Mode::Define, Mode::Guess, Mode::NewWords, Mode::Cloze];

    /// The mode's name in data: exports, the report, the model harness, logs.
    pub const fn code(self) -> &'static str {
        match self {
            Mode::Play => "play",
            Mode::Rate => "rate",
            Mode::Define => "define",
            Mode::Guess => "guess",
            Mode::NewWords => "new_words",
            Mode::Cloze => "cloze",
        }
    }

    /// The mode named `code` (see [`Mode::code`]).
    pub fn parse(code: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|mode| mode.code() == code)
    }

    /// The address of the mode's page, without its leading slash.
    pub const fn segment(self) -> &'static str {
        match self {
            Mode::Play => "play",
            Mode::Rate => "rate",
            Mode::Define => "define",
            Mode::Guess => "guess",
            Mode::NewWords => "new-words",
            Mode::Cloze => "cloze",
        }
    }

    /// The address of the mode's page.
    pub fn path(self) -> String {
        format!("/{}", self.segment())
    }
}

crate::all_listed!(Mode);

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_paths_name_one_mode_each() {
        for mode in Mode::ALL {
            assert_eq!(Mode::parse(mode.code()), Some(mode));
            assert_eq!(Mode::ALL.iter().filter(|m| m.path() == mode.path()).count(), 1);
        }
        assert_eq!(Mode::parse("fill"), None);
        // the serialised name is the code
        assert_eq!(serde_json::to_string(&Mode::NewWords).ok().as_deref(), Some("\"new_words\""));
    }
}
