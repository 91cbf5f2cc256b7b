//! The rounds players play: what the engine reads to serve a round and writes of its answers.

use crate::error::StoreError;
use crate::sql::{bind_measure, now_ms, stored_code, MEASURE_COLUMNS};
use gapwise_model::{DefinitionCard, DefinitionPick, DefinitionTask, GroupMember, PlayerId, ServingId, Solution, Timing, Trial};
use sqlx::Row;
use std::collections::HashMap;

use super::{Define, DefineServing};

impl Define<'_> {
    /// The members of `target`'s group: every hyponym of one of its hypernyms.
    pub async fn group_members(self, target: &str) -> Result<Vec<GroupMember>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT s.id, s.word, s.definition FROM wordnet_hypernyms up \
             JOIN wordnet_hypernyms down ON down.parent = up.parent JOIN wordnet_synsets s ON s.id = down.child \
             WHERE up.child = $1 ORDER BY s.id",
        )
        .bind(target)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(GroupMember { id: r.try_get(0)?, word: r.try_get(1)?, definition: r.try_get(2)? })).collect()
    }

    /// The oldest round of `task` that player `player` has not solved.
    pub async fn open_serving(self, player: &PlayerId, task: DefinitionTask) -> Result<Option<ServingId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT s.id FROM define_servings s WHERE s.annotator_id = $1 AND s.task = $2 \
             AND NOT EXISTS (SELECT 1 FROM define_picks p WHERE p.serving_id = s.id AND p.correct = 1) ORDER BY s.served_at, s.id LIMIT 1",
        )
        .bind(player)
        .bind(task.code())
        .fetch_optional(self.pool())
        .await?)
    }

    /// Up to `limit` targets of groups of at most `cap` members that player `player`
    /// has not met (in either task: a round must not ask what another's solution
    /// showed) and a model has scored in `task` (the comparison with models needs
    /// people on the same groups), in the groups' shuffled order from `start` (see
    /// [`Define::unplayed_targets`]): a few rows read by the index however many
    /// groups are scored.
    pub async fn unplayed_scored_targets(
        self,
        player: &PlayerId,
        task: DefinitionTask,
        cap: u32,
        limit: i64,
        start: f64,
    ) -> Result<Vec<String>, StoreError> {
        self.walk_groups(player, Some(task), cap, limit, start).await
    }

    /// Up to `limit` targets of groups of at most `cap` members that player `player`
    /// has not met in either task, in the groups' shuffled order (`draw`) from `start`
    /// (in [0, 1)) on, going round to the start: a few rows read by the index however
    /// many groups there are.
    pub async fn unplayed_targets(self, player: &PlayerId, cap: u32, limit: i64, start: f64) -> Result<Vec<String>, StoreError> {
        self.walk_groups(player, None, cap, limit, start).await
    }

    /// The walk of both: over every group, or over those scored in `scored` (by
    /// `define_scored`, which holds each scored group's `draw`).
    async fn walk_groups(
        self,
        player: &PlayerId,
        scored: Option<DefinitionTask>,
        cap: u32,
        limit: i64,
        start: f64,
    ) -> Result<Vec<String>, StoreError> {
        let (from_table, draw) = match scored {
            Some(_) => ("define_scored d JOIN define_groups g ON g.target = d.target AND d.task = $6", "d.draw"),
            None => ("define_groups g", "g.draw"),
        };
        let sql = format!(
            "SELECT g.target FROM {from_table} WHERE {draw} >= $3 AND {draw} < $4 AND g.size <= $2 \
             AND NOT EXISTS (SELECT 1 FROM define_servings s WHERE s.annotator_id = $1 AND s.target = g.target) \
             ORDER BY {draw} LIMIT $5"
        );
        let mut targets = Vec::new();
        for (from, to) in [(start, 1.0), (0.0, start)] {
            let wanted = limit - i64::try_from(targets.len()).unwrap_or(limit);
            if wanted <= 0 {
                break;
            }
            let query = sqlx::query_scalar(&sql).bind(player).bind(i64::from(cap)).bind(from).bind(to).bind(wanted);
            let more: Vec<String> = match scored {
                Some(task) => query.bind(task.code()).fetch_all(self.pool()).await?,
                None => query.fetch_all(self.pool()).await?,
            };
            targets.extend(more);
        }
        Ok(targets)
    }

    /// Stores a round of `task` for player `player`: `target`'s group with its
    /// `candidates` (synset ids) in the order shown; nothing when they have it
    /// already (a second tab drawing the same group at the same moment).
    pub async fn insert_serving(
        self,
        player: &PlayerId,
        task: DefinitionTask,
        target: &str,
        candidates: &[String],
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO define_servings (id, annotator_id, target, task, candidates, served_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (annotator_id, target, task) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(player)
        .bind(target)
        .bind(task.code())
        .bind(candidates.join("|"))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The card of round `serving` of player `player`, with their latest pick since
    /// `since` (ms) if it found its round.
    pub async fn card(self, player: &PlayerId, serving: &ServingId, since: i64) -> Result<DefinitionCard, StoreError> {
        let row = sqlx::query("SELECT s.task, s.candidates, t.word, t.definition FROM define_servings s JOIN wordnet_synsets t ON t.id = s.target WHERE s.id = $1")
            .bind(serving)
            .fetch_one(self.pool())
            .await?;
        let task = stored_code(&row, 0, "definition task", DefinitionTask::parse)?;
        let candidates: String = row.try_get(1)?;
        let synsets = self.synset_texts(candidates.split('|')).await?;
        let (prompt, options) = match task {
            DefinitionTask::W2d => {
                (row.try_get(2)?, candidates.split('|').map(|c| synsets.get(c).map(|s| s.1.clone()).unwrap_or_default()).collect())
            }
            DefinitionTask::D2w => {
                (row.try_get(3)?, candidates.split('|').map(|c| synsets.get(c).map(|s| s.0.clone()).unwrap_or_default()).collect())
            }
        };
        let picks = sqlx::query("SELECT chosen, correct FROM define_picks WHERE serving_id = $1 ORDER BY attempt")
            .bind(serving)
            .fetch_all(self.pool())
            .await?;
        let position: HashMap<&str, usize> = candidates.split('|').enumerate().map(|(i, c)| (c, i)).collect();
        let mut picked = Vec::with_capacity(picks.len());
        for p in &picks {
            let chosen: String = p.try_get(0)?;
            picked.push((position.get(chosen.as_str()).copied().unwrap_or(0), p.try_get::<i64, _>(1)? == 1));
        }
        let finished = sqlx::query_scalar(
            "SELECT COUNT(*) FROM define_servings s WHERE s.annotator_id = $1 AND s.task = $2 \
             AND EXISTS (SELECT 1 FROM define_picks p WHERE p.serving_id = s.id AND p.correct = 1)",
        )
        .bind(player)
        .bind(task.code())
        .fetch_one(self.pool())
        .await?;
        let last = self.last_round_found(player, task, since).await?;
        Ok(DefinitionCard { serving_id: serving.to_owned(), task, prompt, options, picked, finished, last })
    }

    /// Player `id`'s latest pick in `task` since `since` (ms), if it found its round.
    async fn last_round_found(self, player: &PlayerId, task: DefinitionTask, since: i64) -> Result<Option<DefinitionPick>, StoreError> {
        let row = sqlx::query(
            "SELECT p.attempt, s.target, p.correct FROM define_picks p JOIN define_servings s ON s.id = p.serving_id \
             WHERE s.annotator_id = $1 AND s.task = $2 AND p.created_at >= $3 ORDER BY p.created_at DESC, p.attempt DESC LIMIT 1",
        )
        .bind(player)
        .bind(task.code())
        .bind(since)
        .fetch_optional(self.pool())
        .await?;
        // the player's latest pick, when it found a round: a wrong pick since says nothing
        let Some(row) = row.filter(|r| r.try_get::<i64, _>(2).is_ok_and(|correct| correct == 1)) else { return Ok(None) };
        let solution = self.solution(&row.try_get::<String, _>(1)?).await?;
        Ok(Some(DefinitionPick { correct: true, attempts: row.try_get(0)?, solution: Some(solution) }))
    }

    /// The word and definition of synset `target`.
    async fn solution(self, target: &str) -> Result<Solution, StoreError> {
        let (word, definition) =
            sqlx::query_as("SELECT word, definition FROM wordnet_synsets WHERE id = $1").bind(target).fetch_one(self.pool()).await?;
        Ok(Solution { word, definition })
    }

    /// (word, definition) of each synset named.
    async fn synset_texts<'a>(self, ids: impl Iterator<Item = &'a str>) -> Result<HashMap<String, (String, String)>, StoreError> {
        let ids: Vec<&str> = ids.collect();
        let sql = format!(
            "SELECT id, word, definition FROM wordnet_synsets WHERE id IN ({})",
            (1..=ids.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in &ids {
            query = query.bind(*id);
        }
        let rows = query.fetch_all(self.pool()).await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, (r.try_get(1)?, r.try_get(2)?)))).collect()
    }

    /// Round `serving` of player `player` with its picks; `None` when it is not theirs.
    pub async fn serving(self, player: &PlayerId, serving: &ServingId) -> Result<Option<DefineServing>, StoreError> {
        let row = sqlx::query(
            "SELECT s.target, s.candidates, s.served_at, t.word, t.definition FROM define_servings s \
             JOIN wordnet_synsets t ON t.id = s.target WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(serving)
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let picks = sqlx::query("SELECT chosen, correct FROM define_picks WHERE serving_id = $1 ORDER BY attempt")
            .bind(serving)
            .fetch_all(self.pool())
            .await?;
        let picks = picks.iter().map(|p| Ok((p.try_get(0)?, p.try_get::<i64, _>(1)? == 1))).collect::<Result<_, StoreError>>()?;
        Ok(Some(DefineServing {
            target: row.try_get(0)?,
            candidates: row.try_get::<String, _>(1)?.split('|').map(str::to_owned).collect(),
            served_at: row.try_get(2)?,
            solution: Solution { word: row.try_get(3)?, definition: row.try_get(4)? },
            picks,
        }))
    }

    /// Stores pick number `attempt` of round `serving`; false when a second tab's
    /// pick took that number first.
    pub async fn insert_pick(
        self,
        serving: &ServingId,
        (attempt, chosen, correct): (i64, &str, bool),
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT INTO define_picks (serving_id, attempt, chosen, correct, created_at, {MEASURE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (serving_id, attempt) DO NOTHING"
        );
        let query = sqlx::query(&sql).bind(serving).bind(attempt).bind(chosen).bind(i64::from(correct)).bind(now_ms());
        let done = bind_measure(query, timing, trial).execute(self.pool()).await?;
        Ok(done.rows_affected() == 1)
    }
}
