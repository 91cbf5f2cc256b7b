//! What admins see at a glance, and the admin changes that are not moderation.

use super::{Store, StoreError, ITEMS_PER_K};
use crate::model::AdminOverview;

/// Tables whose sizes the admin page shows.
const COUNTED: [&str; 7] = ["sentences", "word_pairs", "items", "annotators", "answers", "likert_ratings", "pair_suggestions"];
/// Audit entries the admin page shows.
const AUDIT_SHOWN: i64 = 50;

impl Store {
    /// Table sizes, the suggestions queue and the latest audit entries.
    pub async fn admin_overview(&self) -> Result<AdminOverview, StoreError> {
        let mut counts = Vec::with_capacity(COUNTED.len());
        for table in COUNTED {
            counts.push((table.to_owned(), self.count_rows(table).await?));
        }
        Ok(AdminOverview { counts, pending: self.pending_suggestions().await?, audit: self.audit_log(AUDIT_SHOWN).await? })
    }

    /// Builds [`ITEMS_PER_K`] items per k for every active pair without any (see
    /// [`Store::build_items`]) and records who did it.
    pub async fn build_items_as(&self, staff: &str) -> Result<super::BuildReport, StoreError> {
        let report = self.build_items(ITEMS_PER_K).await?;
        let detail = format!(
            "{} items for {} pairs ({} pairs without a fitting sentence)",
            report.items, report.pairs, report.pairs_without_contexts
        );
        self.audit(staff, "build items", &detail).await?;
        Ok(report)
    }
}
