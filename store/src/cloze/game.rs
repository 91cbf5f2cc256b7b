//! The rounds players play: what the engine reads to serve a cloze round and writes
//! of its answer.

use sqlx::Row;

use crate::error::StoreError;
use crate::sql::{bind_measure, now_ms, MEASURE_COLUMNS};
use gapwise_model::{cloze_parts, ClozeCard, Language, PlayerId, ServingId, Timing, Trial};

use super::{count, Cloze, ClozeAnswer, ClozeServing};

impl Cloze<'_> {
    /// The latest serving of `language` to player `player` that has no answer yet.
    pub async fn open_serving(self, player: &PlayerId, language: Language) -> Result<Option<ServingId>, StoreError> {
        let id: Option<String> = sqlx::query_scalar(
            "SELECT v.id FROM cloze_servings v JOIN sentences s ON s.id = v.sentence_id \
             WHERE v.annotator_id = $1 AND s.lang = $2 AND NOT EXISTS (SELECT 1 FROM cloze_answers a WHERE a.serving_id = v.id) \
             ORDER BY v.served_at DESC, v.id DESC LIMIT 1",
        )
        .bind(player)
        .bind(language)
        .fetch_optional(self.pool())
        .await?;
        Ok(id.map(ServingId::new))
    }

    /// Up to `limit` sentences of `language` in random order that player `player` has
    /// not had in this game; with `predicted`, only those a model has predicted in
    /// the next-word game (whose words the cloze game shows after an answer).
    pub async fn unplayed_sentences(
        self,
        player: &PlayerId,
        language: Language,
        predicted: bool,
        limit: i64,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        self.guess().unplayed_sentences(player, language, predicted, limit).await
    }

    /// Stores a serving of `sentence` with its word `position` blanked for player
    /// `player`; nothing when they have that sentence already (a second tab serving
    /// at the same moment).
    pub async fn insert_serving(self, player: &PlayerId, sentence: i64, position: usize) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO cloze_servings (id, annotator_id, sentence_id, position, served_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (annotator_id, sentence_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(player)
        .bind(sentence)
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The card of serving `serving` of player `player`: its sentence around the
    /// blank; `None` when it is not theirs.
    pub async fn card(self, player: &PlayerId, serving: &ServingId) -> Result<Option<ClozeCard>, StoreError> {
        let Some(round) = self.serving(player, serving).await? else { return Ok(None) };
        let (before, _, after) = cloze_parts(&round.text, round.position).ok_or_else(|| {
            StoreError::Corrupt(format!("cloze serving {serving} blanks word {} its sentence does not have", round.position))
        })?;
        Ok(Some(ClozeCard { serving_id: serving.clone(), before, after }))
    }

    /// Serving `serving` of player `player`, with its answer so far; `None` when it
    /// is not theirs.
    pub async fn serving(self, player: &PlayerId, serving: &ServingId) -> Result<Option<ClozeServing>, StoreError> {
        let row = sqlx::query(
            "SELECT v.sentence_id, s.text, v.position, v.served_at, a.typed, a.correct FROM cloze_servings v \
             JOIN sentences s ON s.id = v.sentence_id LEFT JOIN cloze_answers a ON a.serving_id = v.id \
             WHERE v.id = $1 AND v.annotator_id = $2",
        )
        .bind(serving)
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let typed: Option<String> = row.try_get(4)?;
        let correct: Option<i64> = row.try_get(5)?;
        Ok(Some(ClozeServing {
            sentence_id: row.try_get(0)?,
            text: row.try_get(1)?,
            position: count(row.try_get(2)?),
            served_at: row.try_get(3)?,
            answer: typed.map(|typed| ClozeAnswer { typed, correct: correct == Some(1) }),
        }))
    }

    /// A model's top words at word `position` of `sentence`, best first: the
    /// next-word game's predictions there (see [`crate::Guess::suggested_words`]);
    /// empty when no model predicted the sentence.
    pub async fn model_words(self, sentence: i64, position: usize) -> Result<Vec<String>, StoreError> {
        self.guess().suggested_words(sentence, position).await
    }

    /// Stores `answer` to serving `serving`; false when the serving has one already
    /// (a second tab's answer came first).
    pub async fn insert_answer(self, serving: &ServingId, answer: &ClozeAnswer, timing: Timing, trial: Trial) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT INTO cloze_answers (serving_id, typed, correct, created_at, {MEASURE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (serving_id) DO NOTHING"
        );
        let query = sqlx::query(&sql).bind(serving).bind(&answer.typed).bind(i64::from(answer.correct)).bind(now_ms());
        let done = bind_measure(query, timing, trial).execute(self.pool()).await?;
        Ok(done.rows_affected() == 1)
    }
}
