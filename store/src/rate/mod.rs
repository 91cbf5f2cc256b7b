//! The rate mode, the Likert variant of Section 6: single-context items, each rated
//! by people from 1 (surely the target) to 5 (surely the distractor), and what
//! Table 8 and Fig. 2 read back; its rounds are in [`rounds`].

mod rounds;

pub use rounds::RateServing;

use std::collections::{HashMap, HashSet};

use sqlx::Row;

use super::items::{insert_item, ItemKind};
use crate::error::StoreError;
use crate::guess::SHOWN_WHOLE;
use crate::search::{ContextTally, Found};
use crate::sql::{bind_measure, now_ms, MEASURE_COLUMNS};
use gapwise_model::{ItemId, Language, PairId, PlayerId, Timing, Trial, K};

crate::store::area!(
    /// The rate mode's rows: Likert items, servings and ratings.
    Rate,
    rate
);

/// A Likert item with its mean rating, as the analyses need it.
#[derive(Clone, Debug, PartialEq)]
pub struct RateRow {
    pub item_id: ItemId,
    pub language: Language,
    pub target: String,
    pub distractor: String,
    /// Source of the one context sentence.
    pub source: String,
    pub ratings: u64,
    pub mean_rating: f64,
    /// Eq. 2 score of the context for each model asked for, in that order.
    pub model_scores: Vec<Option<f64>>,
}

/// A pair that Section 6 selects contexts for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatePair {
    pub id: PairId,
    pub target: String,
    pub distractor: String,
}

