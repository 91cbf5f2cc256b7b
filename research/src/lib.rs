//! Gapwise's research side, pure data work with no web and no model in it: the
//! anonymised export ([`export`]: CSV, JSON Lines, Parquet and the dataset card) and the report
//! ([`report`]) that puts each mode's analyses together: the substitution game's
//! ([`play`]), the Likert ratings' ([`rate`]), the word-definition game's
//! ([`define`]), the next-word game's ([`guess`]), the invented-word game's
//! ([`new_words`]) and the cloze game's ([`cloze`]). The app calls it for the
//! researchers' page, the command line for `gapwise export` and `gapwise report`.

#![forbid(unsafe_code)]
#![allow(
    clippy::indexing_slicing,
    reason = "the statistics index the rows and columns of tables they built themselves (ranks, bootstrap resamples, matrix cells); an index out of range there is a bug of ours, not bad input"
)]

mod answers;
pub mod cloze;
pub mod define;
mod error;
pub use error::ResearchError;
pub mod export;
mod figures;
pub mod guess;
mod irt;
pub mod new_words;
pub mod play;
pub mod rate;
pub mod report;
mod table;
mod trials;

#[cfg(test)]
mod ranges;
