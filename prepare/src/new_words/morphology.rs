//! The forms an invented word takes in a sentence: when the key word it replaces is
//! a plural, a past tense, a gerund or a comparative, the invented word takes the
//! same ending, by English spelling rules on its last letters (a simplification of
//! paper 003's learned suffix table, Sec. 2.2).

use serde::{Deserialize, Serialize};

/// Which form of its lemma a word is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// The lemma itself.
    Base,
    /// Plural noun or third-person singular verb (`-s`, `-es`, `-ies`).
    Plural,
    /// Past tense or participle (`-ed`, `-d`, `-ied`).
    Past,
    /// Gerund or present participle (`-ing`).
    Ing,
    /// Comparative adjective (`-er`, `-r`, `-ier`).
    Comparative,
}

fn is_vowel(c: char) -> bool {
    "aeiou".contains(c)
}

/// `lemma` without its final `y` when a consonant precedes it (`tidy` → `tid`).
fn consonant_y_stem(lemma: &str) -> Option<&str> {
    let stem = lemma.strip_suffix('y')?;
    stem.chars().last().filter(|c| !is_vowel(*c)).map(|_| stem)
}

/// `lemma` in `form`.
pub fn inflect(lemma: &str, form: Form) -> String {
    let ends_e = lemma.ends_with('e');
    match form {
        Form::Base => lemma.to_owned(),
        Form::Plural => match consonant_y_stem(lemma) {
            Some(stem) => format!("{stem}ies"),
            None if ["s", "x", "z", "ch", "sh"].iter().any(|end| lemma.ends_with(end)) => format!("{lemma}es"),
            None => format!("{lemma}s"),
        },
        Form::Past => match consonant_y_stem(lemma) {
            Some(stem) => format!("{stem}ied"),
            None if ends_e => format!("{lemma}d"),
            None => format!("{lemma}ed"),
        },
        Form::Ing => match lemma.strip_suffix('e') {
            Some(stem) if !stem.ends_with('e') && !stem.is_empty() => format!("{stem}ing"),
            _ => format!("{lemma}ing"),
        },
        Form::Comparative => match consonant_y_stem(lemma) {
            Some(stem) => format!("{stem}ier"),
            None if ends_e => format!("{lemma}r"),
            None => format!("{lemma}er"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_follow_the_last_letters() {
        let cases = [
            ("plest", Form::Plural, "plests"),
            ("drumbox", Form::Plural, "drumboxes"),
            ("vorny", Form::Plural, "vornies"),
            ("stray", Form::Plural, "strays"),
            ("plest", Form::Past, "plested"),
            ("glore", Form::Past, "glored"),
            ("tidy", Form::Past, "tidied"),
            ("glore", Form::Ing, "gloring"),
            ("flee", Form::Ing, "fleeing"),
            ("plest", Form::Ing, "plesting"),
            ("vorny", Form::Comparative, "vornier"),
            ("blane", Form::Comparative, "blaner"),
            ("trask", Form::Comparative, "trasker"),
            ("trask", Form::Base, "trask"),
        ];
        for (lemma, form, want) in cases {
            assert_eq!(inflect(lemma, form), want, "{lemma} {form:?}");
        }
    }
}
