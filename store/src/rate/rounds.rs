//! Likert rounds (Section 6) for players: one model-selected context at a time, rated
//! on a five-point scale between the two words. Which word stands at the left end is
//! drawn per serving and recorded, so the scale shows no hint; ratings are stored
//! on the paper's scale, 1 = surely the target, 5 = surely the distractor. An item
//! is served until [`LIKERT_RATERS`] people rated it, half-rated items first.

use rand::Rng;
use sqlx::Row;

use crate::round::open_or_serve;
use crate::{now_ms, Store, StoreError};
use gapwise_model::{RateCard, Timing, LIKERT_RATERS};

impl Store {
    /// The next Likert item of `language` for annotator `id` (the one served and
    /// not yet rated, else a new one); `None` when none is left for them.
    pub async fn next_likert(&self, id: &str, language: &str) -> Result<Option<RateCard>, StoreError> {
        let serving = open_or_serve(|| self.open_likert_serving(id, language), self.serve_likert_item(id, language)).await?;
        let Some(serving) = serving else { return Ok(None) };
        self.likert_card(id, &serving).await.map(Some)
    }

    /// The Likert item of `language` served to annotator `id` and not yet rated.
    async fn open_likert_serving(&self, id: &str, language: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT s.id FROM servings s JOIN items i ON i.id = s.item_id AND i.kind = 'likert' \
             JOIN word_pairs p ON p.id = i.pair_id AND p.lang = $2 \
             WHERE s.annotator_id = $1 AND NOT EXISTS (SELECT 1 FROM rate_ratings r WHERE r.annotator_id = $1 AND r.item_id = s.item_id) \
             ORDER BY s.served_at LIMIT 1",
        )
        .bind(id)
        .bind(language)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Serves annotator `id` a Likert item of `language` that fewer than
    /// [`LIKERT_RATERS`] people rated, half-rated ones first; false when none is left.
    async fn serve_likert_item(&self, id: &str, language: &str) -> Result<bool, StoreError> {
        let item: Option<i64> = sqlx::query_scalar(
            "SELECT i.id FROM items i JOIN word_pairs p ON p.id = i.pair_id AND p.lang = $2 AND p.status = 'active' \
             WHERE i.kind = 'likert' AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.annotator_id = $1 AND s.item_id = i.id) \
             AND (SELECT COUNT(*) FROM rate_ratings r WHERE r.item_id = i.id) < $3 \
             ORDER BY (SELECT COUNT(*) FROM rate_ratings r WHERE r.item_id = i.id) DESC, i.id LIMIT 1",
        )
        .bind(id)
        .bind(language)
        .bind(LIKERT_RATERS)
        .fetch_optional(self.pool())
        .await?;
        let Some(item) = item else { return Ok(false) };
        let target_first = rand::thread_rng().gen_bool(0.5);
        // two tabs may race for the item: the unique (annotator, item) lets one win
        sqlx::query(
            "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) VALUES ($1, $2, $3, 1, $4, $5) \
             ON CONFLICT (annotator_id, item_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(id)
        .bind(item)
        .bind(i64::from(target_first))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(true)
    }

    async fn likert_card(&self, id: &str, serving: &str) -> Result<RateCard, StoreError> {
        let row = sqlx::query(
            "SELECT s.item_id, s.target_first, p.target, p.distractor FROM servings s \
             JOIN items i ON i.id = s.item_id JOIN word_pairs p ON p.id = i.pair_id WHERE s.id = $1",
        )
        .bind(serving)
        .fetch_one(self.pool())
        .await?;
        let (target, distractor): (String, String) = (row.try_get(2)?, row.try_get(3)?);
        let (left, right) = if row.try_get::<i64, _>(1)? == 1 { (target, distractor) } else { (distractor, target) };
        let context = self
            .contexts(row.try_get(0)?)
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::Invalid("a Likert item has no context".into()))?;
        let rated = sqlx::query_scalar("SELECT COUNT(*) FROM rate_ratings WHERE annotator_id = $1").bind(id).fetch_one(self.pool()).await?;
        Ok(RateCard { serving_id: serving.to_owned(), context, left, right, rated })
    }

    /// Stores annotator `id`'s rating of serving `serving`: `position` 1 (surely the
    /// left word) to 5 (surely the right one), turned to the paper's scale.
    pub async fn rate_likert(&self, id: &str, serving: &str, position: u8, client_ms: Option<i64>) -> Result<(), StoreError> {
        if !(1..=5).contains(&position) {
            return Err(StoreError::Invalid(format!("a rating is 1 to 5, not {position}")));
        }
        let row = sqlx::query(
            "SELECT s.item_id, s.target_first, s.served_at FROM servings s JOIN items i ON i.id = s.item_id AND i.kind = 'likert' \
             WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(serving)
        .bind(id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("{serving:?} is not a Likert item served to you")))?;
        let rating = if row.try_get::<i64, _>(1)? == 1 { position } else { 6 - position };
        let timing = Timing::of(row.try_get(2)?, now_ms(), client_ms);
        self.record_likert(id, row.try_get(0)?, rating, timing).await
    }
}
