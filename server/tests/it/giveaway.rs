//! The held-back check of the item builder's giveaway rules (`gapwise
//! giveaway-check`): with a model that reads English articles, the contexts whose
//! gap comes from the word before the blank are found among all contexts, and none
//! is left among those the rules keep.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_model::{Giveaway, Language};
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_scorer::{Context, ContextScorer, ScorerError, WordLogProbs};
use gapwise_server::runs::giveaway_check::{check, Share};
use gapwise_store::testing::each_backend;

/// A model that knows only English articles: a word after "a" or "an" that takes
/// the other article is 5 nats less likely; every other word alike.
struct ArticleMinded;

impl ArticleMinded {
    fn log_prob(context: &Context<'_>, word: &str) -> f64 {
        let before = context.text[..context.blank.0].split_whitespace().last().unwrap_or("").to_lowercase();
        let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u']);
        match before.as_str() {
            "an" if !vowel => -6.0,
            "a" if vowel => -6.0,
            _ => -1.0,
        }
    }
}

impl ContextScorer for ArticleMinded {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        Ok(contexts
            .iter()
            .map(|c| WordLogProbs { target: Self::log_prob(c, c.target), distractor: Self::log_prob(c, c.distractor) })
            .collect())
    }
}

#[tokio::test]
async fn the_model_finds_the_gaps_the_word_before_the_blank_makes_and_the_rules_keep_none() {
    for db in each_backend().await {
        let store = &db.store;
        let sentences = "lang\ttext\tsource\tgenre\n\
            en\tThere used to be an old caravan route here.\tt\tg\n\
            en\tHe met an old friend of his.\tt\tg\n\
            en\tThe old road was closed for good.\tt\tg\n\
            en\tShe liked old songs best.\tt\tg\n\
            en\tA new road was built.\tt\tg\n";
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, sentences).await.expect("sentences");
        store
            .material()
            .import(ImportKind::Pairs, ImportFormat::Tsv, "lang\ttarget\tdistractor\tstrategy\nen\told\tnew\ta-priori\n")
            .await
            .expect("pair");
        let found = check(store, &ArticleMinded, Language::En, 10, 10, &indicatif::ProgressBar::hidden()).await.expect("check");
        assert_eq!(found.before_rules, Share { contexts: 4, from_before: 2 }, "{:?}", db.backend());
        assert_eq!(found.kept, Share { contexts: 2, from_before: 0 }, "{:?}", db.backend());
        assert_eq!(found.dropped.get(&Giveaway::Article), Some(&Share { contexts: 2, from_before: 2 }), "{:?}", db.backend());
    }
}
