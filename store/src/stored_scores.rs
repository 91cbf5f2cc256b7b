//! A model's scores as stored, in every mode that takes scores made elsewhere (see
//! `gapwise import-scores`): read back so that an import can tell a repeat (the same
//! values: nothing to do) from a different run (refused, or replaced when asked),
//! and removed for such a replacement.

use sqlx::Row;

use crate::error::StoreError;
use gapwise_model::{ModelId, PairId};

crate::store::area!(
    /// A model's stored scores, read back and removed whole per mode.
    StoredScores,
    stored_scores
);

/// The values a model has stored, per kind of request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredValues {
    /// (pair, sentence, log p with the target, with the distractor)
    pub contexts: Vec<(PairId, i64, f64, f64)>,
    /// (item, word code, teaching code, log-likelihood of option a, of option b),
    /// zero-shot judgements only (the harness's)
    pub judgements: Vec<(String, String, String, f64, f64)>,
    /// (task code, target, candidate, score)
    pub definitions: Vec<(String, String, String, f64)>,
    /// (sentence, position, the word's log-probability when it has one)
    pub words: Vec<(i64, i64, Option<f64>)>,
}

/// The tables a kind of request's scores are kept in, the derived ones first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    Contexts,
    Judgements,
    Definitions,
    Words,
}

impl ScoreKind {
    fn tables(self) -> &'static [&'static str] {
        match self {
            ScoreKind::Contexts => &["item_scores", "context_scores"],
            ScoreKind::Judgements => &["new_words_judgements"],
            ScoreKind::Definitions => &["define_scores"],
            ScoreKind::Words => &["guess_predictions"],
        }
    }
}

impl StoredScores<'_> {
    /// Every value `model` has stored.
    pub async fn values(self, model: &ModelId) -> Result<StoredValues, StoreError> {
        let pool = self.pool();
        let contexts =
            sqlx::query("SELECT pair_id, sentence_id, target_logprob, distractor_logprob FROM context_scores WHERE model_id = $1")
                .bind(model)
                .fetch_all(pool)
                .await?
                .iter()
                .map(|r| Ok((PairId(r.try_get(0)?), r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
                .collect::<Result<_, StoreError>>()?;
        let judgements = sqlx::query(
            "SELECT item_id, word, teaching, log_likelihood_a, log_likelihood_b FROM new_words_judgements \
             WHERE model_id = $1 AND shots = 0",
        )
        .bind(model)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?)))
        .collect::<Result<_, StoreError>>()?;
        let definitions = sqlx::query("SELECT task, target, candidate, score FROM define_scores WHERE model_id = $1")
            .bind(model)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect::<Result<_, StoreError>>()?;
        let words = sqlx::query("SELECT sentence_id, position, word_log_prob FROM guess_predictions WHERE model_id = $1")
            .bind(model)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect::<Result<_, StoreError>>()?;
        Ok(StoredValues { contexts, judgements, definitions, words })
    }

    /// Removes every score of `model` of the kinds `kinds`, in one transaction.
    pub async fn remove(self, model: &ModelId, kinds: &[ScoreKind]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for table in kinds.iter().flat_map(|k| k.tables()) {
            sqlx::query(&format!("DELETE FROM {table} WHERE model_id = $1")).bind(model).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
