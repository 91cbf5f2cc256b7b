//! Which item a player gets next: a challenge's items in order; otherwise now and
//! then a gold item (more often to players who miss them), else the item held by
//! the fewest people among those not yet retired, the pairs of the player's friends
//! first.
//!
//! An item is held by its answers and by servings not yet answered that are younger
//! than [`gapwise_model::RESERVATION_MS`]; answers and servings of a crowd assignment that was
//! returned or abandoned hold nothing, so its items go to others. An item held
//! [`Store::answers_per_item`] times retires, except gold items, which everyone gets.
//! The open game's counts come from the process's
//! [`super::hold_table::HoldTable`], and what a player was served from their view
//! kept in memory a short while ([`PLAYER_VIEW_AGE`]).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rand::Rng;

use super::hold_table::Player;
use super::{Store, StoreError};
use gapwise_model::gold_rate;

/// How long a player's view (their served items and friends) is kept in memory.
/// Another process may serve them meanwhile: the unique serving of an item to a
/// player turns that serving down, the view is read again and the choice made again.
pub(crate) const PLAYER_VIEW_AGE: Duration = Duration::from_secs(2);

/// Where the next item comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// The open game.
    Open,
    /// The challenge with this id.
    Challenge(&'a str),
}

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
                self.holds.refresh(self).await?;
                let gold_first = if self.holds.has_gold(k, lang) {
                    let misses = self.recent_gold_misses(annotator).await?;
                    rand::thread_rng().gen_bool(gold_rate(misses))
                } else {
                    false
                };
                let view = self.player_view(annotator).await?;
                let player = view.lock().unwrap_or_else(PoisonError::into_inner);
                let gold = if gold_first { self.holds.choose(k, lang, &player, true) } else { None };
                Ok(gold.or_else(|| self.holds.choose(k, lang, &player, false)))
            }
        }
    }

    /// The items `annotator` was served and their friends, for the hold table's
    /// choice; kept in memory for [`PLAYER_VIEW_AGE`], with the servings this
    /// process makes added at once.
    async fn player_view(&self, annotator: &str) -> Result<Arc<Mutex<Player>>, StoreError> {
        if let Some(known) = self.players.get(annotator) {
            return Ok(known);
        }
        // one query for both: an item id, or a friend's id
        let rows: Vec<(Option<i64>, Option<String>)> = sqlx::query_as(
            "SELECT item_id, NULL FROM servings WHERE annotator_id = $1 \
             UNION ALL SELECT NULL, friend_id FROM friends WHERE annotator_id = $1",
        )
        .bind(annotator)
        .fetch_all(self.pool())
        .await?;
        let mut player = Player { served: HashSet::new(), friends: HashSet::new() };
        for (item, friend) in rows {
            player.served.extend(item);
            player.friends.extend(friend);
        }
        let view = Arc::new(Mutex::new(player));
        self.players.put(annotator.to_owned(), view.clone());
        Ok(view)
    }

    /// Counts a serving of `item_id` to `annotator` in the player's view, if kept.
    pub(super) fn count_served(&self, annotator: &str, item_id: i64) {
        if let Some(view) = self.players.get(annotator) {
            view.lock().unwrap_or_else(PoisonError::into_inner).served.insert(item_id);
        }
    }
}
