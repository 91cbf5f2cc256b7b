//! What a player has earned: points, level, streaks, answers today, achievements.

use std::collections::{BTreeMap, BTreeSet};

use gapwise_model::{
    answer_points, level_of, level_threshold, Achievement, Progress, ALLOWED_K, DAILY_GOAL, DAY_MS, PAIR_PLAYED_POINTS,
    PAIR_UNSOLVED_AT_5_POINTS,
};
use gapwise_store::{now_ms, StoreError};

use super::Engine;

impl Engine {
    /// The player's points (their answers', and their proposed pairs' when others
    /// play them), level, streaks and answers today (see [`Progress`]).
    pub async fn progress(&self, annotator_id: &str) -> Result<Progress, StoreError> {
        let history = self.store.answer_history(annotator_id).await?;
        let mut progress = Progress::default();
        let (mut ks, mut languages, mut per_day) = (BTreeSet::new(), BTreeSet::new(), BTreeMap::<i64, i64>::new());
        for answer in &history {
            progress.points += answer_points(answer.k, answer.correct);
            progress.streak = if answer.correct { progress.streak + 1 } else { 0 };
            progress.best_streak = progress.best_streak.max(progress.streak);
            ks.insert(answer.k);
            languages.insert(answer.lang.as_str());
            *per_day.entry(answer.created_at.div_euclid(DAY_MS)).or_default() += 1;
        }
        progress.today = per_day.get(&now_ms().div_euclid(DAY_MS)).copied().unwrap_or(0);
        let pairs = self.store.pair_plays(annotator_id).await?;
        progress.from_pairs = pairs.played * PAIR_PLAYED_POINTS + pairs.unsolved * PAIR_UNSOLVED_AT_5_POINTS;
        progress.points += progress.from_pairs;
        progress.level = level_of(progress.points);
        progress.next_level_at = level_threshold(progress.level + 1);
        let earned = |a: Achievement| match a {
            Achievement::FirstAnswer => !history.is_empty(),
            Achievement::EveryK => ALLOWED_K.iter().all(|k| ks.contains(k)),
            Achievement::Polyglot => languages.len() >= 2,
            Achievement::TenInARow => progress.best_streak >= 10,
            Achievement::DailyGoal => per_day.values().any(|&n| n >= DAILY_GOAL),
            Achievement::LevelFive => progress.level >= 5,
            Achievement::PairInGame => pairs.pairs > 0,
            Achievement::Unsolvable => pairs.unsolved > 0,
        };
        progress.achievements = Achievement::ALL.into_iter().filter(|&a| earned(a)).collect();
        Ok(progress)
    }
}
