//! The queues of work for models, and their results written back.

use crate::error::StoreError;
use crate::sql::insert_rows;
use gapwise_model::words::folded;
use gapwise_model::{playable, positions, Language, ModelId};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::{Guess, Prediction, WordFacts, SHOWN_WHOLE};

/// The sentences whose predictions by model `$2` are to be made again, as a subquery.
const REMAKE: &str = "SELECT r.sentence_id FROM predictions_to_remake r WHERE r.model_id = $2";

impl Guess<'_> {
    /// Sentences of `lang` for `model` to predict: those people guessed in and those
    /// whose predictions by `model` are to be made again (`predictions_to_remake`)
    /// first, then others of playable length in an order drawn from `seed`; at most
    /// `limit`. With `for_games`, only sentences the next-word and cloze games may
    /// serve and that nobody has been served yet (none of an item's:
    /// [`Guess::unplayed_sentences`]), and those to make again.
    pub async fn sentences_to_predict(
        self,
        model: &ModelId,
        language: Language,
        limit: usize,
        seed: u64,
        for_games: bool,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let sql = format!(
            "SELECT s.id, s.text, CASE WHEN s.id IN ({REMAKE}) OR EXISTS (SELECT 1 FROM guess_servings v \
                 JOIN guess_answers g ON g.serving_id = v.id WHERE v.sentence_id = s.id) THEN 0 ELSE 1 END \
             FROM sentences s WHERE s.lang = $1 \
             AND NOT EXISTS (SELECT 1 FROM guess_predictions p WHERE p.model_id = $2 AND p.sentence_id = s.id) \
             AND ($3 = 0 OR s.id IN ({REMAKE}) OR (NOT EXISTS (SELECT 1 FROM item_contexts c WHERE c.sentence_id = s.id) \
                                                   AND s.id NOT IN ({SHOWN_WHOLE}))) ORDER BY s.id"
        );
        let rows = sqlx::query(&sql).bind(language).bind(model).bind(i64::from(for_games)).fetch_all(self.pool()).await?;
        let (mut played, mut others) = (Vec::new(), Vec::new());
        for r in &rows {
            let sentence: (i64, String) = (r.try_get(0)?, r.try_get(1)?);
            if !playable(&sentence.1) {
                continue;
            }
            if r.try_get::<i64, _>(2)? == 0 {
                played.push(sentence)
            } else {
                others.push(sentence)
            }
        }
        others.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        Ok(played.into_iter().chain(others).take(limit).collect())
    }

    /// How many sentences of `language` wait for `model` to predict them again
    /// ([`crate::Repaired`]).
    pub async fn remakes_pending(self, model: &ModelId, language: Language) -> Result<i64, StoreError> {
        let sql = format!(
            "SELECT COUNT(*) FROM sentences s WHERE s.lang = $1 AND s.id IN ({REMAKE}) \
                           AND NOT EXISTS (SELECT 1 FROM guess_predictions p WHERE p.model_id = $2 AND p.sentence_id = s.id)"
        );
        Ok(sqlx::query_scalar(&sql).bind(language).bind(model).fetch_one(self.pool()).await?)
    }

    /// How many sentences of `language` some model predicted for the games (none in
    /// an item), and how many of those nobody has been served yet by the next-word
    /// or cloze game: how far the games' supply is ahead of their players.
    pub async fn sentences_ahead(self, language: Language) -> Result<(i64, i64), StoreError> {
        let sql = format!(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN t.id NOT IN ({SHOWN_WHOLE}) THEN 1 ELSE 0 END), 0) \
             FROM (SELECT DISTINCT s.id FROM guess_predictions p JOIN sentences s ON s.id = p.sentence_id \
                   WHERE s.lang = $1 AND NOT EXISTS (SELECT 1 FROM item_contexts c WHERE c.sentence_id = s.id)) t"
        );
        Ok(sqlx::query_as(&sql).bind(language).fetch_one(self.pool()).await?)
    }

    /// Stores the predictions a tool gave at some positions of a sentence (numbered
    /// from 1), and the others as unscored, saying `why`.
    pub async fn save_some_predictions(
        self,
        model: &ModelId,
        sentence: i64,
        mut given: BTreeMap<usize, Prediction>,
        why: &str,
    ) -> Result<(), StoreError> {
        let text = self.sentence_text(sentence).await?;
        let count = positions(&text).len();
        if let Some(beyond) = given.keys().find(|&&p| p == 0 || p > count) {
            return Err(StoreError::Invalid(format!("sentence {sentence} has {count} positions, not one at {beyond}")));
        }
        let all: Vec<Prediction> = (1..=count)
            .map(|p| given.remove(&p).unwrap_or_else(|| Prediction { top: Vec::new(), log_prob: Err(why.to_owned()) }))
            .collect();
        self.insert_predictions(model, sentence, &text, &all).await
    }

    /// Stores `model`'s prediction at each position of a sentence.
    pub async fn save_predictions(self, model: &ModelId, sentence: i64, predictions: &[Prediction]) -> Result<(), StoreError> {
        let text = self.sentence_text(sentence).await?;
        self.insert_predictions(model, sentence, &text, predictions).await
    }

    async fn sentence_text(self, sentence: i64) -> Result<String, StoreError> {
        Ok(sqlx::query_scalar("SELECT text FROM sentences WHERE id = $1").bind(sentence).fetch_one(self.pool()).await?)
    }

    /// [`Self::save_predictions`] of the sentence whose text is `text`.
    async fn insert_predictions(self, model: &ModelId, sentence: i64, text: &str, predictions: &[Prediction]) -> Result<(), StoreError> {
        let all = positions(text);
        if all.len() != predictions.len() {
            return Err(StoreError::Invalid(format!("sentence {sentence} has {} positions, not {}", all.len(), predictions.len())));
        }
        let rows: Vec<(i64, String, &Prediction)> = all
            .into_iter()
            .zip(predictions)
            .enumerate()
            .map(|(i, ((_, word), p))| (i64::try_from(i + 1).unwrap_or(i64::MAX), word, p))
            .collect();
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO guess_predictions (model_id, sentence_id, position, word, top, word_log_prob, word_log_prob_corrected, \
             word_unscored) VALUES {} ON CONFLICT (model_id, sentence_id, position) DO NOTHING",
            8,
            &rows,
            |q, (position, word, p)| {
                let values = p.log_prob.as_ref().ok();
                q.bind(model.to_owned())
                    .bind(sentence)
                    .bind(*position)
                    .bind(word.clone())
                    .bind(p.top.join("|"))
                    .bind(values.map(|v| v.0))
                    .bind(values.and_then(|v| v.1))
                    .bind(p.log_prob.as_ref().err().cloned())
            },
            &|_| {},
        )
        .await?;
        sqlx::query("DELETE FROM predictions_to_remake WHERE model_id = $1 AND sentence_id = $2")
            .bind(model)
            .bind(sentence)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The words of `lang` guessed at or predicted that have no facts yet, as facts
    /// are keyed: [`folded`] (in Rust: SQLite's `LOWER` folds ASCII only, and would
    /// key "Москва" apart from "москва").
    pub async fn words_without_facts(self, language: Language) -> Result<Vec<String>, StoreError> {
        let words: Vec<String> = sqlx::query_scalar(
            "SELECT g.word FROM guess_answers g JOIN guess_servings v ON v.id = g.serving_id \
             JOIN sentences s ON s.id = v.sentence_id WHERE s.lang = $1 \
             UNION SELECT p.word FROM guess_predictions p JOIN sentences s ON s.id = p.sentence_id WHERE s.lang = $1",
        )
        .bind(language)
        .fetch_all(self.pool())
        .await?;
        let known: HashSet<String> = sqlx::query_scalar("SELECT word FROM guess_words WHERE lang = $1")
            .bind(language)
            .fetch_all(self.pool())
            .await?
            .into_iter()
            .collect();
        let new: BTreeSet<String> = words.iter().map(|w| folded(w)).filter(|w| !known.contains(w)).collect();
        Ok(new.into_iter().collect())
    }

    /// Stores what is known of words of `lang` (keyed [`folded`]): Zipf frequency and
    /// nearest neighbours, nearest first.
    pub async fn save_word_facts(self, language: Language, facts: &[(String, WordFacts)]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO guess_words (lang, word, zipf, neighbours) VALUES {} \
             ON CONFLICT (lang, word) DO UPDATE SET zipf = excluded.zipf, neighbours = excluded.neighbours",
            4,
            facts,
            |q, (word, f)| {
                q.bind(language.to_owned())
                    .bind(word.to_lowercase())
                    .bind(f.zipf)
                    .bind((!f.neighbours.is_empty()).then(|| f.neighbours.join("|")))
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
