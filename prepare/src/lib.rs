//! Gapwise's data preparation, with no database and no model: the files researchers
//! and admins bring, read and checked line by line, and the data the game is built
//! from.
//!
//! - [`import`]: sentence and word-pair files (TSV, JSON Lines), all or nothing;
//! - [`corpus`]: large corpora (plain text split into sentences, TSV, JSON Lines),
//!   checked in one pass and read in batches in another;
//! - [`a_priori`]: the closed word lists a-priori pairs are made from;
//! - [`wordnet`]: WordNet 3.0's synsets and taxonomic groups (the word-definition game);
//! - [`wordfreq`]: wordfreq's word frequencies (frequency strata, distributional pairs);
//! - [`new_words`]: WinoDict's items with their invented and meaning-shift words.
//!
//! The store writes what comes out of here; the server's admin commands join the two.

#![forbid(unsafe_code)]

pub mod a_priori;
pub mod corpus;
mod error;
pub mod import;
pub mod new_words;
pub mod wordfreq;
pub mod wordnet;

pub use error::PrepareError;
