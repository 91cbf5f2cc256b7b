//! Static word vectors: GloVe or word2vec text format (a word and its numbers per
//! line, word2vec's "count dimension" header line skipped), or a `[words, dim]`
//! `.npy` matrix (C order) with its words, one per line, in a sibling `.vocab` file
//! (`glove.npy` + `glove.vocab`).
//!
//! A proxy, not a probability: static vectors have no output side, so a word's score
//! in a context is the cosine similarity between its vector and the mean vector of
//! the other words of the sentence (those with a vector). Eq. 2 then sums
//! cos(target, context) - cos(distractor, context); positive means the target fits
//! better. Words are lower-cased; a pair word without a vector is an error.

use std::collections::HashMap;
use std::path::Path;

use super::words;
use crate::{Context, ContextScorer, ScorerError, WordLogProbs};

pub struct StaticVectors {
    vectors: HashMap<String, Vec<f32>>,
}

impl StaticVectors {
    /// Reads a `.npy` matrix (with its `.vocab` words) or, for any other name, a text file.
    pub fn from_path(path: &Path) -> Result<Self, ScorerError> {
        if path.extension().is_some_and(|e| e == "npy") {
            Self::from_npy(path)
        } else {
            Self::from_text(path)
        }
    }

    pub fn from_text(path: &Path) -> Result<Self, ScorerError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScorerError::file(path, e))?;
        let mut vectors = HashMap::new();
        let mut dim = None;
        for (n, line) in text.lines().enumerate() {
            let mut fields = line.split_whitespace();
            let Some(word) = fields.next() else { continue };
            let values: Vec<f32> =
                fields.map(str::parse).collect::<Result<_, _>>().map_err(|e| ScorerError::file(path, format!("line {}: {e}", n + 1)))?;
            if n == 0 && values.len() == 1 {
                continue; // word2vec header: "<count> <dimension>"
            }
            if values.is_empty() || *dim.get_or_insert(values.len()) != values.len() {
                return Err(ScorerError::file(path, format!("line {}: expected {} numbers after the word", n + 1, dim.unwrap_or(0))));
            }
            vectors.insert(word.to_lowercase(), values);
        }
        if vectors.is_empty() {
            return Err(ScorerError::file(path, "no word vectors"));
        }
        Ok(StaticVectors { vectors })
    }

    /// Reads `path.npy` and the words of its rows from `path.vocab`.
    pub fn from_npy(path: &Path) -> Result<Self, ScorerError> {
        let vocab_path = path.with_extension("vocab");
        let words = std::fs::read_to_string(&vocab_path).map_err(|e| ScorerError::file(&vocab_path, e))?;
        let matrix = candle_core::Tensor::read_npy(path)
            .and_then(|t| t.to_dtype(candle_core::DType::F32))
            .and_then(|t| t.to_vec2::<f32>())
            .map_err(|e| ScorerError::file(path, format!("not a readable [words, dim] matrix in C order: {e}")))?;
        let words: Vec<&str> = words.lines().collect();
        if words.len() != matrix.len() {
            return Err(ScorerError::file(&vocab_path, format!("{} words for {} rows", words.len(), matrix.len())));
        }
        Ok(StaticVectors { vectors: words.into_iter().map(str::to_lowercase).zip(matrix).collect() })
    }

    /// Whether `word` (lower-cased) has a vector.
    pub fn knows(&self, word: &str) -> bool {
        self.vectors.contains_key(&word.to_lowercase())
    }

    /// The `n` words nearest to `word` by cosine similarity among those `keep`
    /// accepts, nearest first (ties by word); the word itself is never among them.
    pub fn neighbours(&self, word: &str, n: usize, keep: impl Fn(&str) -> bool) -> Result<Vec<(String, f64)>, ScorerError> {
        let centre: Vec<f64> = self.vector(word)?.iter().map(|x| f64::from(*x)).collect();
        let me = word.to_lowercase();
        let mut scored: Vec<(String, f64)> =
            self.vectors.iter().filter(|(w, _)| **w != me && keep(w)).map(|(w, v)| (w.clone(), cosine(v, &centre))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        scored.truncate(n);
        Ok(scored)
    }

    /// The words that have vectors.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.vectors.keys().map(String::as_str)
    }

    fn vector(&self, word: &str) -> Result<&[f32], ScorerError> {
        self.vectors.get(&word.to_lowercase()).map(Vec::as_slice).ok_or_else(|| ScorerError::Input(format!("no vector for {word:?}")))
    }
}

fn cosine(a: &[f32], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * y).sum();
    let na: f64 = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|y| y * y).sum::<f64>().sqrt();
    dot / (na * nb)
}

impl StaticVectors {
    /// The mean vector of the words of `text` that have one; `None` when none has.
    pub fn mean_vector(&self, text: &str) -> Option<Vec<f64>> {
        let known: Vec<&[f32]> = words(text).iter().filter_map(|w| self.vectors.get(w).map(Vec::as_slice)).collect();
        let first = known.first()?;
        let mut mean = vec![0f64; first.len()];
        for v in &known {
            for (m, x) in mean.iter_mut().zip(*v) {
                *m += f64::from(*x) / known.len() as f64;
            }
        }
        Some(mean)
    }

    /// The cosine similarity of two mean vectors ([`Self::mean_vector`]); NaN when
    /// either text has no word with a vector.
    pub fn text_similarity(&self, a: &str, b: &str) -> f64 {
        match (self.mean_vector(a), self.mean_vector(b)) {
            (Some(a), Some(b)) => {
                let a: Vec<f32> = a.into_iter().map(|x| x as f32).collect();
                cosine(&a, &b)
            }
            _ => f64::NAN,
        }
    }
}

impl ContextScorer for StaticVectors {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        contexts
            .iter()
            .map(|c| {
                let outside = format!("{} {}", c.text.get(..c.blank.0).unwrap_or(""), c.text.get(c.blank.1..).unwrap_or(""));
                let mean = self
                    .mean_vector(&outside)
                    .ok_or_else(|| ScorerError::Input(format!("no word of {:?} around the blank has a vector", c.text)))?;
                Ok(WordLogProbs { target: cosine(self.vector(c.target)?, &mean), distractor: cosine(self.vector(c.distractor)?, &mean) })
            })
            .collect()
    }
}
