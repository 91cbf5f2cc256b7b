//! The invented-word game's rules (WinoDict, 003_e0d4aede4cc7e323.txt): a player
//! meets an item once, in one condition (word, and whether its definition is shown).
//! The conditions take turns per player ([`WINO_CONDITIONS`]), starting from one
//! drawn from their id, so that each condition gets items of every kind and none
//! always comes first; items a model has judged come first.

use gapwise_model::{NewWordsCard, NewWordsPick, PlayerId, Reported, ServingId, Timing, Trial, RECENT_OUTCOME_MS, WINO_CONDITIONS};
use gapwise_store::{now_ms, NewWordsServing, Store, StoreError};

use super::{answer, open_or_serve, Answers, Judged};
use crate::error::EngineError;

crate::engine::part!(
    /// The invented-word game's rounds and picks.
    NewWords,
    new_words
);

impl NewWords<'_> {
    /// The item `annotator` has open, else a new one they have not met, in their
    /// next condition; `None` when they have met every item.
    pub async fn round(self, player: &PlayerId) -> Result<Option<NewWordsCard>, EngineError> {
        let store = &self.store;
        let serving = open_or_serve(|| store.new_words().open_serving(player), || serve_item(store, player)).await?;
        let Some(serving) = serving else { return Ok(None) };
        Ok(Some(store.new_words().card(player, &serving, now_ms() - RECENT_OUTCOME_MS).await?))
    }

    /// `annotator` answers round `serving` with option `choice` (0 or 1). Answering
    /// again changes nothing and answers as the first time.
    pub async fn pick(
        self,
        player: &PlayerId,
        serving: &ServingId,
        choice: usize,
        reported: Reported,
    ) -> Result<NewWordsPick, EngineError> {
        answer::<Choosing>(&self.store, player, serving, choice, reported).await
    }
}

/// Where a player's turn of conditions starts: drawn from their id, so it differs
/// between players and stays put for each.
fn first_condition(player: &PlayerId) -> usize {
    player.as_str().bytes().map(usize::from).sum::<usize>() % WINO_CONDITIONS.len()
}

/// Serves `annotator` an item they have not met in their next condition, or the
/// one after where no item is left for it; false when they have met every item.
async fn serve_item(store: &Store, player: &PlayerId) -> Result<bool, EngineError> {
    let turn = store.new_words().met(player).await? + first_condition(player);
    for &(word, with_definition) in WINO_CONDITIONS.iter().cycle().skip(turn % WINO_CONDITIONS.len()).take(WINO_CONDITIONS.len()) {
        if let Some(item) = store.new_words().unmet_item(player, word).await? {
            store.new_words().insert_serving(player, &item, word, with_definition).await?;
            return Ok(true);
        }
    }
    Ok(false)
}

struct Choosing;

impl Answers for Choosing {
    type Serving = NewWordsServing;
    /// The option chosen: 0 or 1.
    type Given = usize;
    /// (the option chosen, whether right).
    type Row = (usize, bool);
    type Outcome = NewWordsPick;
    const SERVED: &'static str = "an item";

    fn served_at(round: &NewWordsServing) -> i64 {
        round.served_at
    }

    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, _: &Self::Given) -> Result<Option<NewWordsServing>, StoreError> {
        store.new_words().serving(player, serving).await
    }

    fn check(&choice: &usize) -> Result<(), EngineError> {
        match choice {
            0 | 1 => Ok(()),
            _ => Err(EngineError::Invalid(format!("an item has two options, 0 and 1, not {choice}"))),
        }
    }

    fn judge(round: &NewWordsServing, &choice: &usize) -> Result<Judged<(usize, bool), NewWordsPick>, EngineError> {
        let [first, second] = &round.options;
        let answer = if round.answer == 0 { first } else { second };
        let told = |correct: bool| NewWordsPick { correct, answer: answer.clone(), sentence: round.sentence.clone() };
        if let Some((_, correct)) = round.answered {
            return Ok(Judged::Repeated(told(correct)));
        }
        let correct = choice == round.answer;
        Ok(Judged::New((choice, correct), told(correct)))
    }

    async fn write(
        store: &Store,
        _: &PlayerId,
        serving: &ServingId,
        &row: &(usize, bool),
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        store.new_words().record_choice(serving, row, timing, trial).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(answered: Option<(usize, bool)>) -> NewWordsServing {
        NewWordsServing {
            answer: 1,
            options: ["the cup".into(), "the table".into()],
            sentence: "The cup is on _.".into(),
            served_at: 0,
            answered,
        }
    }

    #[test]
    fn an_item_is_answered_once_with_one_of_two_options() {
        let judged = Choosing::judge(&round(None), &1).expect("judged");
        assert_eq!(
            judged,
            Judged::New((1, true), NewWordsPick { correct: true, answer: "the table".into(), sentence: "The cup is on _.".into() })
        );
        // answering again is told the first answer's verdict
        let again = Choosing::judge(&round(Some((0, false))), &1).expect("judged");
        assert_eq!(
            again,
            Judged::Repeated(NewWordsPick { correct: false, answer: "the table".into(), sentence: "The cup is on _.".into() })
        );
        assert!(matches!(Choosing::check(&2), Err(EngineError::Invalid(_))));
    }

    #[test]
    fn players_start_their_turn_of_conditions_at_different_places() {
        let starts: std::collections::HashSet<usize> = (0..40).map(|i| first_condition(&PlayerId::new(format!("player-{i}")))).collect();
        assert_eq!(starts.len(), WINO_CONDITIONS.len());
    }
}
