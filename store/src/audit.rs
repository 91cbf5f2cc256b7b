//! The audit log: who changed what, and when. Written in the transaction of the
//! change it records, so neither exists without the other.

use sqlx::{Any, Row, Transaction};

use crate::error::StoreError;
use crate::sql::now_ms;
use crate::staff::StaffAccounts;
use gapwise_model::AuditEntry;

/// Adds an entry to the audit log inside `tx`.
pub(crate) async fn record(tx: &mut Transaction<'_, Any>, staff: &str, action: &str, detail: &str) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO audit_log (staff_name, action, detail, created_at) VALUES ($1, $2, $3, $4)")
        .bind(staff)
        .bind(action)
        .bind(detail)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_minute(ms: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp(ms / 1000).ok().and_then(|t| t.format(&format).ok()).unwrap_or_else(|| format!("{ms} ms"))
}

impl StaffAccounts<'_> {
    /// Records a change made outside a transaction of its own (e.g. an item build).
    pub async fn audit(self, staff: &str, action: &str, detail: &str) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        record(&mut tx, staff, action, detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The latest `limit` entries, newest first.
    pub async fn audit_log(self, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = sqlx::query("SELECT staff_name, action, detail, created_at FROM audit_log ORDER BY id DESC LIMIT $1")
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok(AuditEntry { staff: r.try_get(0)?, action: r.try_get(1)?, detail: r.try_get(2)?, at: utc_minute(r.try_get(3)?) }))
            .collect()
    }
}
