//! A model's scores as stored, in every mode that takes scores made elsewhere (see
//! `gapwise import-scores`): read back so that an import can tell a repeat (the same
//! values: nothing to do) from a different run (refused, or replaced when asked),
//! and removed request by request for such a replacement.

use sqlx::Row;

use crate::error::StoreError;
use gapwise_model::{ModelId, PairId};

crate::store::area!(
    /// A model's stored scores, read back and removed by request.
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

/// The requests whose stored values a replacement removes, by kind (the keys of
/// [`StoredValues`]'s rows; a next-word sentence whole).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScoreKeys {
    pub contexts: Vec<(PairId, i64)>,
    /// (item, word code, teaching code), zero-shot
    pub judgements: Vec<(String, String, String)>,
    /// (task code, target, candidate)
    pub definitions: Vec<(String, String, String)>,
    pub sentences: Vec<i64>,
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

    /// Removes `model`'s stored values of the requests `keys`, in one transaction,
    /// and its item scores when a context is among them (they are summed from the
    /// contexts again when the new values are stored).
    pub async fn remove(self, model: &ModelId, keys: &ScoreKeys) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for (pair, sentence) in &keys.contexts {
            sqlx::query("DELETE FROM context_scores WHERE model_id = $1 AND pair_id = $2 AND sentence_id = $3")
                .bind(model)
                .bind(pair)
                .bind(sentence)
                .execute(&mut *tx)
                .await?;
        }
        if !keys.contexts.is_empty() {
            sqlx::query("DELETE FROM item_scores WHERE model_id = $1").bind(model).execute(&mut *tx).await?;
        }
        for (item, word, teaching) in &keys.judgements {
            sqlx::query(
                "DELETE FROM new_words_judgements WHERE model_id = $1 AND item_id = $2 AND word = $3 AND teaching = $4 AND shots = 0",
            )
            .bind(model)
            .bind(item)
            .bind(word)
            .bind(teaching)
            .execute(&mut *tx)
            .await?;
        }
        for (task, target, candidate) in &keys.definitions {
            sqlx::query("DELETE FROM define_scores WHERE model_id = $1 AND task = $2 AND target = $3 AND candidate = $4")
                .bind(model)
                .bind(task)
                .bind(target)
                .bind(candidate)
                .execute(&mut *tx)
                .await?;
        }
        for sentence in &keys.sentences {
            sqlx::query("DELETE FROM guess_predictions WHERE model_id = $1 AND sentence_id = $2")
                .bind(model)
                .bind(sentence)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
