//! A study's adaptive serving ([`gapwise_model::ItemPolicy::MostInformation`]):
//! among the open game's items for the participant (never served to them, gold or
//! not yet retired), the one that the rule of
//! [`gapwise_research::stats::adaptive::most_informative`] picks: while any has
//! fewer than ten holders the least held, then the one with the most information
//! at the participant's ability. The difficulties are the 1PL fitted to every
//! answer of the study's k and language, fitted again when older than
//! [`REFIT_AFTER`]; the participant's ability is read from their own answers at
//! each choice. A friend's pair does not come first here.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rand::seq::SliceRandom;

use gapwise_research::stats::adaptive::{ability, difficulties, most_informative, Open};
use gapwise_store::StoreError;

use super::Engine;

/// How long a fit of a game's difficulties is used.
pub(crate) const REFIT_AFTER: Duration = Duration::from_secs(10);

/// The estimated difficulties of one game's answered items.
#[derive(Debug, Default)]
pub(crate) struct Estimates {
    difficulty: HashMap<i64, f64>,
}

impl Estimates {
    /// The 1PL fitted to `answers` (annotator, item, right).
    fn fit(answers: &[(String, i64, bool)]) -> Estimates {
        let mut people: HashMap<&str, usize> = HashMap::new();
        let mut items: HashMap<i64, usize> = HashMap::new();
        let cells: Vec<(usize, usize, bool)> = answers
            .iter()
            .map(|(who, item, right)| {
                let p = people.len();
                let p = *people.entry(who).or_insert(p);
                let i = items.len();
                (p, *items.entry(*item).or_insert(i), *right)
            })
            .collect();
        let b = difficulties(people.len(), items.len(), &cells);
        Estimates { difficulty: items.into_iter().filter_map(|(item, i)| Some((item, *b.get(i)?))).collect() }
    }

    /// An item's difficulty; 0 (the abilities' mean) before it has answers.
    fn of(&self, item: i64) -> f64 {
        self.difficulty.get(&item).copied().unwrap_or(0.0)
    }
}

impl Engine {
    /// The item of `open` (id, holders) to serve `annotator` in the game of `k`
    /// contexts in `lang` (see the module).
    pub(crate) async fn most_informative(&self, annotator: &str, k: u8, lang: &str, mut open: Vec<(i64, i64)>) -> Result<Option<i64>, StoreError> {
        let estimates = self.estimates(k, lang).await?;
        let mine: Vec<(f64, bool)> = self.store.answers_of(annotator).await?.into_iter().map(|(item, right)| (estimates.of(item), right)).collect();
        // ties go to the last: in random order, to no item in particular
        open.shuffle(&mut rand::thread_rng());
        let seen_as: Vec<Open> = open.iter().map(|&(id, held)| Open { answers: usize::try_from(held).unwrap_or(0), difficulty: estimates.of(id) }).collect();
        // the hold table offers only items under the cap
        let pick = most_informative(&seen_as, ability(&mine), usize::MAX);
        Ok(pick.and_then(|at| open.get(at)).map(|&(id, _)| id))
    }

    /// The difficulties of the game of `k` contexts in `lang`, fitted at most
    /// [`REFIT_AFTER`] ago.
    async fn estimates(&self, k: u8, lang: &str) -> Result<Arc<Estimates>, StoreError> {
        let game = (k, lang.to_owned());
        if let Some(known) = self.estimates.get(&game) {
            return Ok(known);
        }
        let answers = self.store.answers_in_game(k, lang).await?;
        // a fit over a large game takes a while: off the request threads
        let fitted = match tokio::task::spawn_blocking(move || Estimates::fit(&answers)).await {
            Ok(fitted) => Arc::new(fitted),
            Err(failed) => std::panic::resume_unwind(failed.into_panic()),
        };
        self.estimates.put(game, fitted.clone());
        Ok(fitted)
    }
}
