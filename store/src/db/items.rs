//! Building items: for each active pair without choice items, groups of k distinct
//! sentences that contain the target once as a whole word and not the distractor.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use super::words::blank_for;
use super::{now_ms, Store, StoreError};
use crate::model::ALLOWED_K;

/// Items built per pair and k unless asked otherwise.
pub const ITEMS_PER_K: usize = 4;

/// What a build did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub pairs: u64,
    pub items: u64,
    /// Active pairs for which no sentence qualified.
    pub pairs_without_contexts: u64,
}

/// A sentence that can stand for a pair, with the byte range of its blank.
struct Candidate {
    sentence_id: i64,
    blank: (usize, usize),
}

impl Store {
    /// Builds up to `per_k` items for each k in {1, 3, 5} for every active pair that
    /// has no items yet. Within one item the sentences are distinct; the choice is
    /// shuffled with a seed taken from the pair id, so a rebuild is reproducible.
    pub async fn build_items(&self, per_k: usize) -> Result<BuildReport, StoreError> {
        let pairs = sqlx::query(
            "SELECT p.id, p.lang, p.target, p.distractor FROM word_pairs p WHERE p.status = 'active' \
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'choice') ORDER BY p.id",
        )
        .fetch_all(self.pool())
        .await?;
        let mut report = BuildReport::default();
        let mut sentences_by_lang: std::collections::HashMap<String, Vec<(i64, String)>> = Default::default();
        let mut tx = self.pool().begin().await?;
        for pair in pairs {
            let (pair_id, lang): (i64, String) = (pair.try_get(0)?, pair.try_get(1)?);
            let (target, distractor): (String, String) = (pair.try_get(2)?, pair.try_get(3)?);
            if !sentences_by_lang.contains_key(&lang) {
                let rows = sqlx::query("SELECT id, text FROM sentences WHERE lang = $1 ORDER BY id")
                    .bind(&lang)
                    .fetch_all(self.pool())
                    .await?;
                let list = rows
                    .iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                sentences_by_lang.insert(lang.clone(), list);
            }
            let mut candidates: Vec<Candidate> = sentences_by_lang[&lang]
                .iter()
                .filter_map(|(id, text)| {
                    blank_for(text, &target, &distractor).map(|blank| Candidate { sentence_id: *id, blank })
                })
                .collect();
            report.pairs += 1;
            if candidates.is_empty() {
                report.pairs_without_contexts += 1;
                continue;
            }
            let mut rng = rand::rngs::StdRng::seed_from_u64(pair_id.unsigned_abs());
            candidates.shuffle(&mut rng);
            for k in ALLOWED_K {
                for group in candidates.chunks_exact(usize::from(k)).take(per_k) {
                    let item_id: i64 = sqlx::query_scalar(
                        "INSERT INTO items (pair_id, k, created_at) VALUES ($1, $2, $3) RETURNING id",
                    )
                    .bind(pair_id)
                    .bind(i64::from(k))
                    .bind(now_ms())
                    .fetch_one(&mut *tx)
                    .await?;
                    for (position, c) in group.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO item_contexts (item_id, position, sentence_id, blank_start, blank_end) \
                             VALUES ($1, $2, $3, $4, $5)",
                        )
                        .bind(item_id)
                        .bind(i64::try_from(position).unwrap_or(i64::MAX))
                        .bind(c.sentence_id)
                        .bind(i64::try_from(c.blank.0).unwrap_or(i64::MAX))
                        .bind(i64::try_from(c.blank.1).unwrap_or(i64::MAX))
                        .execute(&mut *tx)
                        .await?;
                    }
                    report.items += 1;
                }
            }
        }
        tx.commit().await?;
        Ok(report)
    }
}
