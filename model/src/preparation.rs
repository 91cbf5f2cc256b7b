//! The demo's model data: after a first start loads the demo, the server runs the
//! default models over it in the background (SmolLM2 for English, Gemma 3 for the
//! other languages), one task after another, so that every mode has its material in
//! every language. The plan puts what makes a mode playable first (a few pairs to
//! rate and a few sentences with suggestions, in each language), then the English
//! definition and invented-word games, then the rest. While a task is pending, the
//! pages its material feeds say so, and how much runs before it, instead of
//! "nothing left".

use crate::{Language, Mode};

/// In which languages the demo's default models prepare a mode's material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// In every language: the plan has a first part of the mode in each.
    EveryLanguage,
    /// In English only (WordNet and the invented-word items are English).
    EnglishOnly,
    /// Not at all: the mode plays the corpus as it is, and has no task of its own in
    /// the plan (the cloze game, whose model words are the next-word game's).
    Nothing,
}

/// In which languages the default model prepares `mode`'s material.
pub const fn prepared(mode: Mode) -> Prepared {
    match mode {
        Mode::Play | Mode::Rate | Mode::Guess => Prepared::EveryLanguage,
        Mode::Define | Mode::NewWords => Prepared::EnglishOnly,
        Mode::Cloze => Prepared::Nothing,
    }
}

/// Which part of a step a task makes: the first (enough to play), or the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    First,
    Rest,
}

/// One task of the plan: a mode's material, in a language, first part or rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub mode: Mode,
    pub language: Language,
    pub part: Part,
}

/// The tasks in the order they run (a task's place is its bit in the stored set of
/// pending tasks): what makes each mode playable in each language first.
pub fn plan() -> Vec<Task> {
    let task = |mode, language, part| Task { mode, language, part };
    let mut plan = Vec::new();
    for language in Language::ALL {
        plan.push(task(Mode::Rate, language, Part::First));
        plan.push(task(Mode::Guess, language, Part::First));
    }
    plan.push(task(Mode::Define, Language::En, Part::First));
    plan.push(task(Mode::NewWords, Language::En, Part::First));
    for language in Language::ALL {
        plan.push(task(Mode::Play, language, Part::First));
    }
    for language in Language::ALL {
        plan.push(task(Mode::Rate, language, Part::Rest));
        plan.push(task(Mode::Guess, language, Part::Rest));
    }
    plan
}

/// What a page whose material is still being prepared tells: how many tasks run
/// before its own, and about how many minutes until it is ready (from the pace of
/// the tasks done so far).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Waiting {
    pub ahead: usize,
    pub minutes: i64,
}

/// The minutes a task `ahead` places down the queue waits, at the pace of `done`
/// tasks in `elapsed_ms` (a minute a task before any is done), at least one.
pub fn minutes_to_wait(ahead: usize, done: usize, elapsed_ms: i64) -> i64 {
    let per_task_ms = if done == 0 { 60_000 } else { elapsed_ms.max(0) / i64::try_from(done).unwrap_or(i64::MAX) };
    let waiting = per_task_ms.saturating_mul(i64::try_from(ahead + 1).unwrap_or(i64::MAX));
    ((waiting + 59_999) / 60_000).max(1)
}

/// The set of pending tasks as stored: bit `i` is task `i` of [`plan`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending(pub i64);

impl Pending {
    /// Every task of the plan.
    pub fn all() -> Pending {
        (0..plan().len()).fold(Pending::default(), Pending::with)
    }

    /// With task `at` (its place in the plan).
    pub fn with(self, at: usize) -> Pending {
        if at < 63 {
            Pending(self.0 | 1 << at)
        } else {
            self
        }
    }

    /// Whether task `at` (its place in the plan) is pending.
    pub fn has(self, at: usize) -> bool {
        at < 63 && self.0 & (1 << at) != 0
    }

    /// Without task `at`.
    pub fn without(self, at: usize) -> Pending {
        if at < 63 {
            Pending(self.0 & !(1 << at))
        } else {
            self
        }
    }

    /// How many tasks of the plan are done.
    pub fn done(self) -> usize {
        (Pending::all().0 & !self.0).count_ones() as usize
    }

    /// Whether nothing is left.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `mode`'s material of `language` is still to make (a page fed by it
    /// that has nothing left for a player says "being prepared"), and if so how many
    /// pending tasks run before its next one.
    pub fn waiting_for(self, mode: Mode, language: Language) -> Option<usize> {
        let at = plan().iter().enumerate().position(|(at, t)| t.mode == mode && t.language == language && self.has(at))?;
        Some((0..at).filter(|&i| self.has(i)).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_has_its_own_bit_and_every_mode_its_first_part() {
        let plan = plan();
        assert!(plan.len() < 63, "{} tasks fit the stored set", plan.len());
        assert_eq!(Pending::all().0.count_ones() as usize, plan.len());
        for mode in Mode::ALL {
            // every language has a first part of a mode prepared in every language;
            // a mode with nothing to prepare has no task at all
            let languages = plan.iter().filter(|t| t.mode == mode && t.part == Part::First).count();
            let expected = match prepared(mode) {
                Prepared::EveryLanguage => Language::ALL.len(),
                Prepared::EnglishOnly => 1,
                Prepared::Nothing => 0,
            };
            assert_eq!(languages, expected, "{mode:?}");
            if prepared(mode) == Prepared::Nothing {
                assert!(plan.iter().all(|t| t.mode != mode), "{mode:?} has no task");
            }
        }
    }

    #[test]
    fn what_makes_a_mode_playable_runs_first_and_pages_know_what_runs_before() {
        let plan = plan();
        let first_rest = plan.iter().position(|t| t.part == Part::Rest).expect("a rest");
        assert!(plan[..first_rest].iter().all(|t| t.part == Part::First));
        let all = Pending::all();
        assert_eq!(all.waiting_for(Mode::Rate, Language::En), Some(0));
        assert_eq!(all.waiting_for(Mode::Guess, Language::Es), Some(3));
        let rating_es = plan.iter().position(|t| t.mode == Mode::Rate && t.language == Language::Es).expect("es");
        let done = (0..=rating_es).fold(all, |p, at| p.without(at));
        assert_eq!(done.waiting_for(Mode::Guess, Language::Es), Some(0));
        // the rest of Spanish rating is still to come, after the first parts and more
        let rest_es = plan.iter().position(|t| t.mode == Mode::Rate && t.language == Language::Es && t.part == Part::Rest).expect("rest");
        assert_eq!(done.waiting_for(Mode::Rate, Language::Es), Some((rating_es + 1..rest_es).count()));
        assert_eq!(done.without(rest_es).waiting_for(Mode::Rate, Language::Es), None);
        assert_eq!(all.waiting_for(Mode::Define, Language::Es), None, "English only");
        assert!(Pending::default().is_empty() && !all.is_empty());
        assert_eq!((all.done(), done.done()), (0, rating_es + 1));
        // a minute a task until one is done; then the pace of those done
        assert_eq!(minutes_to_wait(2, 0, 0), 3);
        assert_eq!(minutes_to_wait(3, 4, 80_000), 2, "20 s a task, 4 tasks");
        assert_eq!(minutes_to_wait(0, 10, 1_000), 1, "at least a minute");
        assert_eq!(minutes_to_wait(2, 24, 0), 1, "at least a minute");
    }
}
