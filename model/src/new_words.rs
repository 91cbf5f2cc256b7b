//! The invented-word game (WinoDict, 003_e0d4aede4cc7e323.txt) as pages and server
//! functions see it.

use serde::{Deserialize, Serialize};

use crate::ServingId;

/// The word an item is played with in place of its key word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PlayedWord {
    /// The key word itself: the original Winograd item.
    Original,
    /// A word made up by the letter model: the player learns it from its definition.
    Invented,
    /// A known word of the same part of speech given the key word's definition
    /// (the paper's "meaning shift").
    Shifted,
}

impl PlayedWord {
    pub const ALL: [PlayedWord; 3] = [PlayedWord::Original, PlayedWord::Invented, PlayedWord::Shifted];

    /// `original`, `invented` or `shifted`, as stored.
    pub fn code(self) -> &'static str {
        match self {
            PlayedWord::Original => "original",
            PlayedWord::Invented => "invented",
            PlayedWord::Shifted => "shifted",
        }
    }

    pub fn parse(code: &str) -> Option<PlayedWord> {
        PlayedWord::ALL.into_iter().find(|w| w.code() == code)
    }
}

/// The conditions people play in turn: each word with and without its definition.
/// A player's n-th item takes the condition after their first's, so six items in a
/// row cover all six and consecutive items alternate between definition and none.
pub const WINO_CONDITIONS: [(PlayedWord, bool); 6] = [
    (PlayedWord::Invented, true),
    (PlayedWord::Invented, false),
    (PlayedWord::Shifted, true),
    (PlayedWord::Original, false),
    (PlayedWord::Original, true),
    (PlayedWord::Shifted, false),
];

/// An item as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewWordsCard {
    pub serving_id: ServingId,
    /// The sentence with `_` for the blank, the key word replaced by the played word.
    pub sentence: String,
    pub options: [String; 2],
    /// The sentence that defines the played word, when it is shown.
    pub definition: Option<String>,
    /// Items the player has answered, and how many of them right.
    pub answered: i64,
    pub right: i64,
    /// The player's last answer, when it was just given ([`crate::RECENT_OUTCOME_MS`]).
    pub last: Option<NewWordsPick>,
}

/// What an answer was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWordsPick {
    pub correct: bool,
    /// The right option's text.
    pub answer: String,
    /// The answered item's sentence, with `_` for the blank, as it was shown.
    pub sentence: String,
}

/// Where a model reads the definition sentence of the word it is judged with
/// (partial scoring, paper 003): stored with each judgement, shown in the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Teaching {
    /// No definition: the control.
    Empty,
    /// After the continuation, so it is scored (paper 003's best setup).
    DefinitionSuffix,
    /// Before the sentence, so the model conditions on it.
    DefinitionPrefix,
}

impl Teaching {
    pub const ALL: [Teaching; 3] = [Teaching::Empty, Teaching::DefinitionSuffix, Teaching::DefinitionPrefix];

    /// `empty`, `suffix` or `prefix`, as stored.
    pub fn code(self) -> &'static str {
        match self {
            Teaching::Empty => "empty",
            Teaching::DefinitionSuffix => "suffix",
            Teaching::DefinitionPrefix => "prefix",
        }
    }

    pub fn parse(code: &str) -> Option<Teaching> {
        Teaching::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// A Winograd-style item: a sentence with one blank `_`, two options, the right one,
/// and the sentence that defines its key word (when it has one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWordsItem {
    pub sentence: String,
    pub options: [String; 2],
    pub answer: usize,
    pub definition: Option<String>,
}
