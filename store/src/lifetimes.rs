//! How long sessions and API tokens last. The server ends them at these times
//! whatever their cookies say (OWASP ASVS 3.3): a session or token past its time is
//! refused as an unknown one, and [`Store::end_expired`] removes it.
//!
//! - A player session lasts a year from when it was opened, as its cookie: players
//!   sign in with nothing but the cookie, most never set a password, and a shorter
//!   life would cut them off their pseudonym for good.
//! - A staff session lasts a working day from sign-in, as its cookie, and ends
//!   after two hours without a request: staff read and export every answer, and an
//!   unattended browser should not keep that for the rest of the day; two hours,
//!   not ASVS level 2's 30 minutes, because the research page is read for long
//!   stretches without a request.
//! - An API token lasts 90 days unless made with another lifetime (1 to 3,650 days),
//!   so that a token forgotten in a script or a notebook stops working on its own.

use crate::error::StoreError;
use crate::sql::now_ms;
use crate::store::Store;

/// A player session's life from when it was opened, in days.
pub const PLAYER_SESSION_DAYS: i64 = 365;
/// A staff session's life from sign-in, in hours.
pub const STAFF_SESSION_HOURS: i64 = 12;
/// How long a staff session lasts without a request, in minutes.
pub const STAFF_IDLE_MINUTES: i64 = 120;
/// An API token's life unless made with another, in days.
pub const DEFAULT_TOKEN_DAYS: u32 = 90;
/// The longest life an API token may be made with, in days (ten years).
pub const MAX_TOKEN_DAYS: u32 = 3650;

const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 60 * MINUTE_MS;
const DAY_MS: i64 = 24 * HOUR_MS;

/// The times before which sessions opened or last seen have ended, as of `now`
/// (Unix ms).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cutoffs {
    pub(crate) now: i64,
    /// Player sessions opened before this have ended.
    pub(crate) player_opened: i64,
    /// Staff sessions opened before this have ended.
    pub(crate) staff_opened: i64,
    /// Staff sessions last seen before this have ended.
    pub(crate) staff_seen: i64,
}

impl Cutoffs {
    /// The cutoffs as of now.
    pub(crate) fn now() -> Cutoffs {
        let now = now_ms();
        Cutoffs {
            now,
            player_opened: now - PLAYER_SESSION_DAYS * DAY_MS,
            staff_opened: now - STAFF_SESSION_HOURS * HOUR_MS,
            staff_seen: now - STAFF_IDLE_MINUTES * MINUTE_MS,
        }
    }
}

/// When a token made now for `days` days expires (Unix ms).
pub(crate) fn token_expiry(now: i64, days: u32) -> i64 {
    now + i64::from(days) * DAY_MS
}

/// How many expired rows [`Store::end_expired`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    pub player_sessions: u64,
    pub staff_sessions: u64,
    pub api_tokens: u64,
}

impl Store {
    /// Removes the sessions and API tokens that have ended (they are refused
    /// already; this only frees their rows).
    pub async fn end_expired(&self) -> Result<Ended, StoreError> {
        let at = Cutoffs::now();
        Ok(Ended {
            player_sessions: self.delete_where("DELETE FROM sessions WHERE created_at < $1", &[at.player_opened]).await?,
            staff_sessions: self
                .delete_where("DELETE FROM staff_sessions WHERE created_at < $1 OR last_seen_at < $2", &[at.staff_opened, at.staff_seen])
                .await?,
            api_tokens: self.delete_where("DELETE FROM api_tokens WHERE expires_at <= $1", &[at.now]).await?,
        })
    }

    /// Runs the DELETE `sql` with `values` bound in order: the rows it removed.
    async fn delete_where(&self, sql: &str, values: &[i64]) -> Result<u64, StoreError> {
        let mut query = sqlx::query::<sqlx::Any>(sql);
        for value in values {
            query = query.bind(*value);
        }
        Ok(query.execute(self.pool()).await?.rows_affected())
    }
}
