//! The invented-word game (WinoDict, 003_e0d4aede4cc7e323.txt): its items and the
//! words each is played with, the rounds served to people and their answers, and
//! the judgements of models.
//!
//! The sentences and definition sentences are stored as played (the server renders
//! them once, at import, with the scorer's templates), so people and models read
//! exactly the same text. Which condition a player meets next is the engine's rule
//! (`gapwise_engine`'s new-words mode); the store tells how many items they met
//! ([`NewWords::met`]) and draws an item they have not met ([`NewWords::unmet_item`]:
//! at random, those a model has judged first, so that people and models meet on
//! the same items).
//!
//! Its queries are in one file per audience: `game`, `material`, `scoring`, `research`.

mod game;
mod material;
mod research;
mod scoring;

use std::collections::BTreeMap;

use sqlx::Row;

use crate::error::StoreError;
use crate::sql::stored_code;
use gapwise_model::{ModelId, PlayedWord};

crate::store::area!(
    /// The invented-word game's rows: items, rounds, answers and model judgements.
    NewWords,
    new_words
);

/// An item with the words it is played with, to import or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewWordsItemRecord {
    pub id: String,
    pub options: [String; 2],
    pub answer: usize,
    /// `noun`, `verb`, `adj` or `adv`.
    pub pos: String,
    /// WordNet's gloss of the key word.
    pub definition: String,
    pub source: String,
    pub variants: BTreeMap<PlayedWord, NewWordsVariant>,
}

/// An item played with one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsVariant {
    pub lemma: String,
    /// The sentence with `_` for the blank.
    pub sentence: String,
    /// The sentence that defines the word.
    pub taught: String,
}

/// How a model was asked: the word, where the definition went (`empty`, `suffix`,
/// `prefix`) and how many solved items came first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NewWordsSetup {
    pub word: PlayedWord,
    pub teaching: String,
    pub shots: u32,
}

/// A model's judgement of an item, to store or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewWordsJudgement {
    pub model: ModelId,
    pub item_id: String,
    pub setup: NewWordsSetup,
    pub log_likelihoods: [f64; 2],
    pub choice: usize,
    /// Whether the choice is the item's answer (read back; ignored when storing).
    pub correct: bool,
}

/// A round as an answer to it needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsServing {
    /// The right option: 0 or 1.
    pub answer: usize,
    pub options: [String; 2],
    /// The sentence shown, with `_` for the blank.
    pub sentence: String,
    pub served_at: i64,
    /// (the option chosen, whether right), once answered.
    pub answered: Option<(usize, bool)>,
}

/// A person's answer, without who gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsAnswer {
    pub item_id: String,
    pub word: PlayedWord,
    pub with_definition: bool,
    pub correct: bool,
}

/// The setup stored in the three columns from `first` on (word, teaching, shots).
fn setup_of(row: &sqlx::any::AnyRow, first: usize) -> Result<NewWordsSetup, StoreError> {
    Ok(NewWordsSetup {
        word: stored_code(row, first, "WinoDict word", PlayedWord::parse)?,
        teaching: row.try_get(first + 1)?,
        shots: u32::try_from(row.try_get::<i64, _>(first + 2)?).unwrap_or(0),
    })
}

fn option_index(value: i64) -> Result<usize, StoreError> {
    usize::try_from(value).ok().filter(|&i| i < 2).ok_or_else(|| StoreError::Corrupt(format!("a stored WinoDict option is {value}")))
}
