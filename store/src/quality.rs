//! Quality control in the store: the per-item redundancy admins set, gold items,
//! and the flags that mark players for admins and exports (see `model::quality`).

use std::collections::BTreeMap;

use sqlx::Row;

use super::audit::record;
use super::settings::put_setting;
use crate::admin::Admin;
use crate::error::StoreError;
use gapwise_model::{
    gold_flag, FlaggedPlayer, ItemId, PlayerId, DEFAULT_ANSWERS_PER_ITEM, FAST_ANSWER_FLOOR_MS, GOLD_WINDOW, MAX_ANSWERS_PER_ITEM,
};

/// The settings row that holds the per-item redundancy.
const ANSWERS_PER_ITEM: &str = "answers_per_item";

/// Most flagged players the admin page lists.
const FLAGGED_SHOWN: usize = 100;

impl Admin<'_> {
    /// Answers an item collects before it retires (gold items never do).
    pub async fn answers_per_item(self) -> Result<i64, StoreError> {
        Ok(self.setting(ANSWERS_PER_ITEM).await?.unwrap_or(DEFAULT_ANSWERS_PER_ITEM))
    }

    /// Sets the per-item redundancy (1 to [`MAX_ANSWERS_PER_ITEM`]) and records who
    /// did it.
    pub async fn set_answers_per_item(self, staff: &str, n: i64) -> Result<(), StoreError> {
        if !(1..=MAX_ANSWERS_PER_ITEM).contains(&n) {
            return Err(StoreError::Invalid(format!("answers per item must be 1 to {MAX_ANSWERS_PER_ITEM}, not {n}")));
        }
        let mut tx = self.pool().begin().await?;
        put_setting(&mut tx, ANSWERS_PER_ITEM, n).await?;
        record(&mut tx, staff, "set answers per item", &n.to_string()).await?;
        tx.commit().await?;
        self.changes.pool_changed();
        Ok(())
    }

    /// Marks a choice item as gold (its answer verified) or takes the mark off.
    pub async fn set_item_gold(self, staff: &str, item_id: ItemId, gold: bool) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        let changed = sqlx::query("UPDATE items SET gold = $1 WHERE id = $2 AND kind = 'choice'")
            .bind(i64::from(gold))
            .bind(item_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed == 0 {
            return Err(StoreError::NotFound(format!("no choice item {item_id}")));
        }
        record(&mut tx, staff, if gold { "mark gold" } else { "unmark gold" }, &format!("item {item_id}")).await?;
        tx.commit().await?;
        self.changes.pool_changed();
        Ok(())
    }

    /// How many of the annotator's latest [`GOLD_WINDOW`] gold answers were wrong.
    pub async fn recent_gold_misses(self, player: &PlayerId) -> Result<usize, StoreError> {
        let latest: Vec<i64> = sqlx::query_scalar(
            "SELECT a.correct FROM answers a JOIN items i ON i.id = a.item_id \
             WHERE a.annotator_id = $1 AND i.gold = 1 ORDER BY a.created_at DESC LIMIT $2",
        )
        .bind(player)
        .bind(i64::try_from(GOLD_WINDOW).unwrap_or(i64::MAX))
        .fetch_all(self.pool())
        .await?;
        Ok(latest.iter().filter(|&&correct| correct == 0).count())
    }

    /// Every player with a quality flag, by annotator id: `too_fast` answers, repeated
    /// gold misses (`gold_failing`), a crowd assignment returned or abandoned.
    pub async fn player_flags(self) -> Result<BTreeMap<String, FlaggedPlayer>, StoreError> {
        let rows = sqlx::query(
            "SELECT n.id, n.pseudonym, COUNT(*), \
                    CAST(SUM(CASE WHEN i.gold = 1 AND a.correct = 1 THEN 1 ELSE 0 END) AS BIGINT), \
                    CAST(SUM(CASE WHEN i.gold = 1 AND a.correct = 0 THEN 1 ELSE 0 END) AS BIGINT), \
                    CAST(SUM(CASE WHEN COALESCE(a.client_ms, a.server_ms) < $1 THEN 1 ELSE 0 END) AS BIGINT), \
                    (SELECT c.status FROM crowd_assignments c WHERE c.annotator_id = n.id) \
             FROM answers a JOIN annotators n ON n.id = a.annotator_id JOIN items i ON i.id = a.item_id \
             GROUP BY n.id, n.pseudonym",
        )
        .bind(FAST_ANSWER_FLOOR_MS)
        .fetch_all(self.pool())
        .await?;
        let mut flagged = BTreeMap::new();
        for r in rows {
            let (gold_right, gold_missed, too_fast): (i64, i64, i64) = (r.try_get(3)?, r.try_get(4)?, r.try_get(5)?);
            let assignment: Option<String> = r.try_get(6)?;
            let mut reasons = Vec::new();
            if too_fast > 0 {
                reasons.push("too_fast".to_owned());
            }
            reasons.extend(gold_flag(gold_right, gold_missed).map(str::to_owned));
            if let Some(status @ ("returned" | "abandoned")) = assignment.as_deref() {
                reasons.push(format!("assignment_{status}"));
            }
            if !reasons.is_empty() {
                let player = FlaggedPlayer { pseudonym: r.try_get(1)?, reasons, answers: r.try_get(2)?, gold_right, gold_missed };
                flagged.insert(r.try_get(0)?, player);
            }
        }
        Ok(flagged)
    }

    /// The flagged players the admin page lists, most gold misses first.
    pub(super) async fn flagged_players(self) -> Result<Vec<FlaggedPlayer>, StoreError> {
        let mut players: Vec<FlaggedPlayer> = self.player_flags().await?.into_values().collect();
        players.sort_by(|a, b| b.gold_missed.cmp(&a.gold_missed).then(b.answers.cmp(&a.answers)));
        players.truncate(FLAGGED_SHOWN);
        Ok(players)
    }
}
