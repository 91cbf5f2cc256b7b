//! The word-definition tasks of 001_bf5d15b61b58df06.txt (WDLMPro): match a word
//! to its definition among its taxonomic sisters' (W2D), or a definition to its word
//! (D2W), for people and for models.
//!
//! - [`wordnet`]: synsets, groups G(t), depths from the WordNet 3.0 files;
//! - [`patterns`]: the cloze queries of Table 3;
//! - [`DefinitionScorer`]: how each kind of model ranks the candidates (Sec. 2.3);
//! - [`metrics`]: P@1, the rank score RS and the strata of Tables 6, 7 and 10.

pub mod metrics;
mod models;
pub mod patterns;
pub mod wordnet;

use crate::ScorerError;
pub use wordnet::Pos;

/// Which way round the matching goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Task {
    /// A word; pick its definition.
    WordToDefinition,
    /// A definition; pick its word.
    DefinitionToWord,
}

impl Task {
    pub const ALL: [Task; 2] = [Task::WordToDefinition, Task::DefinitionToWord];

    /// `w2d` or `d2w`, as stored.
    pub fn code(self) -> &'static str {
        match self {
            Task::WordToDefinition => "w2d",
            Task::DefinitionToWord => "d2w",
        }
    }

    pub fn from_code(code: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// A model that plays the word-definition tasks: higher scores rank first.
pub trait DefinitionScorer: Send + Sync {
    /// W2D: how well each candidate definition fits `word` (a `pos` word).
    fn word_to_definition(&self, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError>;
    /// D2W: how well each candidate word fits `definition`.
    fn definition_to_word(&self, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError>;

    /// Scores a task: `prompt` is the word (W2D) or the definition (D2W), `candidates`
    /// the definitions or words.
    fn score(&self, task: Task, pos: Pos, prompt: &str, candidates: &[&str]) -> Result<Vec<f64>, ScorerError> {
        match task {
            Task::WordToDefinition => self.word_to_definition(pos, prompt, candidates),
            Task::DefinitionToWord => self.definition_to_word(pos, prompt, candidates),
        }
    }
}
