//! Invented words (paper 003, Sec. 3.1): a letter model of every one-, two- and
//! three-letter sequence of a word list, sampled letter by letter, so that every
//! three-letter sequence of an invented word occurs in some real word; words of
//! the list itself are rejected, and each word comes with its negative log
//! likelihood per letter under the model, which the paper relates to difficulty.
//!
//! The model is a letter trigram chain with `^` padding at the start and `$` as the
//! end: P(c | a b) = count(a b c) / count(a b ·). Sampling from it can only produce
//! trigrams seen in the list, which is the paper's filter. Everything is seeded.

use std::collections::{BTreeMap, HashSet};

use rand::{Rng, SeedableRng};

/// Shortest and longest invented word, in letters.
pub const LETTERS: (usize, usize) = (4, 10);

/// Letter trigram counts of a word list.
pub struct LetterModel {
    /// (a, b) -> next letter -> count; `^` pads the start, `$` ends a word.
    next: BTreeMap<(char, char), BTreeMap<char, u64>>,
    known: HashSet<String>,
}

/// An invented word and how likely the model finds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Invented {
    pub word: String,
    /// Negative log likelihood per letter (the end included), in nats.
    pub nll_per_letter: f64,
}

impl LetterModel {
    /// Counts the trigrams of `words`: lower-case ASCII letters only; other words
    /// are left out of the model but still count as real words.
    pub fn train<'a>(words: impl IntoIterator<Item = &'a str>) -> Self {
        let mut model = LetterModel { next: BTreeMap::new(), known: HashSet::new() };
        for word in words {
            let word = word.trim().to_lowercase();
            if word.chars().all(|c| c.is_ascii_lowercase()) && !word.is_empty() {
                let padded: Vec<char> = ['^', '^'].into_iter().chain(word.chars()).chain(['$']).collect();
                for w in padded.windows(3) {
                    if let [a, b, c] = *w {
                        *model.next.entry((a, b)).or_default().entry(c).or_default() += 1;
                    }
                }
            }
            model.known.insert(word);
        }
        model
    }

    /// Whether `word` is in the list the model was trained on.
    pub fn is_real(&self, word: &str) -> bool {
        self.known.contains(&word.to_lowercase())
    }

    /// The negative log likelihood of `word` per letter, `None` when one of its
    /// trigrams never occurs in the list.
    pub fn nll_per_letter(&self, word: &str) -> Option<f64> {
        let padded: Vec<char> = ['^', '^'].into_iter().chain(word.chars()).chain(['$']).collect();
        let mut nll = 0.0;
        for w in padded.windows(3) {
            let [a, b, c] = *w else { continue };
            let following = self.next.get(&(a, b))?;
            let count = *following.get(&c)?;
            let total: u64 = following.values().sum();
            nll -= (count as f64 / total as f64).ln();
        }
        Some(nll / (padded.len() - 2) as f64)
    }

    /// `n` distinct invented words of [`LETTERS`] letters, none of them real, drawn
    /// with `seed`; fewer when the model cannot make that many in `100 * n` tries.
    pub fn invent(&self, n: usize, seed: u64) -> Vec<Invented> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut seen = HashSet::new();
        let mut words = Vec::with_capacity(n);
        for _ in 0..n.saturating_mul(100) {
            if words.len() == n {
                break;
            }
            let Some(word) = self.sample(&mut rng) else { continue };
            if (LETTERS.0..=LETTERS.1).contains(&word.len()) && !self.is_real(&word) && seen.insert(word.clone()) {
                let nll_per_letter = self.nll_per_letter(&word).unwrap_or(f64::INFINITY);
                words.push(Invented { word, nll_per_letter });
            }
        }
        words
    }

    /// The words split into `n` buckets of (nearly) equal size by their likelihood,
    /// the likeliest first, as the paper samples words from five buckets of log
    /// probability (Sec. 2.2).
    pub fn buckets(words: &[Invented], n: usize) -> Vec<Vec<Invented>> {
        let mut sorted = words.to_vec();
        sorted.sort_by(|a, b| a.nll_per_letter.total_cmp(&b.nll_per_letter).then_with(|| a.word.cmp(&b.word)));
        let n = n.max(1);
        (0..n).map(|i| sorted.get(i * sorted.len() / n..(i + 1) * sorted.len() / n).map(<[_]>::to_vec).unwrap_or_default()).collect()
    }

    /// One word sampled letter by letter; `None` when it grows past the longest length.
    fn sample(&self, rng: &mut impl Rng) -> Option<String> {
        let (mut a, mut b) = ('^', '^');
        let mut word = String::new();
        loop {
            let following = self.next.get(&(a, b))?;
            let total: u64 = following.values().sum();
            let mut pick = rng.gen_range(0..total);
            let &next = following.keys().find(|c| {
                let count = following[*c];
                if pick < count {
                    true
                } else {
                    pick -= count;
                    false
                }
            })?;
            if next == '$' {
                return Some(word);
            }
            word.push(next);
            if word.len() > LETTERS.1 {
                return None;
            }
            (a, b) = (b, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "plant plane plate slate state stale grant grate crane crate trace place space spade grade trade blade \
                        stone store score shore snore spore sport short shirt skirt spirt start smart chart charm";

    #[test]
    fn invented_words_are_new_seeded_and_made_of_seen_trigrams() {
        let model = LetterModel::train(LIST.split_whitespace());
        let words = model.invent(12, 7);
        assert!(words.len() >= 5, "{words:?}");
        for w in &words {
            assert!(!model.is_real(&w.word), "{} is in the list", w.word);
            assert!((LETTERS.0..=LETTERS.1).contains(&w.word.len()));
            let nll = model.nll_per_letter(&w.word).expect("every trigram was seen in the list");
            assert!((nll - w.nll_per_letter).abs() < 1e-12 && nll > 0.0);
        }
        assert_eq!(words, model.invent(12, 7), "the same seed gives the same words");
        assert_ne!(words, model.invent(12, 8), "another seed gives others");

        let buckets = LetterModel::buckets(&words, 5);
        assert_eq!(buckets.iter().map(Vec::len).sum::<usize>(), words.len());
        let worst = |b: &Vec<Invented>| b.iter().map(|w| w.nll_per_letter).fold(f64::MIN, f64::max);
        let best = |b: &Vec<Invented>| b.iter().map(|w| w.nll_per_letter).fold(f64::MAX, f64::min);
        for pair in buckets.windows(2).filter(|p| !p[0].is_empty() && !p[1].is_empty()) {
            assert!(worst(&pair[0]) <= best(&pair[1]), "likelier words in earlier buckets");
        }
    }

    #[test]
    fn the_likelihood_is_the_trigram_chain() {
        // "ab" and "ac": after "^^" always a (p 1), after "^a" b or c (p 1/2), then the end (p 1)
        let model = LetterModel::train(["ab", "ac"]);
        let expected = (2f64).ln() / 3.0;
        assert!((model.nll_per_letter("ab").expect("seen") - expected).abs() < 1e-12);
        assert_eq!(model.nll_per_letter("ba"), None, "an unseen trigram");
        assert!(model.is_real("AB"));
    }
}
