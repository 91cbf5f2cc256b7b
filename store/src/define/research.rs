//! What the report and the research page read.

use crate::error::StoreError;
use crate::sql::stored_code;
use gapwise_model::DefinitionTask;
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

use super::{Define, DefinitionRound, GroupFacts};

impl Define<'_> {
    /// Every finished round (right one found), anonymous, in the order played.
    pub async fn finished_rounds(self) -> Result<Vec<DefinitionRound>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.task, s.target, s.candidates, p.attempt, \
                    (SELECT COALESCE(f.client_ms, f.server_ms) FROM define_picks f WHERE f.serving_id = s.id AND f.attempt = 1) \
             FROM define_servings s JOIN define_picks p ON p.serving_id = s.id AND p.correct = 1 ORDER BY s.served_at",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(DefinitionRound {
                    task: stored_code(r, 0, "definition task", DefinitionTask::parse)?,
                    target: r.try_get(1)?,
                    candidates: r.try_get::<String, _>(2)?.split('|').count(),
                    rank: usize::try_from(r.try_get::<i64, _>(3)?).unwrap_or(0),
                    first_pick_ms: r.try_get::<Option<i64>, _>(4)?.unwrap_or(0),
                })
            })
            .collect()
    }

    /// Every stored model score: (model, task, target) -> candidate -> score.
    pub async fn candidate_scores(self) -> Result<BTreeMap<(String, DefinitionTask, String), HashMap<String, f64>>, StoreError> {
        let rows = sqlx::query("SELECT model_id, task, target, candidate, score FROM define_scores").fetch_all(self.pool()).await?;
        let mut out: BTreeMap<(String, DefinitionTask, String), HashMap<String, f64>> = BTreeMap::new();
        for r in &rows {
            let key = (r.try_get(0)?, stored_code(r, 1, "definition task", DefinitionTask::parse)?, r.try_get(2)?);
            out.entry(key).or_default().insert(r.try_get(3)?, r.try_get(4)?);
        }
        Ok(out)
    }

    /// Part of speech, depth and frequency of the targets of every group
    /// played or scored (the ones the analyses need, not all 60k).
    pub async fn group_facts(self) -> Result<HashMap<String, GroupFacts>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.target, s.pos, s.depth, s.zipf FROM define_groups g JOIN wordnet_synsets s ON s.id = g.target \
             WHERE g.target IN (SELECT target FROM define_servings UNION SELECT target FROM define_scores)",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    GroupFacts { pos: r.try_get(1)?, depth: u32::try_from(r.try_get::<i64, _>(2)?).unwrap_or(0), zipf: r.try_get(3)? },
                ))
            })
            .collect()
    }
}
