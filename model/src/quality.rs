//! Quality control: gold items, per-item redundancy, and the flags that mark
//! answers and players for the analysis (flagged data is kept, never dropped).

use serde::{Deserialize, Serialize};

use crate::{Timing, Trial};

/// Response times (browser-measured, else server-measured) under this are flagged
/// `too_fast`: too fast to have read even one sentence. Flagged answers are kept;
/// exports carry the flag and the admin page counts them, so that analyses decide.
pub const FAST_ANSWER_FLOOR_MS: i64 = 400;

/// The quality-control flags of an answer with this timing and trial, `;`-joined,
/// if any: `too_fast` (see [`FAST_ANSWER_FLOOR_MS`]), `time_untrusted` (the browser
/// reported a time that cannot be true, kept apart as `client_ms_reported`),
/// `tab_hidden` (the page was hidden while the item was shown) and `coarse_clock`
/// (see [`crate::COARSE_CLOCK_US`]).
pub fn answer_flag(timing: Timing, trial: Trial) -> Option<String> {
    let flags: Vec<&str> = [
        (timing.client_ms.unwrap_or(timing.server_ms) < FAST_ANSWER_FLOOR_MS, "too_fast"),
        (timing.client_ms_reported.is_some(), "time_untrusted"),
        (trial.was_hidden(), "tab_hidden"),
        (trial.coarse_clock(), "coarse_clock"),
    ]
    .into_iter()
    .filter_map(|(set, flag)| set.then_some(flag))
    .collect();
    (!flags.is_empty()).then(|| flags.join(";"))
}

/// Share of a player's items that are gold while they miss none of them.
pub const GOLD_RATE: f64 = 0.1;
/// The most a player is served gold, however many they miss.
pub const GOLD_RATE_MAX: f64 = 0.5;
/// Gold answers, the latest first, that decide how often gold comes next.
pub const GOLD_WINDOW: usize = 5;

/// The chance that the next item is a gold one for a player who missed `misses` of
/// their latest [`GOLD_WINDOW`] gold items: [`GOLD_RATE`] and as much again for each
/// miss, up to [`GOLD_RATE_MAX`] (players who miss gold get more of it, as in
/// ZombiLingo).
pub fn gold_rate(misses: usize) -> f64 {
    (GOLD_RATE * (1 + misses) as f64).min(GOLD_RATE_MAX)
}

/// Gold misses from which a player who misses more gold items than they get right
/// is flagged `gold_failing`.
pub const GOLD_MISSES_TO_FLAG: i64 = 3;

/// The flag of a player with these gold answers, if any.
pub fn gold_flag(right: i64, missed: i64) -> Option<&'static str> {
    (missed >= GOLD_MISSES_TO_FLAG && missed > right).then_some("gold_failing")
}

/// Answers an item collects before it retires, unless an admin sets another number
/// (PyBossa's default redundancy). Gold items never retire.
pub const DEFAULT_ANSWERS_PER_ITEM: i64 = 30;

/// Most answers per item an admin may set: enough that no item retires in a load
/// test, bounded so that the setting is a count and not any number.
pub const MAX_ANSWERS_PER_ITEM: i64 = 1_000_000;

/// An item served and not answered holds one of its answer slots this long; then the
/// slot is free again for others.
pub const RESERVATION_MS: i64 = 30 * 60 * 1000;

/// A player an admin should look at, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlaggedPlayer {
    pub pseudonym: String,
    /// `too_fast` (some answers), `gold_failing`, `assignment_returned`,
    /// `assignment_abandoned`.
    pub reasons: Vec<String>,
    pub answers: i64,
    pub gold_right: i64,
    pub gold_missed: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_comes_more_often_to_players_who_miss_it() {
        assert!((gold_rate(0) - 0.1).abs() < 1e-12);
        assert!((gold_rate(2) - 0.3).abs() < 1e-12);
        assert!((gold_rate(5) - GOLD_RATE_MAX).abs() < 1e-12);
    }

    #[test]
    fn repeated_gold_misses_flag_the_player() {
        assert_eq!(gold_flag(10, 2), None, "two misses are bad luck");
        assert_eq!(gold_flag(3, 3), None, "as many right as missed");
        assert_eq!(gold_flag(1, 3), Some("gold_failing"));
    }

    #[test]
    fn answers_are_flagged_by_their_timing_and_trial() {
        let timed = |client_ms, server_ms, client_ms_reported| Timing { client_ms, server_ms, client_ms_reported };
        let plain = Trial::default();
        assert_eq!(answer_flag(timed(Some(399), 5000, None), plain).as_deref(), Some("too_fast"));
        assert_eq!(answer_flag(timed(None, 400, None), plain), None);
        assert_eq!(answer_flag(timed(None, 300, Some(-5)), plain).as_deref(), Some("too_fast;time_untrusted"));
        assert_eq!(answer_flag(timed(None, 3000, Some(99_999_999)), plain).as_deref(), Some("time_untrusted"));
        let hidden = Trial { hidden: Some(1), clock_us: Some(100_000), ..plain };
        assert_eq!(answer_flag(timed(Some(2000), 2100, None), hidden).as_deref(), Some("tab_hidden;coarse_clock"));
        let shown = Trial { hidden: Some(0), clock_us: Some(100), ..plain };
        assert_eq!(answer_flag(timed(Some(2000), 2100, None), shown), None);
    }
}
