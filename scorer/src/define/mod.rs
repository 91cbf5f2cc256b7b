//! The word-definition tasks of 001_bf5d15b61b58df06.txt (WDLMPro): match a word
//! to its definition among its taxonomic sisters' (W2D), or a definition to its word
//! (D2W), for people and for models. Which task is which is `gapwise_model::DefinitionTask`.
//!
//! - [`patterns`]: the cloze queries of Table 3;
//! - [`DefinitionScorer`]: how each kind of model ranks the candidates (Sec. 2.3).
//!
//! P@1, the rank score RS and the strata of Tables 6, 7 and 10 are
//! `gapwise_research::define::metrics`.

mod models;
pub use models::by_continuation;
pub mod patterns;

use crate::ScorerError;
pub use gapwise_model::Pos;

/// A model that plays the word-definition tasks: higher scores rank first.
pub trait DefinitionScorer: Send + Sync {
    /// W2D: how well each candidate definition fits `word` (a `pos` word).
    fn word_to_definition(&self, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError>;
    /// D2W: how well each candidate word fits `definition`.
    fn definition_to_word(&self, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError>;
}
