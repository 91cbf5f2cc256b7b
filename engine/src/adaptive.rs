//! A study's adaptive serving ([`gapwise_model::ItemPolicy::MostInformation`]):
//! among the open game's items for the participant (never served to them, gold or
//! not yet retired), the one that the rule of
//! [`gapwise_stats::adaptive::most_informative`] picks: while any has
//! fewer than ten holders the least held, then the one with the most information
//! at the participant's ability. The difficulties are the 1PL fitted to every
//! answer of the study's k and language, fitted again when older than
//! [`super::estimates::REFIT_AFTER`]; the participant's ability is read from their own answers at
//! each choice. A friend's pair does not come first here.

use std::sync::Arc;

use rand::seq::SliceRandom;

use gapwise_model::{ItemId, Language, PlayerId, K};
use gapwise_stats::adaptive::{ability, most_informative, Open};

use super::estimates::Estimates;
use crate::engine::Engine;
use crate::error::EngineError;

impl Engine {
    /// The item of `open` (id, holders) to serve `annotator` in the game of `k`
    /// contexts in `lang` (see the module).
    pub(crate) async fn most_informative(
        &self,
        player: &PlayerId,
        k: K,
        language: Language,
        mut open: Vec<(ItemId, i64)>,
    ) -> Result<Option<ItemId>, EngineError> {
        let estimates = self.estimates(k, language).await?;
        let mine: Vec<(f64, bool)> =
            self.store.game().answers_of(player).await?.into_iter().map(|(item, right)| (estimates.of(item), right)).collect();
        // ties go to the last: in random order, to no item in particular
        open.shuffle(&mut rand::thread_rng());
        let seen_as: Vec<Open> =
            open.iter().map(|&(id, held)| Open { answers: usize::try_from(held).unwrap_or(0), difficulty: estimates.of(id) }).collect();
        // the hold table offers only items under the cap
        let pick = most_informative(&seen_as, ability(&mine), usize::MAX);
        Ok(pick.and_then(|at| open.get(at)).map(|&(id, _)| id))
    }

    /// The difficulties of the game of `k` contexts in `lang`, fitted at most
    /// [`super::estimates::REFIT_AFTER`] ago.
    async fn estimates(&self, k: K, language: Language) -> Result<Arc<Estimates>, EngineError> {
        let game = (k, language);
        if let Some(known) = self.estimates.get(&game) {
            return Ok(known);
        }
        let answers = self.store.game().answers_in_game(k, language).await?;
        // a fit over a large game takes a while: off the request threads
        let fitted = match tokio::task::spawn_blocking(move || Estimates::fit(&answers)).await {
            Ok(fitted) => Arc::new(fitted),
            Err(failed) => std::panic::resume_unwind(failed.into_panic()),
        };
        self.estimates.put(game, fitted.clone());
        Ok(fitted)
    }
}
