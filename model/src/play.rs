//! The substitution game (004_fd0640cd187f2eac.txt) as the player sees it: items,
//! feedback, the round of one request, and the points, levels and achievements.

use serde::{Deserialize, Serialize};

use crate::{CrowdProgress, Language, Platform, ServingId, K};

/// One context sentence with its blank: the text before and after the hidden word.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Context {
    pub before: String,
    pub after: String,
}

/// An item as shown to a player: no hint of which option is right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCard {
    /// The answer id the client sends back (one per serving).
    pub answer_id: ServingId,
    pub k: K,
    /// The language of its sentences and words.
    pub lang: Language,
    pub contexts: Vec<Context>,
    /// The two words in the order shown.
    pub options: [String; 2],
}

/// The running score of a player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub answered: i64,
    pub correct: i64,
}

/// What a player sees after answering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feedback {
    pub k: K,
    /// The language of the item's sentences and words.
    pub lang: Language,
    pub correct: bool,
    pub chosen: String,
    pub target: String,
    pub contexts: Vec<Context>,
    pub score: Score,
}

/// Where a player stands in the game; the page renders exactly this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayState {
    Item {
        card: ItemCard,
        score: Score,
        pseudonym: String,
    },
    Feedback {
        feedback: Feedback,
        pseudonym: String,
    },
    /// Every item with this k has been served to the player.
    Exhausted {
        k: K,
        score: Score,
        pseudonym: String,
    },
    /// The player's level is below the one that unlocks this k ([`unlock_level`]).
    Locked {
        k: K,
        level: i64,
        pseudonym: String,
    },
    /// A crowd participant answered the study's items: back to the platform with
    /// the completion code.
    Completed {
        redirect: String,
        /// The code the participant gives the platform (also in `redirect` where
        /// the platform takes it there).
        code: String,
    },
    /// A crowd participant gave the study back (or let its time run out): what to
    /// do on the platform.
    Returned {
        platform: Platform,
    },
}

impl PlayState {
    /// The same, with `score` as the player's score where it shows one.
    pub fn with_score(mut self, score: Score) -> PlayState {
        if let PlayState::Item { score: shown, .. } | PlayState::Exhausted { score: shown, .. } = &mut self {
            *shown = score;
        }
        self
    }
}

/// An answer and what comes after it, from one request: the answer's feedback, and
/// the play state the player moves on to (usually the next item, already served).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub feedback: Feedback,
    pub next: PlayState,
}

/// What the game page needs after an answer, from one request: the round, and the
/// player's progress and crowd study as they stand after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageRound {
    pub round: Round,
    pub pseudonym: String,
    pub progress: Progress,
    pub crowd: Option<CrowdProgress>,
}

/// Eq. 2 of 004_fd0640cd187f2eac.txt, a model's score of an item: the sum over its
/// contexts of log p(target | c) - log p(distractor | c), each context given as
/// (log p(target | c), log p(distractor | c)). Positive: the model picks the target,
/// i.e. it "answers" the item right. The one place the formula is written: stored
/// item scores and the Section 6 selection of contexts both come from here.
pub fn eq2(contexts: impl IntoIterator<Item = (f64, f64)>) -> f64 {
    contexts.into_iter().map(|(target, distractor)| target - distractor).sum()
}

/// The level that unlocks playing with `k` sentences: five sentences from the start,
/// three at level 2, one (the hardest) at level 3.
pub fn unlock_level(k: K) -> i64 {
    match k.get() {
        1 => 3,
        3 => 2,
        _ => 1,
    }
}

/// A player's progression: points, level, streaks and the daily goal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub points: i64,
    pub level: i64,
    /// Points at which the next level starts.
    pub next_level_at: i64,
    /// Right answers in a row, up to the latest answer.
    pub streak: i64,
    pub best_streak: i64,
    /// Answers given today (UTC).
    pub today: i64,
    /// Points (included in `points`) from other people playing the pairs this
    /// player proposed: see [`PAIR_PLAYED_POINTS`].
    pub from_pairs: i64,
    /// What the player has achieved so far, in the order of [`Achievement::ALL`].
    pub achievements: Vec<Achievement>,
}

