//! `gapwise distributional-pairs`: word pairs from static word vectors. For each seed
//! word, its nearest neighbours (cosine) become distractors, keeping only words that
//! make a fair game:
//!
//! - both words within a Zipf frequency band (wordfreq data), so that neither is
//!   rare nor a function word;
//! - alphabetic single words of at least 3 letters, present in the language's corpus;
//! - no shared 4-letter start, which would mostly be inflections of one word
//!   ("box" / "boxes").
//!
//! Without seed words, the most frequent band words that have vectors and occur in
//! the corpus are the seeds.

use gapwise_model::Language;
use gapwise_prepare::wordfreq::WordFrequencies;
use gapwise_scorer::baseline::StaticVectors;
use gapwise_store::{ImportReport, Store};

/// What makes a word fit for a pair, and how many pairs to make.
#[derive(Clone, Debug)]
pub struct Distributional {
    /// Seed words; when empty, the `seeds` most frequent fitting words.
    pub words: Vec<String>,
    pub seeds: usize,
    /// Distractors per seed.
    pub neighbours: usize,
    pub min_zipf: f64,
    pub max_zipf: f64,
}

/// Fewest letters of a word in a pair.
const MIN_LETTERS: usize = 3;
/// Two words starting with this many equal letters are taken for forms of one word.
const SHARED_START: usize = 4;

/// Whether two words begin alike: their first 4 letters (all of the shorter word's,
/// if it has fewer) are equal.
fn same_start(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let n = SHARED_START.min(a.chars().count()).min(b.chars().count());
    a.chars().take(n).eq(b.chars().take(n))
}

/// Makes the pairs of `language` and adds them with strategy `distributional`.
pub async fn distributional_pairs(
    store: &Store,
    vectors: &StaticVectors,
    frequencies: &WordFrequencies,
    language: Language,
    how: &Distributional,
) -> Result<ImportReport, crate::error::CliError> {
    let in_band = |w: &str| {
        w.chars().count() >= MIN_LETTERS
            && w.chars().all(char::is_alphabetic)
            && frequencies.zipf(w).is_some_and(|z| (how.min_zipf..=how.max_zipf).contains(&z))
    };
    let seeds = if how.words.is_empty() {
        let mut band: Vec<(&str, f64)> =
            vectors.words().filter(|w| in_band(w)).filter_map(|w| frequencies.zipf(w).map(|z| (w, z))).collect();
        band.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let mut seeds = Vec::new();
        for (word, _) in band {
            if seeds.len() >= how.seeds {
                break;
            }
            if store.material().word_count(language, word).await? > 0 {
                seeds.push(word.to_owned());
            }
        }
        seeds
    } else {
        how.words.clone()
    };
    let mut pairs = Vec::new();
    for seed in &seeds {
        // a few spares: some neighbours will be missing from the corpus
        let near = vectors.neighbours(seed, 4 * how.neighbours, |w| in_band(w) && !same_start(w, seed))?;
        let mut kept = 0;
        for (word, _) in near {
            if kept == how.neighbours {
                break;
            }
            if store.material().word_count(language, &word).await? > 0 {
                pairs.push((seed.clone(), word));
                kept += 1;
            }
        }
    }
    Ok(store.material().add_generated_pairs(language, pairs, "distributional").await?)
}

#[cfg(test)]
mod tests {
    use super::same_start;

    #[test]
    fn inflections_share_their_start() {
        assert!(same_start("box", "boxes"));
        assert!(same_start("Paint", "painted"));
        assert!(!same_start("wall", "walk"), "four equal letters needed");
        assert!(!same_start("red", "green"));
    }
}
