//! Whole-word search in the corpus: the sentences of a language that contain the
//! target once as a whole word and not the distractor (the contexts of a pair).
//!
//! The word index ([`super::postings`]) gives the sentences that hold the target and
//! not the distractor; [`blank_for`] then keeps those that hold the target exactly
//! once, with its byte range.

use gapwise_model::Language;
use std::collections::HashSet;
use std::ops::ControlFlow;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use crate::error::StoreError;
use crate::material::Material;
use gapwise_model::words::blank_for;

/// Sentences read per query when checking candidates.
const SENTENCES_PER_QUERY: usize = 500;

/// A sentence that can stand for a pair, with the byte range of its blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub sentence_id: i64,
    pub text: String,
    pub blank: (usize, usize),
    /// Where the sentence comes from, `source/genre`.
    pub origin: String,
}

impl Material<'_> {
    /// The ids of the sentences of `language` that hold `target` and not
    /// `distractor` as whole words, sorted.
    async fn candidates(self, language: Language, target: &str, distractor: &str) -> Result<Vec<i64>, StoreError> {
        let with = self.sentences_with(language, target).await?;
        let without: HashSet<i64> = self.sentences_with(language, distractor).await?.into_iter().collect();
        Ok(with.into_iter().filter(|id| !without.contains(id)).collect())
    }

    /// Calls `each` with the fitting sentences among `ids`, in the order of `ids`,
    /// until it breaks.
    async fn each_context(
        self,
        ids: &[i64],
        target: &str,
        distractor: &str,
        mut each: impl FnMut(Found) -> ControlFlow<()>,
    ) -> Result<(), StoreError> {
        for chunk in ids.chunks(SENTENCES_PER_QUERY) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!("SELECT id, text, source || '/' || genre FROM sentences WHERE id IN ({})", marks.join(", "));
            let mut query = sqlx::query(&sql);
            for id in chunk {
                query = query.bind(*id);
            }
            let mut read = std::collections::HashMap::new();
            for r in query.fetch_all(self.pool()).await? {
                read.insert(r.try_get::<i64, _>(0)?, (r.try_get::<String, _>(1)?, r.try_get::<String, _>(2)?));
            }
            for id in chunk {
                let Some((text, origin)) = read.remove(id) else { continue };
                if let Some(blank) = blank_for(&text, target, distractor) {
                    if each(Found { sentence_id: *id, text, blank, origin }).is_break() {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// The first `limit` sentences of `language` that contain `target` once as a
    /// whole word and not `distractor`.
    pub async fn find_contexts(self, language: Language, target: &str, distractor: &str, limit: usize) -> Result<Vec<Found>, StoreError> {
        let mut found = Vec::new();
        if limit > 0 {
            let ids = self.candidates(language, target, distractor).await?;
            self.each_context(&ids, target, distractor, |f| {
                found.push(f);
                if found.len() >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .await?;
        }
        Ok(found)
    }

    /// Up to `sample` of those sentences drawn uniformly without replacement (the
    /// candidates in a seeded random order, the first fitting ones kept), leaving out
    /// the sentence ids in `exclude`; in corpus order.
    pub async fn sample_contexts(
        self,
        language: Language,
        target: &str,
        distractor: &str,
        sample: usize,
        seed: u64,
        exclude: &HashSet<i64>,
    ) -> Result<Vec<Found>, StoreError> {
        let mut ids = self.candidates(language, target, distractor).await?;
        ids.retain(|id| !exclude.contains(id));
        ids.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        let mut kept: Vec<Found> = Vec::with_capacity(sample.min(4096));
        if sample > 0 {
            self.each_context(&ids, target, distractor, |f| {
                kept.push(f);
                if kept.len() >= sample {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .await?;
        }
        kept.sort_by_key(|f| f.sentence_id);
        Ok(kept)
    }

    /// How many sentences of the language hold `word` as a whole word.
    pub async fn word_count(self, language: Language, word: &str) -> Result<i64, StoreError> {
        Ok(i64::try_from(self.sentences_with(language, word).await?.len()).unwrap_or(i64::MAX))
    }
}
