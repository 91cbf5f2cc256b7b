//! What a player has earned: points, level, streaks, answers today, achievements.
//!
//! The game page shows the progress after every answer. Folding all of a player's
//! answers each time costs in proportion to how many they gave, so the engine
//! keeps each player's fold ([`super::tally::Tally`]) and adds the answers stored since. The
//! player's count of answers, kept on their row by the database, checks it: an
//! answer another process stored out of order (its clock behind, or in the same
//! millisecond with an id that sorts first) makes the counts differ, and the fold
//! is made again from all the answers.
//!
//! After a round the page shows the progress at once: the answer this process just
//! stored is folded in as it is stored, and the counts the round's session read
//! (plus this answer) check the fold, so that a round reads nothing more; when
//! they differ (another process stored an answer before the round) the answers are
//! read. One that another process stores while the round runs shows from the next
//! round on.

use std::sync::{Arc, Mutex, PoisonError};

use gapwise_model::{
    level_of, level_threshold, Achievement, PlayerId, Progress, DAILY_GOAL, DAY_MS, K, PAIR_PLAYED_POINTS, PAIR_UNSOLVED_AT_5_POINTS,
};
use gapwise_store::{now_ms, PastAnswer, Session};

use super::play::Game;
use super::tally::Tally;
use crate::engine::Engine;
use crate::error::EngineError;

impl Game<'_> {
    /// The player's points (their answers', and their proposed pairs' when others
    /// play them), level, streaks and answers today (see [`Progress`]).
    pub async fn progress(self, player: &PlayerId) -> Result<Progress, EngineError> {
        let (tally, pairs) = self.tally(player).await?;
        self.progress_of(player, &tally, pairs).await
    }

    /// The progress after a round of `session`'s player that left them `answered`
    /// answers (their session's count, and the round's answer if it was stored).
    pub async fn progress_after(self, session: &Session, answered: i64) -> Result<Progress, EngineError> {
        let id = &session.player.id;
        let folded = self.tallies.get(id).map(|kept| lock(&kept).clone()).filter(|tally| tally.answers == answered);
        match folded {
            Some(tally) => self.progress_of(id, &tally, session.proposed).await,
            None => self.progress(id).await,
        }
    }
}

impl Engine {
    /// Folds an answer this process stored into its player's kept fold, if one is kept.
    pub(crate) fn fold_stored(&self, player: &PlayerId, answer: PastAnswer) {
        if let Some(kept) = self.tallies.get(player) {
            lock(&kept).add(&[answer]);
        }
    }

    /// The progress of a player whose answers `tally` folds and who proposed `pairs` pairs.
    async fn progress_of(&self, player: &PlayerId, tally: &Tally, pairs: i64) -> Result<Progress, EngineError> {
        let mut progress = Progress { points: tally.points, streak: tally.streak, best_streak: tally.best_streak, ..Progress::default() };
        progress.today = tally.per_day.get(&now_ms().div_euclid(DAY_MS)).copied().unwrap_or(0);
        let pairs = self.store.game().pair_plays(player, pairs).await?;
        progress.from_pairs = pairs.played * PAIR_PLAYED_POINTS + pairs.unsolved * PAIR_UNSOLVED_AT_5_POINTS;
        progress.points += progress.from_pairs;
        progress.level = level_of(progress.points);
        progress.next_level_at = level_threshold(progress.level + 1);
        let earned = |a: Achievement| match a {
            Achievement::FirstAnswer => tally.answers > 0,
            Achievement::EveryK => K::ALL.iter().all(|k| tally.ks.contains(k)),
            Achievement::Polyglot => tally.languages.len() >= 2,
            Achievement::TenInARow => progress.best_streak >= 10,
            Achievement::DailyGoal => tally.per_day.values().any(|&n| n >= DAILY_GOAL),
            Achievement::LevelFive => progress.level >= 5,
            Achievement::PairInGame => pairs.pairs > 0,
            Achievement::Unsolvable => pairs.unsolved > 0,
        };
        progress.achievements = Achievement::ALL.into_iter().filter(|&a| earned(a)).collect();
        Ok(progress)
    }

    /// The player's answers folded up to now (see the module), and how many pairs
    /// they proposed.
    async fn tally(&self, player: &PlayerId) -> Result<(Tally, i64), EngineError> {
        let kept = self.tallies.get(player).unwrap_or_default();
        let since = lock(&kept).since();
        let newer = self.store.game().answers_since(player, since).await?;
        // counted after the answers were read: at least as many as were read
        let (total, pairs) = self.store.game().player_counts(player).await?;
        let folded = {
            let mut tally = lock(&kept);
            tally.add(&newer);
            tally.clone()
        };
        if folded.answers == total {
            self.tallies.put(player.to_owned(), kept);
            return Ok((folded, pairs));
        }
        let all = self.store.game().answers_since(player, i64::MIN).await?;
        let mut fresh = Tally::default();
        fresh.add(&all);
        self.tallies.put(player.to_owned(), Arc::new(Mutex::new(fresh.clone())));
        Ok((fresh, pairs))
    }
}

fn lock(tally: &Mutex<Tally>) -> std::sync::MutexGuard<'_, Tally> {
    // a panic while holding the lock leaves a fold that the counts check
    tally.lock().unwrap_or_else(PoisonError::into_inner)
}
