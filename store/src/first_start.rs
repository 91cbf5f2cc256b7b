//! A server's first start on an empty database loads data (the demo set, WordNet's
//! items): done once when replicas start together, and finished after an
//! interruption. Replicas wait on a lock (PostgreSQL), and the loading is marked
//! while it runs, so that a start after one cut short completes it instead of finding
//! some data and leaving the rest unloaded.

use super::settings::put_setting;
use super::store::Backend;
use super::{Store, StoreError};

/// The settings row present while a first start's loading runs.
const LOADING: &str = "first_start_loading";

impl Store {
    /// Waits until no other server holds the first-start lock, then holds it until the
    /// guard is dropped: on PostgreSQL, a transaction-level advisory lock, released with
    /// the transaction however it ends; on SQLite, whose file one server owns, none.
    pub async fn first_start_lock(&self) -> Result<Option<sqlx::Transaction<'static, sqlx::Any>>, StoreError> {
        if self.backend() != Backend::Postgres {
            return Ok(None);
        }
        let mut held = self.pool().begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(4700470047)").execute(&mut *held).await?;
        Ok(Some(held))
    }

    /// The steps a first start began and did not finish, if one did (the bits its
    /// caller gave [`Store::mark_first_start`]).
    pub async fn first_start_unfinished(&self) -> Result<Option<i64>, StoreError> {
        self.setting(LOADING).await
    }

    /// Marks the steps (bits of the caller's choosing) a first start's loading is
    /// running.
    pub async fn mark_first_start(&self, steps: i64) -> Result<(), StoreError> {
        put_setting(&mut *self.pool().acquire().await?, LOADING, steps).await
    }

    /// Marks the first start's loading done.
    pub async fn first_start_done(&self) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM settings WHERE name = $1").bind(LOADING).execute(self.pool()).await?;
        Ok(())
    }
}
