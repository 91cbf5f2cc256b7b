//! The rules every mode's round shares: how long an answer took, and an answer
//! that brings the round to show next.

use serde::{Deserialize, Serialize};

/// A round carries the outcome of the player's last answer given within this time
/// (ms): a page shown again after a plain form post (no JavaScript) says how that
/// answer went, and one opened later does not.
pub const RECENT_OUTCOME_MS: i64 = 120_000;

/// Client-measured times outside 1 ms ..= 1 h are not trusted: the server's time
/// is used, and the reported one is kept apart and flagged.
pub const MAX_CLIENT_MS: i64 = 3_600_000;

/// How long an answer took, as stored with it in every mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The browser's measure, when it is believable.
    pub client_ms: Option<i64>,
    /// The browser's measure when it is not (kept for the researchers to see).
    pub client_ms_reported: Option<i64>,
    /// From the serving to the answer's arrival, on the server's clock.
    pub server_ms: i64,
}

impl Timing {
    /// The timing of an answer that arrived at `now` (ms) to a serving made at
    /// `served_at`, which the browser says took `client_ms`.
    pub fn of(served_at: i64, now: i64, client_ms: Option<i64>) -> Timing {
        let server_ms = (now - served_at).max(0);
        match client_ms {
            Some(ms) if !(1..=MAX_CLIENT_MS).contains(&ms) => Timing { client_ms: None, client_ms_reported: Some(ms), server_ms },
            trusted => Timing { client_ms: trusted, client_ms_reported: None, server_ms },
        }
    }
}

/// An answer's outcome with the round the page shows next (the same round while
/// it goes on, the next one, or none when nothing is left): one request a round.
/// The outcome's fields are those of `P`, beside `next`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithNext<P, C> {
    #[serde(flatten)]
    pub given: P,
    pub next: Option<C>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_believable_client_times_are_trusted() {
        assert_eq!(Timing::of(1_000, 3_500, Some(2_400)), Timing { client_ms: Some(2_400), client_ms_reported: None, server_ms: 2_500 });
        assert_eq!(Timing::of(1_000, 3_500, None), Timing { client_ms: None, client_ms_reported: None, server_ms: 2_500 });
        for odd in [0, -5, MAX_CLIENT_MS + 1] {
            assert_eq!(Timing::of(1_000, 3_500, Some(odd)), Timing { client_ms: None, client_ms_reported: Some(odd), server_ms: 2_500 });
        }
        assert_eq!(Timing::of(5_000, 3_500, None).server_ms, 0, "a clock that went back counts as no time");
    }
}
