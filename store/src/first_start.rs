//! A server's first start on an empty database loads data (the demo set, WordNet's
//! items): done once when replicas start together, and finished after an
//! interruption. Replicas wait on a lock (PostgreSQL), and the loading is marked
//! while it runs, so that a start after one cut short completes it instead of finding
//! some data and leaving the rest unloaded. After it, the demo's model data is
//! prepared in the background (see `gapwise_model::Preparation`): the steps still to
//! run are kept here too, with the time its server last reported, so that one server
//! runs them and another takes over only when that one stopped.

use super::settings::put_setting;
use super::store::Backend;
use crate::error::StoreError;
use crate::sql::now_ms;

crate::store::area!(
    /// The first start's demo loading and the demo models' preparation, claimed by one server.
    FirstStart,
    first_start
);

/// The settings row present while a first start's loading runs.
const LOADING: &str = "first_start_loading";
/// The settings row of the demo's model preparation steps still to run (bits).
const PREPARING: &str = "demo_models_pending";
/// The settings row of when the demo's model preparation was planned (ms): the pace
/// of the tasks done tells the pages how long the others will take.
const PREPARING_SINCE: &str = "demo_models_since";
/// The settings row the server preparing them refreshes: a stamp, the time in ms
/// shifted left by [`STAMP_BITS`] with random low bits, so that two servers' stamps
/// differ even within one millisecond and a renewal can tell its own claim.
const PREPARING_BEAT: &str = "demo_models_beat";
/// The settings row the server that keeps the next-word and cloze games supplied
/// with predicted sentences refreshes (a stamp, as [`PREPARING_BEAT`]).
const SUPPLYING_BEAT: &str = "suggestions_supply_beat";
const STAMP_BITS: u32 = 10;
const STAMP_TAIL: i64 = (1 << STAMP_BITS) - 1;

/// A claim's stamp at time `ms`.
fn beat_stamp(ms: i64) -> i64 {
    (ms << STAMP_BITS) | rand::Rng::gen_range(&mut rand::thread_rng(), 0..=STAMP_TAIL)
}

impl FirstStart<'_> {
    /// Waits until no other server holds the first-start lock, then holds it until the
    /// guard is dropped: on PostgreSQL, a transaction-level advisory lock, released with
    /// the transaction however it ends; on SQLite, whose file one server owns, none.
    pub async fn lock(self) -> Result<Option<sqlx::Transaction<'static, sqlx::Any>>, StoreError> {
        if self.backend() != Backend::Postgres {
            return Ok(None);
        }
        let mut held = self.pool().begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(4700470047)").execute(&mut *held).await?;
        Ok(Some(held))
    }

    /// The steps a first start began and did not finish, if one did (the bits its
    /// caller gave [`FirstStart::mark`]).
    pub async fn unfinished(self) -> Result<Option<i64>, StoreError> {
        self.setting(LOADING).await
    }

    /// Marks the steps (bits of the caller's choosing) a first start's loading is
    /// running.
    pub async fn mark(self, steps: i64) -> Result<(), StoreError> {
        put_setting(&mut *self.pool().acquire().await?, LOADING, steps).await
    }

    /// Marks the first start's loading done.
    pub async fn done(self) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM settings WHERE name = $1").bind(LOADING).execute(self.pool()).await?;
        Ok(())
    }

    /// The demo's model preparation steps still to run (`Preparation` bits; 0 for none).
    pub async fn steps_to_prepare(self) -> Result<i64, StoreError> {
        Ok(self.setting(PREPARING).await?.unwrap_or(0))
    }

    /// Sets the demo's model preparation steps still to run; with none, the
    /// preparation is over and its claim let go.
    pub async fn set_steps_to_prepare(self, steps: i64) -> Result<(), StoreError> {
        if steps != 0 {
            return put_setting(&mut *self.pool().acquire().await?, PREPARING, steps).await;
        }
        sqlx::query("DELETE FROM settings WHERE name IN ($1, $2, $3)")
            .bind(PREPARING)
            .bind(PREPARING_BEAT)
            .bind(PREPARING_SINCE)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Plans the demo's model preparation: `steps` to run from now on.
    pub async fn plan_preparation(self, steps: i64) -> Result<(), StoreError> {
        let mut conn = self.pool().acquire().await?;
        put_setting(&mut conn, PREPARING_SINCE, now_ms()).await?;
        put_setting(&mut conn, PREPARING, steps).await
    }

    /// When the demo's model preparation was planned (ms), while it runs.
    pub async fn preparing_since(self) -> Result<Option<i64>, StoreError> {
        self.setting(PREPARING_SINCE).await
    }

    /// Claims the demo's model preparation for the caller unless another server
    /// renewed its claim within `stale_ms`: the stamp written (to renew with), or
    /// `None`.
    pub async fn claim_demo_models(self, stale_ms: i64) -> Result<Option<i64>, StoreError> {
        self.claim(PREPARING_BEAT, stale_ms).await
    }

    /// Renews the claim this server made or last renewed with `stamp`: the new stamp,
    /// or `None` when the claim is no longer this server's (another took it over, or
    /// the preparation ended).
    pub async fn renew_demo_models(self, stamp: i64) -> Result<Option<i64>, StoreError> {
        self.renew(PREPARING_BEAT, stamp).await
    }

    /// [`Self::claim_demo_models`] for keeping the games supplied with predicted
    /// sentences, which one server does at a time, during and after the preparation.
    pub async fn claim_supply(self, stale_ms: i64) -> Result<Option<i64>, StoreError> {
        self.claim(SUPPLYING_BEAT, stale_ms).await
    }

    /// [`Self::renew_demo_models`] of the claim of [`Self::claim_supply`].
    pub async fn renew_supply(self, stamp: i64) -> Result<Option<i64>, StoreError> {
        self.renew(SUPPLYING_BEAT, stamp).await
    }

    async fn claim(self, beat: &str, stale_ms: i64) -> Result<Option<i64>, StoreError> {
        let now = now_ms();
        let stamp = beat_stamp(now);
        let claimed = sqlx::query(
            "INSERT INTO settings (name, value) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE settings.value < $3",
        )
        .bind(beat)
        .bind(stamp)
        .bind(beat_stamp(now - stale_ms) & !STAMP_TAIL)
        .execute(self.pool())
        .await?;
        Ok((claimed.rows_affected() == 1).then_some(stamp))
    }

    async fn renew(self, beat: &str, stamp: i64) -> Result<Option<i64>, StoreError> {
        let now = beat_stamp(now_ms()).max(stamp + 1);
        let renewed = sqlx::query("UPDATE settings SET value = $1 WHERE name = $2 AND value = $3")
            .bind(now)
            .bind(beat)
            .bind(stamp)
            .execute(self.pool())
            .await?;
        Ok((renewed.rows_affected() == 1).then_some(now))
    }
}
