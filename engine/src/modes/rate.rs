//! The rate mode's rules (the Likert variant of Section 6): an item of an active
//! pair is served until [`LIKERT_RATERS`] people rated it, in the store's order (the
//! pair the player met least, a sentence they have not read, then the most rated, so
//! that items get finished); which word stands at the scale's left end is drawn per
//! serving, so the scale shows no hint. A rating is stored on the paper's scale, 1 =
//! surely the target, 5 = surely the distractor; rating again replaces it.

use rand::Rng;

use gapwise_model::{ItemId, Language, PlayerId, RateCard, Reported, ServingId, Timing, Trial, LIKERT_RATERS};
use gapwise_store::{RateServing, Store, StoreError};

use super::{answer, open_or_serve, Answers, Judged};
use crate::error::EngineError;

crate::engine::part!(
    /// The Likert ratings' rounds and ratings.
    Rate,
    rate
);

impl Rate<'_> {
    /// The next Likert item of `language` for `annotator` (the one served and not
    /// yet rated, else a new one); `None` when none is left for them.
    pub async fn round(self, player: &PlayerId, language: Language) -> Result<Option<RateCard>, EngineError> {
        let store = &self.store;
        let serving = open_or_serve(|| store.rate().open_serving(player, language), || serve_item(store, player, language)).await?;
        let Some(serving) = serving else { return Ok(None) };
        Ok(Some(store.rate().card(player, &serving).await?))
    }

    /// `annotator` rates serving `serving` at `position`: 1 (surely the left word)
    /// to 5 (surely the right one).
    pub async fn rate(self, player: &PlayerId, serving: &ServingId, position: u8, reported: Reported) -> Result<(), EngineError> {
        answer::<Rating>(&self.store, player, serving, position, reported).await
    }
}

/// Serves `annotator` an item of `language` that fewer than [`LIKERT_RATERS`] people
/// rated; false when none is left.
async fn serve_item(store: &Store, player: &PlayerId, language: Language) -> Result<bool, EngineError> {
    let Some(item) = store.rate().unmet_item(player, language, LIKERT_RATERS).await? else { return Ok(false) };
    let target_first = rand::thread_rng().gen_bool(0.5);
    store.rate().insert_serving(player, item, target_first).await?;
    Ok(true)
}

struct Rating;

impl Answers for Rating {
    type Serving = RateServing;
    /// The place on the scale shown, 1 (left) to 5 (right).
    type Given = u8;
    /// (item, rating on the paper's scale).
    type Row = (ItemId, u8);
    type Outcome = ();
    const SERVED: &'static str = "a Likert item";

    fn served_at(round: &RateServing) -> i64 {
        round.served_at
    }

    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, _: &Self::Given) -> Result<Option<RateServing>, StoreError> {
        store.rate().serving(player, serving).await
    }

    fn check(&position: &u8) -> Result<(), EngineError> {
        match position {
            1..=5 => Ok(()),
            _ => Err(EngineError::Invalid(format!("a rating is 1 to 5, not {position}"))),
        }
    }

    fn judge(round: &RateServing, &position: &u8) -> Result<Judged<(ItemId, u8), ()>, EngineError> {
        let rating = if round.target_first { position } else { 6 - position };
        Ok(Judged::New((round.item_id, rating), ()))
    }

    async fn write(
        store: &Store,
        player: &PlayerId,
        _: &ServingId,
        &row: &(ItemId, u8),
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        store.rate().record(player, row, timing, trial).await?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_is_stored_on_the_papers_scale_whichever_word_is_left() {
        let served = |target_first| RateServing { item_id: ItemId(7), target_first, served_at: 0 };
        assert_eq!(Rating::judge(&served(true), &2).expect("judged"), Judged::New((ItemId(7), 2), ()));
        assert_eq!(Rating::judge(&served(false), &2).expect("judged"), Judged::New((ItemId(7), 4), ()));
        assert!(matches!(Rating::check(&0), Err(EngineError::Invalid(_))));
        assert!(matches!(Rating::check(&6), Err(EngineError::Invalid(_))));
        assert!(Rating::check(&5).is_ok());
    }
}
