//! Model scores stored beside the answers: per context (log p with the target and
//! with the distractor in the blank) and per item (Eq. 2, their summed difference).

use sqlx::Row;

use std::collections::BTreeMap;

use crate::error::StoreError;
use crate::sql::{insert_rows, now_ms};
use gapwise_model::{ItemId, Language, ModelId, PairId};

crate::store::area!(
    /// Models and their scores of the game's contexts.
    Scores,
    scores
);

/// A context that a model has not scored yet for its pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextToScore {
    pub pair: PairId,
    pub sentence_id: i64,
    pub text: String,
    /// Byte range of the target occurrence in `text`.
    pub blank: (usize, usize),
    pub target: String,
    pub distractor: String,
}

/// What a model said about one context.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextScore {
    pub pair: PairId,
    pub sentence_id: i64,
    pub target_logprob: f64,
    pub distractor_logprob: f64,
}

/// A model as recorded beside its scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    pub id: ModelId,
    /// `causal`, `masked`, `unigram`, `bigram` or `static-vectors`.
    pub kind: String,
    /// The file, directory or Hub id it was loaded from.
    pub source: String,
    /// How its scores were made, every choice named ('' if recorded before that was kept).
    pub convention: String,
}

impl ModelInfo {
    pub fn new(id: &ModelId, kind: &str, source: &str, convention: &str) -> Self {
        ModelInfo { id: id.clone(), kind: kind.into(), source: source.into(), convention: convention.into() }
    }
}

const UNSCORED: &str = "FROM item_contexts c JOIN items i ON i.id = c.item_id \
     JOIN word_pairs p ON p.id = i.pair_id JOIN sentences s ON s.id = c.sentence_id \
     WHERE NOT EXISTS (SELECT 1 FROM context_scores cs WHERE cs.model_id = $1 \
     AND cs.pair_id = p.id AND cs.sentence_id = s.id) AND ($2 = '' OR p.lang = $2)";

