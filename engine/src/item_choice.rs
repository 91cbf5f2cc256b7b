//! Which item a player gets next: a challenge's items in order; otherwise now and
//! then a gold item (more often to players who miss them), else the item held by
//! the fewest people among those not yet retired, the pairs of the player's friends
//! first; an item of a pair the player met in their last few items only when no
//! other is left.
//!
//! An item is held by its answers and by servings not yet answered that are younger
//! than [`gapwise_model::RESERVATION_MS`]; answers and servings of a crowd assignment that was
//! returned or abandoned hold nothing, so its items go to others. An item held
//! [`gapwise_store::Admin::answers_per_item`] times retires, except gold items,
//! which everyone gets.
//! The open game's counts come from the process's
//! [`super::hold_table::HoldTable`], and what a player was served from their view
//! kept in memory a short while.

use std::sync::{Arc, Mutex, PoisonError};

use rand::Rng;

use gapwise_model::{gold_rate, ChallengeId, ItemId, Language, PairId, PlayerId, K};

use super::hold_table::PlayerView;
use crate::engine::Engine;
use crate::error::EngineError;

/// Where the next item comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// The open game.
    Open,
    /// The open game's items, the most informative first (an adaptive study's:
    /// see [`super::adaptive`]).
    Informed,
    /// The challenge with this id.
    Challenge(&'a ChallengeId),
}

impl Engine {
    /// The next item for `annotator` with `k` contexts in `lang`, if any is left.
    pub(crate) async fn choose_item(
        &self,
        player: &PlayerId,
        k: K,
        language: Language,
        source: Source<'_>,
    ) -> Result<Option<ItemId>, EngineError> {
        match source {
            Source::Challenge(id) => Ok(self.store.game().next_challenge_item(id, player).await?),
            Source::Open | Source::Informed => {
                self.holds.refresh(&self.store).await?;
                let gold_first = if self.holds.has_gold(k, language) {
                    let misses = self.store.admin().recent_gold_misses(player).await?;
                    rand::thread_rng().gen_bool(gold_rate(misses))
                } else {
                    false
                };
                let view = self.player_view(player).await?;
                let open = {
                    let seen = view.lock().unwrap_or_else(PoisonError::into_inner);
                    let gold = if gold_first { self.holds.choose(k, language, &seen, true) } else { None };
                    match (gold, source) {
                        (Some(gold), _) => return Ok(Some(gold)),
                        (None, Source::Informed) => self.holds.open_items(k, language, &seen),
                        (None, _) => return Ok(self.holds.choose(k, language, &seen, false)),
                    }
                };
                self.most_informative(player, k, language, open).await
            }
        }
    }

    /// The items `annotator` was served and their friends, for the hold table's
    /// choice; kept in memory for a short while, or until someone's friends
    /// change, with the servings this process makes added at once.
    async fn player_view(&self, player: &PlayerId) -> Result<Arc<Mutex<PlayerView>>, EngineError> {
        let friends_now = self.store.changes().friends();
        if let Some(known) = self.players.get(player) {
            if known.lock().unwrap_or_else(PoisonError::into_inner).friends_read_at == friends_now {
                return Ok(known);
            }
        }
        let seen = self.store.game().served_and_friends(player).await?;
        let view = Arc::new(Mutex::new(PlayerView::new(seen, friends_now)));
        self.players.put(player.clone(), view.clone());
        Ok(view)
    }

    /// Counts a serving of `item` (of `pair`) to `player` in the player's view, if kept.
    pub(crate) fn count_served(&self, player: &PlayerId, item: ItemId, pair: PairId) {
        if let Some(view) = self.players.get(player) {
            view.lock().unwrap_or_else(PoisonError::into_inner).add(item, pair);
        }
    }
}
