//! Next-word guessing, the "Shannon game" (002_07d3f5412720a88c.txt): corpus
//! sentences revealed word by word to players, their guesses, models' whole-word
//! predictions at the same positions, and the word facts the analyses stratify by.
//!
//! The positions of a sentence are its words after the first
//! ([`gapwise_model::positions`]). The game's rules (which sentence to serve, what a
//! guess is worth) are the engine's; this file reads and writes their rows.
//!
//! Its queries are in one file per audience: `game`, `scoring`, `research`.

mod game;
mod research;
mod scoring;

use sqlx::Row;

use crate::error::StoreError;
use gapwise_model::{GuessMode, ServingId};

crate::store::area!(
    /// The next-word game's rows: rounds, guesses, model predictions and word facts.
    Guess,
    guess
);

/// A person's guess, for the analyses (without who made it).
#[derive(Clone, Debug, PartialEq)]
pub struct HumanGuess {
    pub lang: String,
    pub sentence_id: i64,
    pub position: usize,
    pub word: String,
    pub guess: String,
    pub rank: Option<usize>,
}

/// A model's predictions at one position.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelGuess {
    pub model: String,
    pub lang: String,
    pub sentence_id: i64,
    pub position: usize,
    pub word: String,
    pub top: Vec<String>,
    /// log p(word): the sum over its pieces (the paper's); none for a word the model
    /// could not align to pieces of its own (see [`Prediction`]).
    pub word_log_prob: Option<f64>,
    /// log p(word), the word's own (see `gapwise_scorer::guess::WordLogProb`); none
    /// where `word_log_prob` is none, and for a prediction stored before it was kept.
    pub word_log_prob_corrected: Option<f64>,
}

/// A model's prediction at one position of a sentence, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Its words, best first.
    pub top: Vec<String>,
    /// log p(the actual word) as the sum over its pieces and as the word's own (none
    /// where what scored it gives no word-start correction), or why the model gives
    /// it none (a piece it shares with the text beside it).
    pub log_prob: Result<(f64, Option<f64>), String>,
}

/// What the analyses know of a word.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WordFacts {
    pub zipf: Option<f64>,
    pub neighbours: Vec<String>,
}

/// A round as an answer to it needs it: the sentence, and the guesses made so far.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessServing {
    pub mode: GuessMode,
    pub sentence_id: i64,
    pub text: String,
    pub served_at: i64,
    /// The guesses made, in the order of their positions.
    pub guesses: Vec<GuessRow>,
}

/// A guess at one position of a round, to store or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessRow {
    pub position: usize,
    pub guess: String,
    pub word: String,
    pub correct: bool,
    /// The place of the suggestion picked (the easier mode).
    pub rank: Option<usize>,
}

/// A round with the number of positions guessed in it.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessProgress {
    pub serving_id: ServingId,
    pub text: String,
    pub guessed: usize,
    pub mode: GuessMode,
}

/// The ids of the sentences the next-word and cloze games have shown someone whole
/// (the cloze game shows its sentence after the answer), as a subquery: no item
/// blanks them, and the games' supply counts them as used.
pub(crate) const SHOWN_WHOLE: &str = "SELECT sentence_id FROM guess_servings UNION SELECT sentence_id FROM cloze_servings";

/// A player's rounds (`$1`) as [`GuessProgress`] reads them.
const ROUNDS: &str = "SELECT v.id, s.text, (SELECT COUNT(*) FROM guess_answers g WHERE g.serving_id = v.id), v.mode FROM guess_servings v \
                      JOIN sentences s ON s.id = v.sentence_id WHERE v.annotator_id = $1";

fn progress_of(row: &sqlx::any::AnyRow) -> Result<GuessProgress, StoreError> {
    Ok(GuessProgress {
        serving_id: row.try_get(0)?,
        text: row.try_get(1)?,
        guessed: count(row.try_get(2)?),
        mode: crate::sql::stored_code(row, 3, "guessing mode", GuessMode::parse)?,
    })
}

/// A guess read from the columns position, guess, word, correct, rank (in this order, from 0).
fn guess_of(row: &sqlx::any::AnyRow) -> Result<GuessRow, StoreError> {
    Ok(GuessRow {
        position: count(row.try_get(0)?),
        guess: row.try_get(1)?,
        word: row.try_get(2)?,
        correct: row.try_get::<i64, _>(3)? == 1,
        rank: row.try_get::<Option<i64>, _>(4)?.map(count),
    })
}

fn count(value: i64) -> usize {
    usize::try_from(value).unwrap_or(0)
}
