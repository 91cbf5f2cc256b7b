//! The items' difficulties an adaptive study reads (see [`super::adaptive`]).

use std::collections::HashMap;
use std::time::Duration;

use gapwise_research::stats::adaptive::difficulties;

/// How long a fit of a game's difficulties is used.
pub(crate) const REFIT_AFTER: Duration = Duration::from_secs(10);

/// The estimated difficulties of one game's answered items.
#[derive(Debug, Default)]
pub(crate) struct Estimates {
    difficulty: HashMap<i64, f64>,
}

impl Estimates {
    /// The 1PL fitted to `answers` (annotator, item, right).
    pub(crate) fn fit(answers: &[(String, i64, bool)]) -> Estimates {
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
    pub(crate) fn of(&self, item: i64) -> f64 {
        self.difficulty.get(&item).copied().unwrap_or(0.0)
    }
}
