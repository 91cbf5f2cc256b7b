//! 1-gram and 2-gram language models with add-k smoothing.
//!
//! Counted from a plain-text corpus, one sentence per line. A sentence is scored as
//! log p(sentence) = sum over its words (and, for 2-grams, the end marker) of
//! log p(word | previous word), with
//!   p(w) = (c(w) + k) / (N + k V)             (1-grams; N words, V types + 1 unknown)
//!   p(w | v) = (c(v w) + k) / (c(v) + k V)    (2-grams; v may be the start marker).
//! Kept disjoint from the items: when a context's sentence is itself a corpus line,
//! its own counts are taken out before it is scored (leave-one-out), so a model never
//! sees the sentence it is asked about.

use std::collections::HashMap;
use std::path::Path;

use super::words;
use crate::{Context, ContextScorer, ScorerError, WordLogProbs};

const START: &str = "<s>";
const END: &str = "</s>";

#[derive(Default)]
struct Counts {
    unigrams: HashMap<String, u64>,
    /// Counts of v as the first word of a bigram (words and the start marker).
    history: HashMap<String, u64>,
    bigrams: HashMap<(String, String), u64>,
    words: u64,
}

impl Counts {
    /// Adds one sentence's n-grams `times` times (negative: takes them out).
    fn add(&mut self, ws: &[String], times: i64) {
        let bump = |c: &mut u64| *c = c.saturating_add_signed(times);
        for w in ws {
            bump(self.unigrams.entry(w.clone()).or_default());
        }
        self.words = self.words.saturating_add_signed(times * ws.len() as i64);
        let marked: Vec<&str> = std::iter::once(START).chain(ws.iter().map(String::as_str)).chain([END]).collect();
        for pair in marked.windows(2) {
            bump(self.history.entry(pair[0].to_owned()).or_default());
            bump(self.bigrams.entry((pair[0].to_owned(), pair[1].to_owned())).or_default());
        }
    }
}

/// A 1-gram or 2-gram model.
pub struct NgramLm {
    order: usize,
    k: f64,
    counts: Counts,
    /// Corpus lines (as word lists) and how often each occurs.
    lines: HashMap<Vec<String>, i64>,
    /// Word types of the corpus, plus one for unknown words (and the end marker for 2-grams).
    types: f64,
}

impl NgramLm {
    /// Counts `order`-grams (1 or 2) from the corpus file, smoothing with add-`k` (k > 0).
    pub fn from_corpus(path: &Path, order: usize, k: f64) -> Result<Self, ScorerError> {
        if !(order == 1 || order == 2) {
            return Err(ScorerError::Input(format!("n-gram order {order}: only 1 and 2 are offered")));
        }
        if !(k > 0.0 && k.is_finite()) {
            return Err(ScorerError::Input(format!("add-k smoothing needs k > 0, not {k}")));
        }
        let text = std::fs::read_to_string(path).map_err(|e| ScorerError::file(path, e))?;
        Ok(Self::from_text(&text, order, k))
    }

    fn from_text(text: &str, order: usize, k: f64) -> Self {
        let mut counts = Counts::default();
        let mut lines: HashMap<Vec<String>, i64> = HashMap::new();
        for line in text.lines() {
            let ws = words(line);
            if !ws.is_empty() {
                counts.add(&ws, 1);
                *lines.entry(ws).or_default() += 1;
            }
        }
        let types = counts.unigrams.len() as f64 + if order == 2 { 2.0 } else { 1.0 };
        NgramLm { order, k, counts, lines, types }
    }

    /// log p(sentence), with `held_out` (a corpus line's words) taken out of the counts.
    fn sentence_log_prob(&self, ws: &[String], held_out: Option<&[String]>) -> f64 {
        let mut own = Counts::default();
        if let Some(line) = held_out {
            own.add(line, self.lines.get(line).copied().unwrap_or(0));
        }
        let get = |a: &HashMap<String, u64>, b: &HashMap<String, u64>, key: &str| {
            a.get(key).copied().unwrap_or(0).saturating_sub(b.get(key).copied().unwrap_or(0)) as f64
        };
        let k = self.k;
        if self.order == 1 {
            let n = self.counts.words.saturating_sub(own.words) as f64;
            return ws.iter().map(|w| ((get(&self.counts.unigrams, &own.unigrams, w) + k) / (n + k * self.types)).ln()).sum();
        }
        let marked: Vec<&str> = std::iter::once(START).chain(ws.iter().map(String::as_str)).chain([END]).collect();
        marked
            .windows(2)
            .map(|pair| {
                let key = (pair[0].to_owned(), pair[1].to_owned());
                let c =
                    self.counts.bigrams.get(&key).copied().unwrap_or(0).saturating_sub(own.bigrams.get(&key).copied().unwrap_or(0)) as f64;
                let h = get(&self.counts.history, &own.history, pair[0]);
                ((c + k) / (h + k * self.types)).ln()
            })
            .sum()
    }
}

impl ContextScorer for NgramLm {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        contexts
            .iter()
            .map(|c| {
                let original = words(c.text);
                let held_out = self.lines.contains_key(&original).then_some(original.as_slice());
                let with_distractor = words(&c.filled(c.distractor)?.0);
                Ok(WordLogProbs {
                    target: self.sentence_log_prob(&original, held_out),
                    distractor: self.sentence_log_prob(&with_distractor, held_out),
                })
            })
            .collect()
    }
}
