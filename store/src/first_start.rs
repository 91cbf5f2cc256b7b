//! A server's first start on an empty database loads data (the demo set, WordNet's
//! items): done once when replicas start together, and finished after an
//! interruption. Replicas wait on a lock (PostgreSQL), and the loading is marked
//! while it runs, so that a start after one cut short completes it instead of finding
//! some data and leaving the rest unloaded.

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

    /// Whether a first start began loading and did not finish.
    pub async fn first_start_unfinished(&self) -> Result<bool, StoreError> {
        let row: Option<i64> =
            sqlx::query_scalar("SELECT value FROM settings WHERE name = $1").bind(LOADING).fetch_optional(self.pool()).await?;
        Ok(row.is_some())
    }

    /// Marks the first start's loading as running (`true`) or done (`false`).
    pub async fn mark_first_start(&self, loading: bool) -> Result<(), StoreError> {
        let sql = match loading {
            true => "INSERT INTO settings (name, value) VALUES ($1, 1) ON CONFLICT (name) DO NOTHING",
            false => "DELETE FROM settings WHERE name = $1",
        };
        sqlx::query(sql).bind(LOADING).execute(self.pool()).await?;
        Ok(())
    }
}