/// Milestones shown on the game page; each is worked out from the stored answers
/// and pairs, so nothing extra is kept about the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Achievement {
    /// One answer.
    FirstAnswer,
    /// Answers with 1, 3 and 5 sentences.
    EveryK,
    /// Answers in two languages or more.
    Polyglot,
    /// Ten right answers in a row.
    TenInARow,
    /// The daily goal met on some day.
    DailyGoal,
    /// Level 5.
    LevelFive,
    /// A proposed pair in the game.
    PairInGame,
    /// Someone missed one of your pairs with five sentences.
    Unsolvable,
}

impl Achievement {
    pub const ALL: [Achievement; 8] = [
        Achievement::FirstAnswer,
        Achievement::EveryK,
        Achievement::Polyglot,
        Achievement::TenInARow,
        Achievement::DailyGoal,
        Achievement::LevelFive,
        Achievement::PairInGame,
        Achievement::Unsolvable,
    ];
}

impl Progress {
    /// What an answer brought that deserves a word, from `before` to `self`: the
    /// level reached when it went up, and the achievements newly earned.
    pub fn news_since(&self, before: &Progress) -> (Option<i64>, Vec<Achievement>) {
        let level = (self.level > before.level).then_some(self.level);
        let earned = self.achievements.iter().copied().filter(|a| !before.achievements.contains(a)).collect();
        (level, earned)
    }
}

/// Reciprocal scoring for blankers: a player whose proposed pair is in the game
/// earns this each time someone else answers one of its items...
pub const PAIR_PLAYED_POINTS: i64 = 1;

/// ...and this much more when that answer is wrong with five sentences: pairs that
/// people cannot tell apart even then are the valuable ones.
pub const PAIR_UNSOLVED_AT_5_POINTS: i64 = 3;

/// Answers a day that make the daily goal.
pub const DAILY_GOAL: i64 = 20;

/// Points of an answer: one for taking part, and for a right answer a bonus that is
/// larger the fewer sentences the item showed (fewer sentences = harder).
pub fn answer_points(k: K, correct: bool) -> i64 {
    let bonus = match k.get() {
        1 => 4,
        3 => 2,
        _ => 1,
    };
    1 + if correct { bonus } else { 0 }
}

/// Points needed to reach `level` (level 1 at 0; each level 10 points more than the
/// one before: 10, 30, 60, 100, ...).
pub fn level_threshold(level: i64) -> i64 {
    5 * level * (level - 1)
}

/// The level that `points` reach.
pub fn level_of(points: i64) -> i64 {
    let mut level = 1;
    while level_threshold(level + 1) <= points {
        level += 1;
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_by_ten_points_more_each_time() {
        assert_eq!((level_of(0), level_of(9), level_of(10), level_of(29), level_of(30), level_of(100)), (1, 1, 2, 2, 3, 5));
        assert_eq!(level_threshold(2), 10);
        assert_eq!(level_threshold(4), 60);
        let [one, three, five] = K::ALL;
        assert_eq!((unlock_level(five), unlock_level(three), unlock_level(one)), (1, 2, 3));
        assert_eq!(
            (answer_points(one, true), answer_points(three, true), answer_points(five, true), answer_points(one, false)),
            (5, 3, 2, 1)
        );
    }

    #[test]
    fn eq2_sums_log_ratios_over_contexts() {
        assert!((eq2([(-1.0, -3.0), (-2.5, -2.0)]) - 1.5).abs() < 1e-12);
        assert_eq!(eq2([]), 0.0);
    }

    #[test]
    fn news_since_names_a_level_up_and_new_achievements_only() {
        let before = Progress { points: 8, level: 1, achievements: vec![Achievement::FirstAnswer], ..Progress::default() };
        let after =
            Progress { points: 10, level: 2, achievements: vec![Achievement::FirstAnswer, Achievement::EveryK], ..Progress::default() };
        assert_eq!(after.news_since(&before), (Some(2), vec![Achievement::EveryK]));
        assert_eq!(after.news_since(&after), (None, vec![]));
    }
}
