//! A player's answers folded for their progress (see [`super::progress`]).

use std::collections::{BTreeMap, BTreeSet};

use gapwise_model::{answer_points, ServingId, DAY_MS, K};
use gapwise_store::PastAnswer;

/// A player's answers folded, oldest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    pub answers: i64,
    pub points: i64,
    pub streak: i64,
    pub best_streak: i64,
    pub ks: BTreeSet<K>,
    pub languages: BTreeSet<gapwise_model::Language>,
    pub per_day: BTreeMap<i64, i64>,
    /// When the newest answer folded was stored, and its id: answers are folded in
    /// the order the database sorts them, by that time and then by id (lowercase
    /// UUIDs, which every collation sorts as Rust sorts their bytes).
    through: Option<(i64, ServingId)>,
}

impl Tally {
    /// Folds in the answers of `newer` that sort after the newest one folded (read
    /// from its [`Tally::since`] on, oldest first). One that sorts before it was
    /// folded already, or was stored out of order (by another process, in the same
    /// millisecond or with its clock behind): it is left out, and the counts tell.
    pub(crate) fn add(&mut self, newer: &[PastAnswer]) {
        for answer in newer {
            if let Some((at, id)) = &self.through {
                if (answer.created_at, &answer.id) <= (*at, id) {
                    continue;
                }
            }
            self.through = Some((answer.created_at, answer.id.clone()));
            self.answers += 1;
            self.points += answer_points(answer.k, answer.correct);
            self.streak = if answer.correct { self.streak + 1 } else { 0 };
            self.best_streak = self.best_streak.max(self.streak);
            self.ks.insert(answer.k);
            self.languages.insert(answer.lang);
            *self.per_day.entry(answer.created_at.div_euclid(DAY_MS)).or_default() += 1;
        }
    }

    /// From when the answers not yet folded are to be read.
    pub(crate) fn since(&self) -> i64 {
        self.through.as_ref().map_or(i64::MIN, |(at, _)| *at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(id: &str, created_at: i64, correct: bool) -> PastAnswer {
        PastAnswer { id: ServingId::new(id), k: K::FIVE, correct, created_at, lang: gapwise_model::Language::En }
    }

    #[test]
    fn answers_fold_once_however_often_they_are_read_again() {
        let mut tally = Tally::default();
        assert_eq!(tally.since(), i64::MIN);
        tally.add(&[answer("a", 10, true), answer("b", 20, true)]);
        assert_eq!(tally.since(), 20);
        // read again from 20 on: b again, and c stored in the same millisecond
        tally.add(&[answer("b", 20, true), answer("c", 20, false), answer("d", 30, true)]);
        assert_eq!((tally.answers, tally.streak, tally.best_streak), (4, 1, 2));
        // an answer stored out of order is not folded: the counts tell
        tally.add(&[answer("early", 15, true)]);
        assert_eq!(tally.answers, 4);
        // nor one of the newest millisecond that sorts before the newest answer
        tally.add(&[answer("a2", 30, false)]);
        assert_eq!((tally.answers, tally.streak), (4, 1));
    }
}
