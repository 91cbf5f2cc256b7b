//! The `settings` table: values by name that change at run time (the per-item
//! redundancy admins set, the first start's unfinished steps).

use sqlx::AnyConnection;

use crate::error::StoreError;
use crate::store::Store;

impl Store {
    /// The value of the setting `name`, if it is set.
    pub(crate) async fn setting(&self, name: &str) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar("SELECT value FROM settings WHERE name = $1").bind(name).fetch_optional(self.pool()).await?)
    }
}

/// Sets `name` to `value` on `conn` (a transaction's, or one of the pool's).
pub(crate) async fn put_setting(conn: &mut AnyConnection, name: &str, value: i64) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value")
        .bind(name)
        .bind(value)
        .execute(conn)
        .await?;
    Ok(())
}
