//! What the report reads.

use sqlx::Row;

use crate::error::StoreError;

use super::{Cloze, ClozeRecord};

impl Cloze<'_> {
    /// Every answer people gave, without who gave them, in the order given.
    pub async fn answers(self) -> Result<Vec<ClozeRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.lang, a.correct FROM cloze_answers a JOIN cloze_servings v ON v.id = a.serving_id \
             JOIN sentences s ON s.id = v.sentence_id ORDER BY a.created_at, a.serving_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(ClozeRecord { lang: r.try_get(0)?, correct: r.try_get::<i64, _>(1)? == 1 })).collect()
    }
}
