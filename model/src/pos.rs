//! Parts of speech, as WordNet names them.

use serde::{Deserialize, Serialize};

/// A part of speech: WordNet's four open classes. The word-definition game plays
/// nouns and verbs ([`DEFINITION_POS`]); WinoDict's key words are of all four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pos {
    Noun,
    Verb,
    Adj,
    Adv,
}

impl Pos {
    /// `noun`, `verb`, `adj` or `adv`, as the items file and the database write it.
    pub fn code(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adj => "adj",
            Pos::Adv => "adv",
        }
    }

    /// WordNet's letter in synset names and data files: `n`, `v`, `a`, `r`.
    pub fn letter(self) -> &'static str {
        match self {
            Pos::Noun => "n",
            Pos::Verb => "v",
            Pos::Adj => "a",
            Pos::Adv => "r",
        }
    }

    /// WordNet's letter for the part of speech (`n`, `v`, `a`, `r`; `s` is an adjective).
    pub fn from_wordnet(letter: &str) -> Option<Pos> {
        match letter {
            "n" => Some(Pos::Noun),
            "v" => Some(Pos::Verb),
            "a" | "s" => Some(Pos::Adj),
            "r" => Some(Pos::Adv),
            _ => None,
        }
    }
}

/// The parts of speech of the word-definition game (001_bf5d15b61b58df06.txt).
pub const DEFINITION_POS: [Pos; 2] = [Pos::Noun, Pos::Verb];
