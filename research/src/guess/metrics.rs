//! The measures of 002_07d3f5412720a88c.txt for next-word guessing, for people and
//! models alike: top-1 and top-10 accuracy, soft match (a guess counts when it is
//! among the k nearest neighbours of the target in a word-vector space), token
//! coverage and type coverage stratified by frequency, the type-diversity counts
//! T1 and T10 (distinct words guessed right at top 1 / within the top 10), and
//! word-level perplexity.
//!
//! Words match case-insensitively. Frequency bins follow the paper's counts in
//! WikiText-103's training set (about 100 million words): high >= 1000, mid 100-999,
//! low 10-99 occurrences; estimated from wordfreq as 10^(Zipf - 1) per 100 million
//! words, i.e. Zipf >= 4, 3-4 and 2-3. Rarer words (and words wordfreq does not
//! know) fall in a fourth bin, "rare".

use gapwise_model::words::{folded, same_word};
use std::collections::{BTreeMap, HashSet};

/// One guessing event: the word that was there and the guesses, best first (a
/// person's single guess, or a model's top-k list).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub target: String,
    pub guesses: Vec<String>,
    /// Whether the first guess is a soft match (see [`soft_match`]).
    pub soft: bool,
}

/// Whether `guess` is `target` or among the first `k` of `neighbours` (the target's
/// nearest neighbours in a word-vector space, nearest first).
pub fn soft_match(guess: &str, target: &str, neighbours: &[String], k: usize) -> bool {
    same_word(guess, target) || neighbours.iter().take(k).any(|n| same_word(guess, n))
}

/// The frequency bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bin {
    High,
    Mid,
    Low,
    Rare,
}

impl Bin {
    pub const ALL: [Bin; 4] = [Bin::High, Bin::Mid, Bin::Low, Bin::Rare];

    pub fn of_zipf(zipf: Option<f64>) -> Bin {
        match zipf {
            Some(z) if z >= 4.0 => Bin::High,
            Some(z) if z >= 3.0 => Bin::Mid,
            Some(z) if z >= 2.0 => Bin::Low,
            _ => Bin::Rare,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bin::High => "high",
            Bin::Mid => "mid",
            Bin::Low => "low",
            Bin::Rare => "rare",
        }
    }
}

/// Counts over a set of events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Guessing events (tokens).
    pub tokens: usize,
    pub top1: usize,
    pub top10: usize,
    pub soft: usize,
    /// Distinct target words.
    pub types: usize,
    /// T1, T10: distinct target words guessed right at top 1 / within the top 10.
    pub types_top1: usize,
    pub types_top10: usize,
}

impl Tally {
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Tally {
        let mut t = Tally::default();
        let (mut types, mut t1, mut t10) = (HashSet::new(), HashSet::new(), HashSet::new());
        for e in events {
            let target = folded(&e.target);
            let hit = |g: &String| same_word(g, &target);
            t.tokens += 1;
            if e.guesses.first().is_some_and(hit) {
                t.top1 += 1;
                t1.insert(target.clone());
            }
            if e.guesses.iter().take(10).any(hit) {
                t.top10 += 1;
                t10.insert(target.clone());
            }
            t.soft += usize::from(e.soft);
            types.insert(target);
        }
        (t.types, t.types_top1, t.types_top10) = (types.len(), t1.len(), t10.len());
        t
    }

    /// A share of the tokens, in percent (NaN without tokens).
    pub fn percent(&self, hits: usize) -> f64 {
        100.0 * hits as f64 / self.tokens as f64
    }

    /// A share of the types, in percent (type coverage).
    pub fn type_percent(&self, types: usize) -> f64 {
        100.0 * types as f64 / self.types as f64
    }
}

/// The tally of each frequency bin (token coverage and type coverage by bin).
pub fn by_bin(events: &[Event], bin_of: impl Fn(&str) -> Bin) -> BTreeMap<Bin, Tally> {
    Bin::ALL.into_iter().map(|b| (b, Tally::of(events.iter().filter(|e| bin_of(&e.target) == b)))).collect()
}

/// Word-level perplexity: exp of minus the mean log-probability of the words.
pub fn perplexity(word_log_probs: &[f64]) -> f64 {
    (-word_log_probs.iter().sum::<f64>() / word_log_probs.len() as f64).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(target: &str, guesses: &[&str]) -> Event {
        Event { target: target.into(), guesses: guesses.iter().map(|g| (*g).to_owned()).collect(), soft: false }
    }

    /// The paper's example: a model that always says "the" is right whenever "the"
    /// is next, and on nothing else; T1 is one type.
    #[test]
    fn a_model_that_always_says_the() {
        let text = ["the", "cat", "sat", "on", "the", "mat", "and", "the", "dog", "ran"];
        let events: Vec<Event> = text.iter().map(|t| event(t, &["the"])).collect();
        let t = Tally::of(&events);
        assert_eq!((t.tokens, t.top1, t.top10, t.types, t.types_top1, t.types_top10), (10, 3, 3, 8, 1, 1));
        assert!((t.percent(t.top1) - 30.0).abs() < 1e-12);
        assert!((t.type_percent(t.types_top1) - 12.5).abs() < 1e-12);
        // "the" is high-frequency: 100 % there, 0 % elsewhere
        let bins = by_bin(&events, |w| if w == "the" { Bin::High } else { Bin::Low });
        assert_eq!((bins[&Bin::High].tokens, bins[&Bin::High].top1), (3, 3));
        assert_eq!((bins[&Bin::Low].tokens, bins[&Bin::Low].top1, bins[&Bin::Low].types), (7, 0, 7));
        assert_eq!(bins[&Bin::Mid].tokens, 0);
        assert!(bins[&Bin::Mid].percent(0).is_nan());
    }

    #[test]
    fn top_ten_counts_a_hit_anywhere_in_the_list_and_matches_ignore_case() {
        let events = [event("Paris", &["london", "paris"]), event("red", &["Red"]), event("cat", &["dog"])];
        let t = Tally::of(&events);
        assert_eq!((t.top1, t.top10, t.types_top1, t.types_top10), (1, 2, 1, 2));
    }

    #[test]
    fn soft_match_takes_the_k_nearest_neighbours() {
        let near = ["kitten".to_owned(), "dog".to_owned(), "feline".to_owned()];
        assert!(soft_match("cat", "Cat", &near, 0));
        assert!(soft_match("Kitten", "cat", &near, 1));
        assert!(!soft_match("feline", "cat", &near, 2));
        assert!(soft_match("feline", "cat", &near, 3));
        assert!(!soft_match("car", "cat", &near, 10));
    }

    #[test]
    fn bins_and_perplexity_by_hand() {
        assert_eq!(Bin::of_zipf(Some(7.7)), Bin::High);
        assert_eq!(Bin::of_zipf(Some(4.0)), Bin::High);
        assert_eq!(Bin::of_zipf(Some(3.99)), Bin::Mid);
        assert_eq!(Bin::of_zipf(Some(2.0)), Bin::Low);
        assert_eq!(Bin::of_zipf(Some(1.5)), Bin::Rare);
        assert_eq!(Bin::of_zipf(None), Bin::Rare);
        // p = 1/2 and 1/8: mean log = -2 ln 2, perplexity 4
        assert!((perplexity(&[0.5f64.ln(), 0.125f64.ln()]) - 4.0).abs() < 1e-12);
    }
}
