//! How each kind of model scores the word-definition tasks (Sec. 2.3 of
//! 001_bf5d15b61b58df06.txt). Scores are natural-log probabilities (or a cosine for
//! static vectors); only their order within a group matters.

use super::patterns::{causal, masked, Query};
use super::{DefinitionScorer, Pos};
use crate::baseline::StaticVectors;
use crate::causal::CausalLm;
use crate::masked::MaskedLm;
use crate::ScorerError;

/// Causal LMs, on the one pattern of Table 3 that ends with the word:
/// W2D, log P(t | Q(c)) summed over the word's pieces; D2W, the log-probability of
/// the candidate's first piece only, log P(c^1 | Q(t)).
impl DefinitionScorer for CausalLm {
    fn word_to_definition(&self, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        by_continuation::word_to_definition(self, pos, word, definitions)
    }

    fn definition_to_word(&self, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        by_continuation::definition_to_word(self, pos, definition, words)
    }
}

/// The causal rule of the definition tasks for anything that scores continuations
/// (a model here, or one behind a server).
pub mod by_continuation {
    use super::{causal, Pos, Query, ScorerError};
    use crate::new_words::partial::ContinuationScorer;

    /// W2D: the word's pieces summed after each definition's pattern.
    pub fn word_to_definition(lm: &dyn ContinuationScorer, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        let queries: Vec<Query> = definitions.iter().map(|d| causal(pos, word, d)).collect();
        Ok(continuations(lm, &queries)?.iter().map(|p| p.iter().map(|&l| f64::from(l)).sum()).collect())
    }

    /// D2W: each candidate's first piece after the definition's pattern.
    pub fn definition_to_word(lm: &dyn ContinuationScorer, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        let queries: Vec<Query> = words.iter().map(|w| causal(pos, w, definition)).collect();
        Ok(continuations(lm, &queries)?.iter().map(|p| p.first().map_or(f64::NEG_INFINITY, |&l| f64::from(l))).collect())
    }

    fn continuations(lm: &dyn ContinuationScorer, queries: &[Query]) -> Result<Vec<Vec<f32>>, ScorerError> {
        let split: Vec<(&str, String)> = queries.iter().map(Query::split_at_word).collect();
        let pairs: Vec<(&str, &str)> = split.iter().map(|(p, c)| (*p, c.as_str())).collect();
        lm.continuation_log_probs(&pairs)
    }
}

/// Masked LMs, averaged over the patterns of Table 3 (the mean of the per-pattern
/// log scores): W2D, the word's pieces masked together, their log-probabilities
/// summed; D2W, as many masks as the candidate has pieces, the mean log-probability.
impl DefinitionScorer for MaskedLm {
    fn word_to_definition(&self, pos: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        let per_query = definitions.iter().map(|d| masked(pos, word, d)).collect::<Vec<_>>();
        Ok(pattern_means(self, &per_query)?.into_iter().map(|per| per.iter().map(|(sum, _)| sum).sum::<f64>() / per.len() as f64).collect())
    }

    fn definition_to_word(&self, pos: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        let per_query = words.iter().map(|w| masked(pos, w, definition)).collect::<Vec<_>>();
        Ok(pattern_means(self, &per_query)?
            .into_iter()
            .map(|per| per.iter().map(|(sum, n)| sum / *n as f64).sum::<f64>() / per.len() as f64)
            .collect())
    }
}

/// (sum of log-probs, pieces) for every pattern of every candidate, in one run.
fn pattern_means(lm: &MaskedLm, per_candidate: &[Vec<Query>]) -> Result<Vec<Vec<(f64, usize)>>, ScorerError> {
    let spans: Vec<(&str, (usize, usize))> = per_candidate.iter().flatten().map(|q| (q.text.as_str(), q.word)).collect();
    let mut scores = lm.span_log_probs(&spans)?.into_iter();
    Ok(per_candidate.iter().map(|qs| scores.by_ref().take(qs.len()).collect()).collect())
}

/// Static vectors (the paper's fastText baseline): the cosine between the mean
/// vector of the word and that of the definition. A text without any known word
/// scores NaN and ranks last.
impl DefinitionScorer for StaticVectors {
    fn word_to_definition(&self, _: Pos, word: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        Ok(definitions.iter().map(|d| self.text_similarity(word, d)).collect())
    }

    fn definition_to_word(&self, _: Pos, definition: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        Ok(words.iter().map(|w| self.text_similarity(w, definition)).collect())
    }
}
