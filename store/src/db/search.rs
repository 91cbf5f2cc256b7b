//! Whole-word search in the corpus: the sentences of a language that contain the
//! target once as a whole word and not the distractor (the contexts of a pair).
//!
//! The full-text index (SQLite FTS5, PostgreSQL GIN over `to_tsvector('simple')`)
//! narrows the corpus to sentences with the target's tokens and without the
//! distractor's; [`blank_for`] then checks each hit exactly (whole word, once,
//! Unicode-aware, case-insensitive), so the index only has to be generous.

use std::collections::HashSet;
use std::ops::ControlFlow;

use futures_util::TryStreamExt;
use rand::SeedableRng;
use sqlx::Row;

use super::words::blank_for;
use super::{Backend, Store, StoreError};

/// A sentence that can stand for a pair, with the byte range of its blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub sentence_id: i64,
    pub text: String,
    pub blank: (usize, usize),
    /// Where the sentence comes from, `source/genre`.
    pub origin: String,
}

/// A word as an FTS5 query: its tokens (the index splits at anything not a letter
/// or digit, e.g. hyphens) quoted and joined by AND.
fn fts_string(word: &str) -> String {
    let tokens: Vec<String> = word.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(|t| format!("\"{t}\"")).collect();
    format!("({})", tokens.join(" AND "))
}

impl Store {
    /// Calls `each` with every fitting sentence, in corpus order, until it breaks.
    async fn each_context(
        &self,
        language: &str,
        target: &str,
        distractor: &str,
        mut each: impl FnMut(Found) -> ControlFlow<()>,
    ) -> Result<(), StoreError> {
        let query = match self.backend() {
            Backend::Sqlite => sqlx::query(
                "SELECT s.id, s.text, s.source || '/' || s.genre FROM sentences_fts JOIN sentences s ON s.id = sentences_fts.rowid \
                 WHERE sentences_fts MATCH $1 AND s.lang = $2 ORDER BY sentences_fts.rowid",
            )
            .bind(format!("{} NOT {}", fts_string(target), fts_string(distractor))),
            Backend::Postgres => sqlx::query(
                "SELECT id, text, source || '/' || genre FROM sentences WHERE to_tsvector('simple', text) @@ \
                 (phraseto_tsquery('simple', $1) && !! phraseto_tsquery('simple', $2)) AND lang = $3 ORDER BY id",
            )
            .bind(target.to_owned())
            .bind(distractor.to_owned()),
        };
        let mut rows = query.bind(language.to_owned()).fetch(self.pool());
        while let Some(r) = rows.try_next().await? {
            let text: String = r.try_get(1)?;
            if let Some(blank) = blank_for(&text, target, distractor) {
                if each(Found { sentence_id: r.try_get(0)?, text, blank, origin: r.try_get(2)? }).is_break() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The first `limit` sentences of `language` that contain `target` once as a
    /// whole word and not `distractor`.
    pub async fn find_contexts(&self, language: &str, target: &str, distractor: &str, limit: usize) -> Result<Vec<Found>, StoreError> {
        let mut found = Vec::new();
        if limit > 0 {
            self.each_context(language, target, distractor, |f| {
                found.push(f);
                if found.len() >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .await?;
        }
        Ok(found)
    }

    /// Up to `sample` of those sentences drawn uniformly (reservoir sampling, seeded),
    /// leaving out the sentence ids in `exclude`; in corpus order.
    pub async fn sample_contexts(
        &self,
        language: &str,
        target: &str,
        distractor: &str,
        sample: usize,
        seed: u64,
        exclude: &HashSet<i64>,
    ) -> Result<Vec<Found>, StoreError> {
        use rand::Rng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut kept: Vec<Found> = Vec::with_capacity(sample.min(4096));
        let mut seen = 0usize;
        self.each_context(language, target, distractor, |f| {
            if !exclude.contains(&f.sentence_id) {
                seen += 1;
                if kept.len() < sample {
                    kept.push(f);
                } else {
                    let j = rng.gen_range(0..seen);
                    if j < sample {
                        kept[j] = f;
                    }
                }
            }
            ControlFlow::Continue(())
        })
        .await?;
        kept.sort_by_key(|f| f.sentence_id);
        Ok(kept)
    }

    /// How many sentences of the language hold `word` as a whole word, as the index
    /// sees it (a hyphenated word counts where all its parts occur).
    pub async fn word_count(&self, language: &str, word: &str) -> Result<i64, StoreError> {
        let query = match self.backend() {
            Backend::Sqlite => sqlx::query_scalar(
                "SELECT COUNT(*) FROM sentences_fts JOIN sentences s ON s.id = sentences_fts.rowid \
                 WHERE sentences_fts MATCH $1 AND s.lang = $2",
            )
            .bind(fts_string(word)),
            Backend::Postgres => sqlx::query_scalar(
                "SELECT COUNT(*) FROM sentences WHERE to_tsvector('simple', text) @@ phraseto_tsquery('simple', $1) AND lang = $2",
            )
            .bind(word.to_owned()),
        };
        Ok(query.bind(language.to_owned()).fetch_one(self.pool()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::fts_string;

    #[test]
    fn words_are_quoted_for_fts5() {
        assert_eq!(fts_string("été"), "(\"été\")");
        assert_eq!(fts_string("twenty-one"), "(\"twenty\" AND \"one\")");
        assert_eq!(fts_string("a\"b"), "(\"a\" AND \"b\")");
    }
}
