//! The items' difficulties an adaptive study reads (see [`super::adaptive`]).

use std::collections::HashMap;
use std::time::Duration;

use gapwise_model::{ItemId, PlayerId};
use gapwise_stats::adaptive::difficulties;
use gapwise_stats::irt::numbered;

/// How long a fit of a game's difficulties is used.
pub(crate) const REFIT_AFTER: Duration = Duration::from_secs(10);

/// The estimated difficulties of one game's answered items.
#[derive(Debug, Default)]
pub(crate) struct Estimates {
    difficulty: HashMap<ItemId, f64>,
}

impl Estimates {
    /// The 1PL fitted to `answers` (player, item, right).
    pub(crate) fn fit(answers: &[(PlayerId, ItemId, bool)]) -> Estimates {
        let r = numbered(answers.iter().map(|(who, item, right)| (who.as_str(), *item, *right)));
        let b = difficulties(r.players, r.items.len(), &r.cells);
        Estimates { difficulty: r.items.into_iter().zip(b).collect() }
    }

    /// An item's difficulty; 0 (the abilities' mean) before it has answers.
    pub(crate) fn of(&self, item: ItemId) -> f64 {
        self.difficulty.get(&item).copied().unwrap_or(0.0)
    }
}
