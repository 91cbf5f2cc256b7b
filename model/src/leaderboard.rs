//! The public leaderboard: players and models side by side.

use serde::{Deserialize, Serialize};

use crate::DAY_MS;

/// Who stands on the leaderboard: a player (by pseudonym) or a scored model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Contender {
    Player(String),
    Model(String),
}

/// Which answers a leaderboard counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Period {
    /// Since Monday 00:00 UTC.
    Week,
    AllTime,
}

impl Period {
    /// The period named in a page's `?period=` (`all`; anything else is the week).
    pub fn parse(raw: Option<&str>) -> Period {
        if raw == Some("all") {
            Period::AllTime
        } else {
            Period::Week
        }
    }

    /// First millisecond (Unix time) that counts, at `now_ms`.
    pub fn start_ms(self, now_ms: i64) -> i64 {
        match self {
            Period::AllTime => 0,
            // 1970-01-01 was a Thursday, three days after a Monday
            Period::Week => {
                let day = now_ms.div_euclid(DAY_MS);
                (day - (day + 3).rem_euclid(7)) * DAY_MS
            }
        }
    }
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub who: Contender,
    /// Items answered (for a model: items people answered that it has scored).
    pub answered: i64,
    pub correct: i64,
}

impl Standing {
    pub fn rate(&self) -> f64 {
        if self.answered == 0 {
            0.0
        } else {
            self.correct as f64 / self.answered as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_week_starts_on_monday_at_midnight_utc() {
        // Wednesday 2026-11-25 13:45:10 UTC -> Monday 2026-11-23 00:00 UTC
        assert_eq!(Period::Week.start_ms(1_795_614_310_000), 1_795_392_000_000);
        // a Monday midnight is its own week's start
        assert_eq!(Period::Week.start_ms(1_795_392_000_000), 1_795_392_000_000);
        assert_eq!(Period::AllTime.start_ms(1_795_614_310_000), 0);
        assert_eq!(Period::parse(Some("all")), Period::AllTime);
        assert_eq!(Period::parse(None), Period::Week);
    }
}
