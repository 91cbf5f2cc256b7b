//! Which item a player gets next: a challenge's items in order; otherwise now and
//! then a gold item (more often to players who miss them), else the item held by
//! the fewest people among those not yet retired, the pairs of the player's friends
//! first.
//!
//! An item is held by its answers and by servings not yet answered that are younger
//! than [`RESERVATION_MS`]; answers and servings of a crowd assignment that was
//! returned or abandoned hold nothing, so its items go to others. An item held
//! [`Store::answers_per_item`] times retires, except gold items, which everyone gets.

use rand::Rng;

use super::{now_ms, Store, StoreError};
use crate::model::{gold_rate, RESERVATION_MS};

/// Where the next item comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// The open game.
    Open,
    /// The challenge with this id.
    Challenge(&'a str),
}

/// How many hold item `i.id`: `$5` is the oldest time a live reservation has.
const HELD: &str = "(SELECT COUNT(*) FROM servings s WHERE s.item_id = i.id \
     AND (s.served_at >= $5 OR EXISTS (SELECT 1 FROM answers a WHERE a.id = s.id)) \
     AND NOT EXISTS (SELECT 1 FROM crowd_assignments c WHERE c.annotator_id = s.annotator_id AND c.status IN ('returned', 'abandoned')))";

/// Choice items of an active pair with `$1` contexts in language `$2` that annotator
/// `$3` has never been served.
const PLAYABLE: &str = "FROM items i JOIN word_pairs p ON p.id = i.pair_id AND i.kind = 'choice' \
     WHERE i.k = $1 AND p.lang = $2 AND p.status = 'active' \
     AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.annotator_id = $3 AND s.item_id = i.id)";

impl Store {
    /// The next item for `annotator` with `k` contexts in `lang`, if any is left.
    pub(super) async fn choose_item(&self, annotator: &str, k: u8, lang: &str, source: Source<'_>) -> Result<Option<i64>, StoreError> {
        match source {
            Source::Challenge(id) => Ok(sqlx::query_scalar(
                "SELECT c.item_id FROM challenge_items c WHERE c.challenge_id = $1 \
                 AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.annotator_id = $2 AND s.item_id = c.item_id) \
                 ORDER BY c.position LIMIT 1",
            )
            .bind(id)
            .bind(annotator)
            .fetch_optional(self.pool())
            .await?),
            Source::Open => {
                self.reclaim_abandoned().await?;
                let misses = self.recent_gold_misses(annotator).await?;
                let gold_now = rand::thread_rng().gen_bool(gold_rate(misses));
                if gold_now {
                    let gold = sqlx::query_scalar(&format!("SELECT i.id {PLAYABLE} AND i.gold = 1 ORDER BY RANDOM() LIMIT 1"))
                        .bind(i64::from(k))
                        .bind(lang)
                        .bind(annotator)
                        .fetch_optional(self.pool())
                        .await?;
                    if gold.is_some() {
                        return Ok(gold);
                    }
                }
                let cap = self.answers_per_item().await?;
                // each candidate's holders are counted once, then filtered and ordered on
                let sql = format!(
                    "SELECT id FROM (SELECT i.id, i.gold, {HELD} AS held, \
                            CASE WHEN p.creator_id IN (SELECT f.friend_id FROM friends f WHERE f.annotator_id = $3) THEN 0 ELSE 1 END AS stranger \
                     {PLAYABLE}) candidates \
                     WHERE gold = 1 OR held < $4 ORDER BY stranger, held, RANDOM() LIMIT 1"
                );
                Ok(sqlx::query_scalar(&sql)
                    .bind(i64::from(k))
                    .bind(lang)
                    .bind(annotator)
                    .bind(cap)
                    .bind(now_ms() - RESERVATION_MS)
                    .fetch_optional(self.pool())
                    .await?)
            }
        }
    }
}
