//! The rows of Likert rounds (Section 6) for players: one model-selected context at
//! a time, rated on a five-point scale between the two words, the left end's word
//! drawn per serving and recorded. What a rating is worth is the engine's rule; the
//! order items are served in is this file's SQL ([`Rate::unmet_item`]): the pair
//! the player met least, then a sentence they have not read, then the most rated.

use sqlx::Row;

use crate::error::StoreError;
use crate::rate::Rate;
use crate::sql::now_ms;
use gapwise_model::{ItemId, Language, PlayerId, RateCard, ServingId};

/// A Likert serving as a rating of it needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateServing {
    pub item_id: ItemId,
    /// Whether the target word stands at the scale's left end.
    pub target_first: bool,
    pub served_at: i64,
}

impl Rate<'_> {
    /// The Likert item of `language` served to player `player` and not yet rated.
    pub async fn open_serving(self, player: &PlayerId, language: Language) -> Result<Option<ServingId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT s.id FROM servings s JOIN items i ON i.id = s.item_id AND i.kind = 'likert' \
             JOIN word_pairs p ON p.id = i.pair_id AND p.lang = $2 \
             WHERE s.annotator_id = $1 AND NOT EXISTS (SELECT 1 FROM rate_ratings r WHERE r.annotator_id = $1 AND r.item_id = s.item_id) \
             ORDER BY s.served_at, s.id LIMIT 1",
        )
        .bind(player)
        .bind(language)
        .fetch_optional(self.pool())
        .await?)
    }

    /// A Likert item of an active pair of `language` that player `player` has not met
    /// and fewer than `raters` people rated: of the pair they met least (a player's
    /// ratings spread over the pairs), then of a sentence they have not read in any
    /// item, then the most rated (so that items get finished).
    pub async fn unmet_item(self, player: &PlayerId, language: Language, raters: i64) -> Result<Option<ItemId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT i.id FROM items i JOIN word_pairs p ON p.id = i.pair_id AND p.lang = $2 AND p.status = 'active' \
             WHERE i.kind = 'likert' AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.annotator_id = $1 AND s.item_id = i.id) \
             AND (SELECT COUNT(*) FROM rate_ratings r WHERE r.item_id = i.id) < $3 \
             ORDER BY (SELECT COUNT(*) FROM servings s JOIN items m ON m.id = s.item_id WHERE s.annotator_id = $1 AND m.pair_id = i.pair_id), \
             CASE WHEN EXISTS (SELECT 1 FROM item_contexts c JOIN item_contexts seen ON seen.sentence_id = c.sentence_id \
                               JOIN servings s ON s.item_id = seen.item_id WHERE c.item_id = i.id AND s.annotator_id = $1) THEN 1 ELSE 0 END, \
             (SELECT COUNT(*) FROM rate_ratings r WHERE r.item_id = i.id) DESC, i.id LIMIT 1",
        )
        .bind(player)
        .bind(language)
        .bind(raters)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Stores Likert item `item` served to player `player`, the target word at the
    /// left end or not; nothing when they have it already (two tabs racing for it).
    pub async fn insert_serving(self, player: &PlayerId, item: ItemId, target_first: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) VALUES ($1, $2, $3, 1, $4, $5) \
             ON CONFLICT (annotator_id, item_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(player)
        .bind(item)
        .bind(i64::from(target_first))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The card of Likert serving `serving` of player `player`.
    pub async fn card(self, player: &PlayerId, serving: &ServingId) -> Result<RateCard, StoreError> {
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
            .game()
            .contexts(row.try_get(0)?)
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| StoreError::Corrupt("a Likert item has no context".into()))?;
        let rated =
            sqlx::query_scalar("SELECT COUNT(*) FROM rate_ratings WHERE annotator_id = $1").bind(player).fetch_one(self.pool()).await?;
        Ok(RateCard { serving_id: serving.to_owned(), context, left, right, rated })
    }

    /// Likert serving `serving` of player `player`; `None` when it is not theirs.
    pub async fn serving(self, player: &PlayerId, serving: &ServingId) -> Result<Option<RateServing>, StoreError> {
        let row = sqlx::query(
            "SELECT s.item_id, s.target_first, s.served_at FROM servings s JOIN items i ON i.id = s.item_id AND i.kind = 'likert' \
             WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(serving)
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| Ok(RateServing { item_id: r.try_get(0)?, target_first: r.try_get::<i64, _>(1)? == 1, served_at: r.try_get(2)? }))
            .transpose()
    }
}
