//! The cloze game: a corpus sentence shown with one word blanked out, the word the
//! player types, and whether it was the word. The blanked word is a position of the
//! next-word game ([`gapwise_model::positions`]: 1 is the sentence's second word),
//! so the words a model predicted there are the next-word game's predictions
//! (`guess_predictions`); the cloze game has no model data of its own.
//!
//! The game's rules (which sentence and word to serve, what an answer is worth) are
//! the engine's; this area reads and writes their rows. Its queries are in one file
//! per audience: `game`, `research`.

mod game;
mod research;

crate::store::area!(
    /// The cloze game's rows: servings and their answers.
    Cloze,
    cloze
);

/// A cloze serving as an answer to it needs it: the sentence, the blanked word's
/// position, and the answer given to it so far.
#[derive(Clone, Debug, PartialEq)]
pub struct ClozeServing {
    pub sentence_id: i64,
    pub text: String,
    /// The blanked word: 1 is the sentence's second word.
    pub position: usize,
    pub served_at: i64,
    /// The answer given to it, if any (a serving takes one).
    pub answer: Option<ClozeAnswer>,
}

/// An answer to a cloze serving, to store or as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClozeAnswer {
    /// As typed, normalised.
    pub typed: String,
    pub correct: bool,
}

/// An answer, for the analyses (without who gave it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClozeRecord {
    pub lang: String,
    pub correct: bool,
}

fn count(value: i64) -> usize {
    usize::try_from(value).unwrap_or(0)
}