impl Rate<'_> {
    /// The active pairs of `language` that have no Likert items yet. With `count`,
    /// only the most extreme by success rate in the main game, as Section 6 does: the
    /// `count / 2` hardest and the rest easiest of the pairs people have played.
    pub async fn pairs_without_items(self, language: Language, count: Option<usize>) -> Result<Vec<RatePair>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.id, p.target, p.distractor, \
                    (SELECT AVG(CAST(a.correct AS DOUBLE PRECISION)) FROM answers a JOIN items i ON i.id = a.item_id WHERE i.pair_id = p.id) \
             FROM word_pairs p WHERE p.lang = $1 AND p.status = 'active' \
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'likert') ORDER BY p.id",
        )
        .bind(language)
        .fetch_all(self.pool())
        .await?;
        let mut pairs = Vec::with_capacity(rows.len());
        for r in rows {
            let pair = RatePair { id: r.try_get(0)?, target: r.try_get(1)?, distractor: r.try_get(2)? };
            pairs.push((pair, r.try_get::<Option<f64>, _>(3)?));
        }
        let Some(count) = count else { return Ok(pairs.into_iter().map(|(p, _)| p).collect()) };
        let (played, unplayed): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(_, rate)| rate.is_some());
        let mut played: Vec<(RatePair, f64)> = played.into_iter().filter_map(|(p, rate)| rate.map(|r| (p, r))).collect();
        played.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.id.cmp(&b.0.id)));
        let hardest = count / 2;
        let easiest = (count - hardest).min(played.len().saturating_sub(hardest));
        let tail = played.split_off(played.len() - easiest);
        played.truncate(hardest);
        let mut chosen: Vec<RatePair> = played.into_iter().chain(tail).map(|(p, _)| p).collect();
        // too few pairs played (a new database): pairs nobody played yet, spread
        // evenly over the list (pairs of one strategy were imported together)
        let wanted = count.saturating_sub(chosen.len()).min(unplayed.len());
        chosen.extend((0..wanted).filter_map(|i| unplayed.get(i * unplayed.len() / wanted).map(|(p, _)| p.clone())));
        Ok(chosen)
    }

    /// Up to `sample` sentences drawn at random (seeded by the pair id) from those of
    /// the language that contain the target once as a whole word and not the
    /// distractor, leaving out every sentence already in a Likert item (of any pair:
    /// Section 6 uses a sentence for one pair only) or served by the next-word or
    /// cloze game (whose sentences are not items').
    pub async fn candidates(self, language: Language, pair: &RatePair, sample: usize) -> Result<Vec<Found>, StoreError> {
        let sql = format!(
            "SELECT c.sentence_id FROM item_contexts c JOIN items i ON i.id = c.item_id WHERE i.kind = 'likert' UNION {SHOWN_WHOLE}"
        );
        let used: HashSet<i64> = sqlx::query_scalar(&sql).fetch_all(self.pool()).await?.into_iter().collect();
        let mut tally = ContextTally::default();
        self.material()
            .sample_contexts(language, &pair.target, &pair.distractor, sample, pair.id.get().unsigned_abs(), &used, &mut tally)
            .await
    }

    /// Publishes one Likert item per `(sentence id, blank byte range)` for a pair.
    /// Returns the new items' ids.
    pub async fn publish_items(self, pair: PairId, contexts: &[(i64, (usize, usize))]) -> Result<Vec<ItemId>, StoreError> {
        let mut tx = self.pool().begin().await?;
        let mut ids = Vec::with_capacity(contexts.len());
        for context in contexts {
            ids.push(insert_item(&mut tx, pair, K::ONE, ItemKind::Likert, std::slice::from_ref(context)).await?);
        }
        tx.commit().await?;
        Ok(ids)
    }

    /// Stores an annotator's rating of a Likert item; a second rating of the same
    /// item by the same person replaces the first. The game's rules (the engine's
    /// rate mode) checked the rating and that the item is the one served to them;
    /// the table refuses a rating outside 1 to 5.
    pub async fn record(self, player: &PlayerId, (item_id, rating): (ItemId, u8), timing: Timing, trial: Trial) -> Result<(), StoreError> {
        let replaced: Vec<String> = MEASURE_COLUMNS.split(", ").map(|column| format!("{column} = excluded.{column}")).collect();
        let sql = format!(
            "INSERT INTO rate_ratings (annotator_id, item_id, rating, created_at, {MEASURE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (annotator_id, item_id) DO UPDATE SET rating = excluded.rating, created_at = excluded.created_at, {}",
            replaced.join(", ")
        );
        let query = sqlx::query(&sql).bind(player).bind(item_id).bind(i64::from(rating)).bind(now_ms());
        bind_measure(query, timing, trial).execute(self.pool()).await?;
        Ok(())
    }

    /// Every rated Likert item (optionally of one language), with its mean rating and
    /// the Eq. 2 scores of `models`.
    pub async fn rated_items(self, models: &[String], language: Option<Language>, days: (i64, i64)) -> Result<Vec<RateRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT i.id, p.lang, p.target, p.distractor, MIN(s.source), COUNT(*), AVG(CAST(r.rating AS DOUBLE PRECISION)) \
             FROM rate_ratings r JOIN items i ON i.id = r.item_id JOIN word_pairs p ON p.id = i.pair_id \
             JOIN item_contexts c ON c.item_id = i.id JOIN sentences s ON s.id = c.sentence_id \
             WHERE ($1 = '' OR p.lang = $1) AND r.created_at >= $2 AND r.created_at < $3 \
             GROUP BY i.id, p.lang, p.target, p.distractor ORDER BY i.id",
        )
        .bind(language.map_or("", Language::code))
        .bind(days.0)
        .bind(days.1)
        .fetch_all(self.pool())
        .await?;
        let scores = self.research().model_scores(models).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let item_id: ItemId = r.try_get(0)?;
            out.push(RateRow {
                item_id,
                language: r.try_get(1)?,
                target: r.try_get(2)?,
                distractor: r.try_get(3)?,
                source: r.try_get(4)?,
                ratings: u64::try_from(r.try_get::<i64, _>(5)?).unwrap_or(0),
                mean_rating: r.try_get(6)?,
                model_scores: scores.of(item_id),
            });
        }
        Ok(out)
    }

    /// Every rating of a Likert item (optionally of one language), as (language,
    /// item, rating on the paper's scale), by item.
    pub async fn item_ratings(self, language: Option<Language>, days: (i64, i64)) -> Result<Vec<(Language, ItemId, i64)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT p.lang, r.item_id, CAST(r.rating AS BIGINT) FROM rate_ratings r JOIN items i ON i.id = r.item_id \
             JOIN word_pairs p ON p.id = i.pair_id WHERE ($1 = '' OR p.lang = $1) AND r.created_at >= $2 AND r.created_at < $3 \
             ORDER BY r.item_id, r.created_at",
        )
        .bind(language.map_or("", Language::code))
        .bind(days.0)
        .bind(days.1)
        .fetch_all(self.pool())
        .await?)
    }

    /// How many sentences of the language's corpus contain each word as a whole word
    /// (case-insensitive): the frequency predictor of Table 8.
    pub async fn sentence_frequencies(self, language: Language, words: &HashSet<String>) -> Result<HashMap<String, u64>, StoreError> {
        let mut counts = HashMap::with_capacity(words.len());
        for word in words {
            counts.insert(word.clone(), u64::try_from(self.material().word_count(language, word).await?).unwrap_or(0));
        }
        Ok(counts)
    }
}
