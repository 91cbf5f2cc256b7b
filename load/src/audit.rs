//! The audit after a run: every acknowledged answer is in the database exactly once.

use std::collections::HashSet;

use gapwise_store::{Store, StoreError};

/// Acknowledged answers against the stored ones.
#[derive(Debug)]
pub struct Audit {
    pub acknowledged: usize,
    /// Acknowledged answers found in the database.
    pub stored: usize,
    /// Acknowledged answers not found: each is a lost answer.
    pub missing: Vec<String>,
    /// Rows beyond the first for an answer id: each is a duplicate.
    pub duplicated: usize,
}

impl Audit {
    /// Compares the acknowledged ids with the ids of every stored answer row.
    pub fn of(acknowledged: &HashSet<String>, stored_rows: Vec<String>) -> Audit {
        let rows = stored_rows.len();
        let stored: HashSet<String> = stored_rows.into_iter().collect();
        let missing: Vec<String> = acknowledged.iter().filter(|id| !stored.contains(*id)).cloned().collect();
        Audit { acknowledged: acknowledged.len(), stored: acknowledged.len() - missing.len(), missing, duplicated: rows - stored.len() }
    }

    pub fn passed(&self) -> bool {
        self.missing.is_empty() && self.duplicated == 0
    }

    pub fn summary(&self) -> String {
        format!(
            "audit: {} acknowledged answers, {} stored, {} missing, {} duplicated: {}",
            self.acknowledged,
            self.stored,
            self.missing.len(),
            self.duplicated,
            if self.passed() { "PASSED" } else { "FAILED" }
        )
    }
}

/// Audits Gapwise's database after a run.
pub async fn audit(store: &Store, acknowledged: &HashSet<String>) -> Result<Audit, StoreError> {
    let rows: Vec<String> = sqlx::query_scalar("SELECT id FROM answers").fetch_all(store.pool()).await?;
    Ok(Audit::of(acknowledged, rows))
}
