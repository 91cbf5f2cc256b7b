//! The queues of work for models, and their results written back.

use crate::error::StoreError;
use crate::sql::insert_rows;
use gapwise_model::{distinct_candidates, DefinitionTask, ModelId, MIN_CANDIDATES};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use super::{Define, GroupToScore};

impl Define<'_> {
    /// Groups of `task` that `model` has not scored, of at most `max_size` members
    /// and at least [`gapwise_model::MIN_CANDIDATES`] distinct candidates:
    /// those people finished first, then the others in an order drawn from `seed`;
    /// at most `limit`.
    pub async fn groups_to_score(
        self,
        model: &ModelId,
        task: DefinitionTask,
        max_size: u32,
        limit: usize,
        seed: u64,
    ) -> Result<Vec<GroupToScore>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.target, CASE WHEN EXISTS (SELECT 1 FROM define_servings s JOIN define_picks p ON p.serving_id = s.id AND p.correct = 1 \
                                         WHERE s.target = g.target AND s.task = $2) THEN 0 ELSE 1 END, t.pos \
             FROM define_groups g JOIN wordnet_synsets t ON t.id = g.target WHERE g.size <= $3 \
             AND NOT EXISTS (SELECT 1 FROM define_scores d WHERE d.model_id = $1 AND d.task = $2 AND d.target = g.target) ORDER BY g.target",
        )
        .bind(model)
        .bind(task.code())
        .bind(i64::from(max_size))
        .fetch_all(self.pool())
        .await?;
        let mut played = Vec::new();
        let mut others = Vec::new();
        for r in &rows {
            let group: (String, String) = (r.try_get(0)?, r.try_get(2)?);
            if r.try_get::<i64, _>(1)? == 0 {
                played.push(group)
            } else {
                others.push(group)
            }
        }
        others.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        let mut groups = Vec::new();
        for (target, pos) in played.into_iter().chain(others) {
            if groups.len() == limit {
                break;
            }
            let members = distinct_candidates(self.group_members(&target).await?, &target, task);
            if members.len() >= MIN_CANDIDATES {
                groups.push(GroupToScore { target, pos, members });
            }
        }
        Ok(groups)
    }

    /// Stores `model`'s score of each candidate (synset id, score) of `target`'s group
    /// for `task`. A NaN (a candidate the model cannot score) is stored as -1e300,
    /// below any real score.
    pub async fn save_scores(
        self,
        model: &ModelId,
        task: DefinitionTask,
        target: &str,
        scores: &[(String, f64)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO define_scores (model_id, task, target, candidate, score) VALUES {} \
             ON CONFLICT (model_id, task, target, candidate) DO UPDATE SET score = excluded.score",
            5,
            scores,
            |q, (candidate, score)| {
                q.bind(model.to_owned()).bind(task.code()).bind(target.to_owned()).bind(candidate.clone()).bind(if score.is_nan() {
                    -1e300
                } else {
                    *score
                })
            },
            &|_| {},
        )
        .await?;
        // the group among the scored ones a round walks (`unplayed_scored_targets`)
        sqlx::query(
            "INSERT INTO define_scored (task, target, draw) SELECT $1, g.target, g.draw FROM define_groups g WHERE g.target = $2 \
             ON CONFLICT (task, target) DO NOTHING",
        )
        .bind(task.code())
        .bind(target)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
