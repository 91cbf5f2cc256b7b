//! The queues of work for models, and their results written back.

use crate::error::StoreError;
use crate::sql::insert_rows;
use gapwise_model::ModelId;
use sqlx::Row;
use std::collections::HashSet;

use super::{setup_of, NewWords, NewWordsJudgement, NewWordsSetup};

impl NewWords<'_> {
    /// The setups `model` has judged each item in.
    pub async fn judged(self, model: &ModelId) -> Result<HashSet<(String, NewWordsSetup)>, StoreError> {
        let rows = sqlx::query("SELECT item_id, word, teaching, shots FROM new_words_judgements WHERE model_id = $1")
            .bind(model)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, setup_of(r, 1)?))).collect()
    }

    /// Stores judgements (one transaction); a judgement made again replaces the old.
    pub async fn save_judgements(self, judgements: &[NewWordsJudgement]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO new_words_judgements (model_id, item_id, word, teaching, shots, log_likelihood_a, log_likelihood_b, choice) VALUES {} \
             ON CONFLICT (model_id, item_id, word, teaching, shots) DO UPDATE SET \
             log_likelihood_a = excluded.log_likelihood_a, log_likelihood_b = excluded.log_likelihood_b, choice = excluded.choice",
            8,
            judgements,
            |q, j| {
                q.bind(j.model.clone())
                    .bind(j.item_id.clone())
                    .bind(j.setup.word.code())
                    .bind(j.setup.teaching.clone())
                    .bind(i64::from(j.setup.shots))
                    .bind(j.log_likelihoods[0])
                    .bind(j.log_likelihoods[1])
                    .bind(i64::from(j.choice == 1))
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
