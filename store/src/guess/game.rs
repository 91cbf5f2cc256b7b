//! The rounds players play: what the engine reads to serve a round and writes of its answers.

use crate::error::StoreError;
use crate::sql::{bind_measure, now_ms, stored_code, MEASURE_COLUMNS};
use gapwise_model::{suggestable, GuessMode, Language, PlayerId, ServingId, Timing, Trial};
use sqlx::Row;

use super::{guess_of, progress_of, Guess, GuessProgress, GuessRow, GuessServing, ROUNDS};

impl Guess<'_> {
    /// Every round of player `player`.
    pub async fn rounds(self, player: &PlayerId) -> Result<Vec<GuessProgress>, StoreError> {
        let rows = sqlx::query(ROUNDS).bind(player).fetch_all(self.pool()).await?;
        rows.iter().map(progress_of).collect()
    }

    /// Player `id`'s latest `limit` rounds in `lang`, latest first.
    pub async fn latest_rounds(self, player: &PlayerId, language: Language, limit: i64) -> Result<Vec<GuessProgress>, StoreError> {
        let sql = format!("{ROUNDS} AND s.lang = $2 ORDER BY v.served_at DESC, v.id DESC LIMIT $3");
        let rows = sqlx::query(&sql).bind(player).bind(language).bind(limit).fetch_all(self.pool()).await?;
        rows.iter().map(progress_of).collect()
    }

    /// Up to `limit` sentences of `lang` in random order that player `player` has not
    /// had; with `predicted`, only those a model has predicted. The next-word game
    /// and the cloze game share it: a sentence one of them showed a player (the cloze
    /// game shows it whole after the answer) is not served to them by the other, and
    /// the sentences of items (the main game's blanks and the ratings) are left to
    /// the items.
    pub async fn unplayed_sentences(
        self,
        player: &PlayerId,
        language: Language,
        predicted: bool,
        limit: i64,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT s.id, s.text FROM sentences s WHERE s.lang = $1 \
             AND NOT EXISTS (SELECT 1 FROM guess_servings v WHERE v.annotator_id = $2 AND v.sentence_id = s.id) \
             AND NOT EXISTS (SELECT 1 FROM cloze_servings v WHERE v.annotator_id = $2 AND v.sentence_id = s.id) \
             AND NOT EXISTS (SELECT 1 FROM item_contexts c WHERE c.sentence_id = s.id) \
             AND (EXISTS (SELECT 1 FROM guess_predictions p WHERE p.sentence_id = s.id) OR $3 = 0) ORDER BY random() LIMIT $4",
        )
        .bind(language)
        .bind(player)
        .bind(i64::from(predicted))
        .bind(limit)
        .fetch_all(self.pool())
        .await?)
    }

    /// Stores a round of `sentence` in `mode` for player `player`; nothing when they
    /// have it already (a second tab serving at the same moment).
    pub async fn insert_serving(self, player: &PlayerId, sentence: i64, mode: GuessMode) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO guess_servings (id, annotator_id, sentence_id, mode, served_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (annotator_id, sentence_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(player)
        .bind(sentence)
        .bind(mode.code())
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Forgets round `serving` of player `player` while it has no guess: a sentence
    /// opened in one mode and left before its first word goes back to the pool.
    pub async fn forget_unguessed(self, player: &PlayerId, serving: &ServingId) -> Result<(), StoreError> {
        sqlx::query(
            "DELETE FROM guess_servings WHERE id = $1 AND annotator_id = $2 \
             AND NOT EXISTS (SELECT 1 FROM guess_answers g WHERE g.serving_id = guess_servings.id)",
        )
        .bind(serving)
        .bind(player)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Round `serving` of player `player`, with its guesses; `None` when it is not theirs.
    pub async fn serving(self, player: &PlayerId, serving: &ServingId) -> Result<Option<GuessServing>, StoreError> {
        let row = sqlx::query(
            "SELECT v.mode, v.sentence_id, s.text, v.served_at FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id \
             WHERE v.id = $1 AND v.annotator_id = $2",
        )
        .bind(serving)
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let guesses = sqlx::query("SELECT position, guess, word, correct, rank FROM guess_answers WHERE serving_id = $1 ORDER BY position")
            .bind(serving)
            .fetch_all(self.pool())
            .await?;
        let guesses = guesses.iter().map(guess_of).collect::<Result<_, StoreError>>()?;
        Ok(Some(GuessServing {
            mode: stored_code(&row, 0, "guessing mode", GuessMode::parse)?,
            sentence_id: row.try_get(1)?,
            text: row.try_get(2)?,
            served_at: row.try_get(3)?,
            guesses,
        }))
    }

    /// Player `id`'s latest guess since `since` (ms) in the language and mode of
    /// round `serving`, with its sentence's text.
    pub async fn latest(self, player: &PlayerId, serving: &ServingId, since: i64) -> Result<Option<(GuessRow, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT g.position, g.guess, g.word, g.correct, g.rank, s.text FROM guess_answers g \
             JOIN guess_servings v ON v.id = g.serving_id JOIN sentences s ON s.id = v.sentence_id \
             JOIN guess_servings w ON w.id = $3 JOIN sentences t ON t.id = w.sentence_id \
             WHERE v.annotator_id = $1 AND g.created_at >= $2 AND s.lang = t.lang AND v.mode = w.mode \
             ORDER BY g.created_at DESC, g.position DESC LIMIT 1",
        )
        .bind(player)
        .bind(since)
        .bind(serving)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| Ok((guess_of(&r)?, r.try_get(5)?))).transpose()
    }

    /// The easier mode's suggestions at a position: the top words of the first model
    /// (by name) that predicted the sentence with words (an imported model has none),
    /// those that are words of the sentence's language: [`suggestable`], and found
    /// standing alone in its corpus (a model that does not know the language from
    /// the text so far, after a first "La", guesses words of others; "aujourd" is
    /// found only before "'hui").
    pub async fn suggested_words(self, sentence: i64, position: usize) -> Result<Vec<String>, StoreError> {
        let row: Option<(String, Language)> = sqlx::query_as(
            "SELECT p.top, s.lang FROM guess_predictions p JOIN sentences s ON s.id = p.sentence_id \
             WHERE p.sentence_id = $1 AND p.position = $2 AND p.top <> '' ORDER BY p.model_id LIMIT 1",
        )
        .bind(sentence)
        .bind(i64::try_from(position).unwrap_or(0))
        .fetch_optional(self.pool())
        .await?;
        let Some((top, language)) = row else { return Ok(Vec::new()) };
        let mut kept = Vec::new();
        for word in top.split('|').filter(|w| suggestable(language, w)) {
            if self.material().stands_alone_in_corpus(language, word).await? {
                kept.push(word.to_owned());
            }
        }
        Ok(kept)
    }

    /// Stores `guess` in round `serving`; false when its position was guessed
    /// already (a second tab's guess came first).
    pub async fn insert(self, serving: &ServingId, guess: &GuessRow, timing: Timing, trial: Trial) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT INTO guess_answers (serving_id, position, guess, word, correct, rank, created_at, {MEASURE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (serving_id, position) DO NOTHING"
        );
        let query = sqlx::query(&sql)
            .bind(serving)
            .bind(i64::try_from(guess.position).unwrap_or(i64::MAX))
            .bind(&guess.guess)
            .bind(&guess.word)
            .bind(i64::from(guess.correct))
            .bind(guess.rank.and_then(|r| i64::try_from(r).ok()))
            .bind(now_ms());
        let done = bind_measure(query, timing, trial).execute(self.pool()).await?;
        Ok(done.rows_affected() == 1)
    }
}
