//! The definition game's rules (001_bf5d15b61b58df06.txt): a group the player has not
//! met in either task (W2D's solution would give D2W's answer away), within their size cap and with enough distinct candidates,
//! shown in an order drawn per serving; picks go on until the right one is found,
//! and their number is the rank the player gave it.

use rand::seq::SliceRandom;
use rand::SeedableRng;

use gapwise_model::{
    distinct_candidates, DefinitionCard, DefinitionPick, DefinitionTask, PlayerId, Reported, ServingId, Timing, Trial, MIN_CANDIDATES,
    RECENT_OUTCOME_MS,
};
use gapwise_store::{now_ms, DefineServing, Store, StoreError};

use super::{answer, open_or_serve, Answers, Judged};
use crate::error::EngineError;

/// Groups looked at per draw when serving a new round.
const DRAW: i64 = 50;

crate::engine::part!(
    /// The definition game's rounds and picks.
    Define,
    define
);

impl Define<'_> {
    /// The round of `task` in progress for `annotator`, else a new one from a group
    /// of at most `cap` members (and at least [`MIN_CANDIDATES`] distinct candidates)
    /// they have not played in this task; `None` when none is found among [`DRAW`] drawn.
    pub async fn round(self, player: &PlayerId, task: DefinitionTask, cap: u32) -> Result<Option<DefinitionCard>, EngineError> {
        let store = &self.store;
        let serving = open_or_serve(|| store.define().open_serving(player, task), || serve_group(store, player, task, cap)).await?;
        let Some(serving) = serving else { return Ok(None) };
        Ok(Some(store.define().card(player, &serving, now_ms() - RECENT_OUTCOME_MS).await?))
    }

    /// `annotator` picks the option at `position` of round `serving`. Picking the
    /// same option again, or anything after the right one was found, changes
    /// nothing and answers as before.
    pub async fn pick(
        self,
        player: &PlayerId,
        serving: &ServingId,
        position: usize,
        reported: Reported,
    ) -> Result<DefinitionPick, EngineError> {
        answer::<Picking>(&self.store, player, serving, position, reported).await
    }
}

/// Serves `annotator` a group of `task` of at most `cap` members they have not
/// played, one a model has scored first; false when none is found among [`DRAW`]
/// drawn.
async fn serve_group(store: &Store, player: &PlayerId, task: DefinitionTask, cap: u32) -> Result<bool, EngineError> {
    let mut targets = store.define().unplayed_scored_targets(player, task, cap, DRAW, rand::random()).await?;
    if targets.is_empty() {
        targets = store.define().unplayed_targets(player, cap, DRAW, rand::random()).await?;
    }
    for target in targets {
        let members = distinct_candidates(store.define().group_members(&target).await?, &target, task);
        if members.len() >= MIN_CANDIDATES {
            let mut candidates: Vec<String> = members.into_iter().map(|m| m.id).collect();
            candidates.shuffle(&mut rand::rngs::StdRng::from_entropy());
            store.define().insert_serving(player, task, &target, &candidates).await?;
            return Ok(true);
        }
    }
    Ok(false)
}

struct Picking;

/// A pick to store: its attempt number, the candidate and whether it is right.
type Pick = (i64, String, bool);

impl Answers for Picking {
    type Serving = DefineServing;
    /// The option's place in the round, from 0.
    type Given = usize;
    type Row = Pick;
    type Outcome = DefinitionPick;
    const SERVED: &'static str = "a round";

    fn served_at(round: &DefineServing) -> i64 {
        round.served_at
    }

    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, _: &Self::Given) -> Result<Option<DefineServing>, StoreError> {
        store.define().serving(player, serving).await
    }

    fn judge(round: &DefineServing, &position: &usize) -> Result<Judged<Pick, DefinitionPick>, EngineError> {
        let chosen = round
            .candidates
            .get(position)
            .ok_or_else(|| EngineError::Invalid(format!("this round has {} options, not {}", round.candidates.len(), position + 1)))?;
        let told = |correct: bool, attempts: i64| DefinitionPick { correct, attempts, solution: correct.then(|| round.solution.clone()) };
        let attempts = i64::try_from(round.picks.len()).unwrap_or(i64::MAX);
        if let Some(&(_, correct)) = round.picks.iter().find(|(c, _)| c == chosen) {
            return Ok(Judged::Repeated(told(correct, attempts)));
        }
        if round.picks.iter().any(|&(_, correct)| correct) {
            return Ok(Judged::Repeated(told(false, attempts)));
        }
        let correct = *chosen == round.target;
        Ok(Judged::New((attempts + 1, chosen.clone(), correct), told(correct, attempts + 1)))
    }

    async fn write(
        store: &Store,
        _: &PlayerId,
        serving: &ServingId,
        (attempt, chosen, correct): &Pick,
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        store.define().insert_pick(serving, (*attempt, chosen, *correct), timing, trial).await
    }
}

#[cfg(test)]
mod tests {
    use gapwise_model::Solution;

    use super::*;

    fn round(picks: &[(&str, bool)]) -> DefineServing {
        DefineServing {
            target: "b".into(),
            candidates: ["a", "b", "c"].map(String::from).to_vec(),
            served_at: 0,
            solution: Solution { word: "bee".into(), definition: "an insect".into() },
            picks: picks.iter().map(|&(c, right)| (c.to_owned(), right)).collect(),
        }
    }

    #[test]
    fn picks_go_on_until_the_right_one_and_repeat_as_before() {
        let Judged::New(pick, told) = Picking::judge(&round(&[("a", false)]), &1).expect("judged") else { panic!("new") };
        assert_eq!(pick, (2, "b".to_owned(), true));
        assert_eq!((told.correct, told.attempts, told.solution.map(|s| s.word)), (true, 2, Some("bee".into())));
        // the same wrong option again: told as then, not counted
        let again = Picking::judge(&round(&[("a", false)]), &0).expect("judged");
        assert_eq!(again, Judged::Repeated(DefinitionPick { correct: false, attempts: 1, solution: None }));
        // anything after the right one was found changes nothing
        let after = Picking::judge(&round(&[("a", false), ("b", true)]), &2).expect("judged");
        assert_eq!(after, Judged::Repeated(DefinitionPick { correct: false, attempts: 2, solution: None }));
        assert!(matches!(Picking::judge(&round(&[]), &3), Err(EngineError::Invalid(_))));
    }
}