impl Scores<'_> {
    /// Records a model (once) so scores can name it, with the convention its scores
    /// follow. Scores under one id must share one convention: a model already recorded
    /// under another is refused (a model recorded before conventions were kept takes
    /// this one).
    pub async fn register_model(self, model: &ModelInfo) -> Result<(), StoreError> {
        let recorded: Option<String> =
            sqlx::query_scalar("SELECT convention FROM models WHERE id = $1").bind(&model.id).fetch_optional(self.pool()).await?;
        match recorded {
            Some(c) if c == model.convention => Ok(()),
            Some(c) if !c.is_empty() => Err(StoreError::Invalid(format!(
                "model id {:?} holds scores made another way ({c}); this run would make them so: {}. \
                 Give this run its own --model-id",
                model.id, model.convention
            ))),
            Some(_) => {
                sqlx::query("UPDATE models SET convention = $1 WHERE id = $2")
                    .bind(&model.convention)
                    .bind(&model.id)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }
            None => {
                sqlx::query(
                    "INSERT INTO models (id, kind, source, convention, created_at) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(&model.id)
                .bind(&model.kind)
                .bind(&model.source)
                .bind(&model.convention)
                .bind(now_ms())
                .execute(self.pool())
                .await?;
                Ok(())
            }
        }
    }

    /// The recorded models among `ids`, in the order asked (unknown ids left out).
    pub async fn models_info(self, ids: &[ModelId]) -> Result<Vec<ModelInfo>, StoreError> {
        let rows = sqlx::query("SELECT id, kind, source, convention FROM models").fetch_all(self.pool()).await?;
        let mut all = rows
            .iter()
            .map(|r| Ok(ModelInfo { id: r.try_get(0)?, kind: r.try_get(1)?, source: r.try_get(2)?, convention: r.try_get(3)? }))
            .collect::<Result<Vec<ModelInfo>, sqlx::Error>>()?;
        Ok(ids.iter().filter_map(|id| all.iter().position(|m| &m.id == id).map(|i| all.swap_remove(i))).collect())
    }

    /// How many (pair, sentence) contexts the model has still to score, in one
    /// language or in all.
    pub async fn count_contexts_to_score(self, model: &ModelId, language: Option<Language>) -> Result<i64, StoreError> {
        let n = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM (SELECT DISTINCT p.id, s.id AS sid {UNSCORED}) AS todo"))
            .bind(model)
            .bind(language.map_or("", Language::code))
            .fetch_one(self.pool())
            .await?;
        Ok(n)
    }

    /// Up to `limit` contexts the model has not scored, in one language or in all, in a stable order.
    pub async fn contexts_to_score(
        self,
        model: &ModelId,
        language: Option<Language>,
        limit: i64,
    ) -> Result<Vec<ContextToScore>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT p.id, s.id, s.text, MIN(c.blank_start), MIN(c.blank_end), p.target, p.distractor {UNSCORED} \
             GROUP BY p.id, s.id, s.text, p.target, p.distractor ORDER BY p.id, s.id LIMIT $3"
        ))
        .bind(model)
        .bind(language.map_or("", Language::code))
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let start: i64 = r.try_get(3)?;
                let end: i64 = r.try_get(4)?;
                let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
                    return Err(StoreError::Corrupt(format!("negative blank offsets in sentence {}", r.try_get::<i64, _>(1)?)));
                };
                Ok(ContextToScore {
                    pair: r.try_get(0)?,
                    sentence_id: r.try_get(1)?,
                    text: r.try_get(2)?,
                    blank: (start, end),
                    target: r.try_get(5)?,
                    distractor: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// Stores context scores in one transaction (a rerun never duplicates them).
    pub async fn save_context_scores(self, model: &ModelId, scores: &[ContextScore]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for s in scores {
            sqlx::query(
                "INSERT INTO context_scores (model_id, pair_id, sentence_id, target_logprob, distractor_logprob) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (model_id, pair_id, sentence_id) DO NOTHING",
            )
            .bind(model)
            .bind(s.pair)
            .bind(s.sentence_id)
            .bind(s.target_logprob)
            .bind(s.distractor_logprob)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Writes the Eq. 2 score ([`gapwise_model::eq2`]) of every item whose contexts
    /// are all scored by the model and that has no score yet; returns how many it wrote.
    pub async fn update_item_scores(self, model: &ModelId) -> Result<u64, StoreError> {
        let rows: Vec<(ItemId, Option<f64>, Option<f64>)> = sqlx::query_as(
            "SELECT i.id, cs.target_logprob, cs.distractor_logprob \
             FROM items i JOIN item_contexts c ON c.item_id = i.id \
             LEFT JOIN context_scores cs ON cs.model_id = $1 AND cs.pair_id = i.pair_id AND cs.sentence_id = c.sentence_id \
             WHERE NOT EXISTS (SELECT 1 FROM item_scores x WHERE x.model_id = $1 AND x.item_id = i.id) ORDER BY i.id",
        )
        .bind(model)
        .fetch_all(self.pool())
        .await?;
        let mut contexts: BTreeMap<ItemId, Option<Vec<(f64, f64)>>> = BTreeMap::new();
        for (item, target, distractor) in rows {
            let scored = contexts.entry(item).or_insert_with(|| Some(Vec::new()));
            match (target, distractor, scored.as_mut()) {
                (Some(t), Some(d), Some(list)) => list.push((t, d)),
                _ => *scored = None,
            }
        }
        let scores: Vec<(ItemId, f64)> =
            contexts.into_iter().filter_map(|(item, scored)| scored.map(|list| (item, gapwise_model::eq2(list)))).collect();
        let mut tx = self.pool().begin().await?;
        let written = insert_rows(
            &mut tx,
            "INSERT INTO item_scores (model_id, item_id, score) VALUES {} ON CONFLICT (model_id, item_id) DO NOTHING",
            3,
            &scores,
            |q, (item, score)| q.bind(model.clone()).bind(*item).bind(*score),
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(written)
    }

    /// The model's Eq. 2 score of an item, once all its contexts are scored.
    pub async fn item_score(self, model: &ModelId, item: ItemId) -> Result<Option<f64>, StoreError> {
        Ok(sqlx::query_scalar("SELECT score FROM item_scores WHERE model_id = $1 AND item_id = $2")
            .bind(model)
            .bind(item)
            .fetch_optional(self.pool())
            .await?)
    }
}
