//! Next-word guessing, the "Shannon game" (002_07d3f5412720a88c.txt): corpus
//! sentences revealed word by word to players, their guesses, models' whole-word
//! predictions at the same positions, and the word facts the analyses stratify by.
//!
//! The positions of a sentence are its words after the first
//! ([`gapwise_model::positions`]). The game's rules (which sentence to serve, what a
//! guess is worth) are the engine's; this file reads and writes their rows.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use super::StoreError;
use crate::sql::{bind_measure, insert_rows, now_ms, stored_code, MEASURE_COLUMNS};
use gapwise_model::{playable, positions, GuessMode, Timing, Trial};

crate::store::area!(
    /// The next-word game's rows: rounds, guesses, model predictions and word facts.
    Guess,
    guess
);

/// A person's guess, for the analyses (without who made it).
#[derive(Clone, Debug, PartialEq)]
pub struct HumanGuess {
    pub lang: String,
    pub sentence_id: i64,
    pub position: usize,
    pub word: String,
    pub guess: String,
    pub rank: Option<usize>,
}

/// A model's predictions at one position.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelGuess {
    pub model: String,
    pub lang: String,
    pub sentence_id: i64,
    pub position: usize,
    pub word: String,
    pub top: Vec<String>,
    /// log p(word): the sum over its pieces (the paper's); none for a word the model
    /// could not align to pieces of its own (see [`Prediction`]).
    pub word_log_prob: Option<f64>,
    /// log p(word), the word's own (see `gapwise_scorer::guess::WordLogProb`); none
    /// where `word_log_prob` is none, and for a prediction stored before it was kept.
    pub word_log_prob_corrected: Option<f64>,
}

/// A model's prediction at one position of a sentence, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Its words, best first.
    pub top: Vec<String>,
    /// log p(the actual word) as the sum over its pieces and as the word's own (none
    /// where what scored it gives no word-start correction), or why the model gives
    /// it none (a piece it shares with the text beside it).
    pub log_prob: Result<(f64, Option<f64>), String>,
}

/// What the analyses know of a word.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WordFacts {
    pub zipf: Option<f64>,
    pub neighbours: Vec<String>,
}

/// A round as an answer to it needs it: the sentence, and the guesses made so far.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessServing {
    pub mode: GuessMode,
    pub sentence_id: i64,
    pub text: String,
    pub served_at: i64,
    /// The guesses made, in the order of their positions.
    pub guesses: Vec<GuessRow>,
}

/// A guess at one position of a round, to store or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessRow {
    pub position: usize,
    pub guess: String,
    pub word: String,
    pub correct: bool,
    /// The place of the suggestion picked (the easier mode).
    pub rank: Option<usize>,
}

/// A round with the number of positions guessed in it.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessProgress {
    pub serving_id: String,
    pub text: String,
    pub guessed: usize,
}

/// A player's rounds (`$1`) as [`GuessProgress`] reads them.
const ROUNDS: &str = "SELECT v.id, s.text, (SELECT COUNT(*) FROM guess_answers g WHERE g.serving_id = v.id) FROM guess_servings v \
                      JOIN sentences s ON s.id = v.sentence_id WHERE v.annotator_id = $1";

fn progress_of(row: &sqlx::any::AnyRow) -> Result<GuessProgress, StoreError> {
    Ok(GuessProgress { serving_id: row.try_get(0)?, text: row.try_get(1)?, guessed: count(row.try_get(2)?) })
}

/// A guess read from the columns position, guess, word, correct, rank (in this order, from 0).
fn guess_of(row: &sqlx::any::AnyRow) -> Result<GuessRow, StoreError> {
    Ok(GuessRow {
        position: count(row.try_get(0)?),
        guess: row.try_get(1)?,
        word: row.try_get(2)?,
        correct: row.try_get::<i64, _>(3)? == 1,
        rank: row.try_get::<Option<i64>, _>(4)?.map(count),
    })
}

fn count(value: i64) -> usize {
    usize::try_from(value).unwrap_or(0)
}

impl Guess<'_> {
    /// Every round of annotator `id`.
    pub async fn rounds(self, id: &str) -> Result<Vec<GuessProgress>, StoreError> {
        let rows = sqlx::query(ROUNDS).bind(id).fetch_all(self.pool()).await?;
        rows.iter().map(progress_of).collect()
    }

    /// Annotator `id`'s latest `limit` rounds in `lang`, latest first.
    pub async fn latest_rounds(self, id: &str, lang: &str, limit: i64) -> Result<Vec<GuessProgress>, StoreError> {
        let sql = format!("{ROUNDS} AND s.lang = $2 ORDER BY v.served_at DESC, v.id DESC LIMIT $3");
        let rows = sqlx::query(&sql).bind(id).bind(lang).bind(limit).fetch_all(self.pool()).await?;
        rows.iter().map(progress_of).collect()
    }

    /// Up to `limit` sentences of `lang` in random order that annotator `id` has not
    /// had; with `predicted`, only those a model has predicted.
    pub async fn unplayed_sentences(self, id: &str, lang: &str, predicted: bool, limit: i64) -> Result<Vec<(i64, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT s.id, s.text FROM sentences s WHERE s.lang = $1 \
             AND NOT EXISTS (SELECT 1 FROM guess_servings v WHERE v.annotator_id = $2 AND v.sentence_id = s.id) \
             AND (EXISTS (SELECT 1 FROM guess_predictions p WHERE p.sentence_id = s.id) OR $3 = 0) ORDER BY random() LIMIT $4",
        )
        .bind(lang)
        .bind(id)
        .bind(i64::from(predicted))
        .bind(limit)
        .fetch_all(self.pool())
        .await?)
    }

    /// Stores a round of `sentence` in `mode` for annotator `id`; nothing when they
    /// have it already (a second tab serving at the same moment).
    pub async fn insert_serving(self, id: &str, sentence: i64, mode: GuessMode) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO guess_servings (id, annotator_id, sentence_id, mode, served_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (annotator_id, sentence_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(id)
        .bind(sentence)
        .bind(mode.code())
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Round `serving` of annotator `id`, with its guesses; `None` when it is not theirs.
    pub async fn serving(self, id: &str, serving: &str) -> Result<Option<GuessServing>, StoreError> {
        let row = sqlx::query(
            "SELECT v.mode, v.sentence_id, s.text, v.served_at FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id \
             WHERE v.id = $1 AND v.annotator_id = $2",
        )
        .bind(serving)
        .bind(id)
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

    /// Annotator `id`'s latest guess since `since` (ms) in the language and mode of
    /// round `serving`, with its sentence's text.
    pub async fn latest(self, id: &str, serving: &str, since: i64) -> Result<Option<(GuessRow, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT g.position, g.guess, g.word, g.correct, g.rank, s.text FROM guess_answers g \
             JOIN guess_servings v ON v.id = g.serving_id JOIN sentences s ON s.id = v.sentence_id \
             JOIN guess_servings w ON w.id = $3 JOIN sentences t ON t.id = w.sentence_id \
             WHERE v.annotator_id = $1 AND g.created_at >= $2 AND s.lang = t.lang AND v.mode = w.mode \
             ORDER BY g.created_at DESC, g.position DESC LIMIT 1",
        )
        .bind(id)
        .bind(since)
        .bind(serving)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| Ok((guess_of(&r)?, r.try_get(5)?))).transpose()
    }

    /// The easier mode's suggestions at a position: the top words of the first model
    /// (by name) that predicted the sentence with words (an imported model has none).
    pub async fn suggested_words(self, sentence: i64, position: usize) -> Result<Vec<String>, StoreError> {
        let top: Option<String> = sqlx::query_scalar(
            "SELECT top FROM guess_predictions WHERE sentence_id = $1 AND position = $2 AND top <> '' ORDER BY model_id LIMIT 1",
        )
        .bind(sentence)
        .bind(i64::try_from(position).unwrap_or(0))
        .fetch_optional(self.pool())
        .await?;
        Ok(top.map(|t| t.split('|').map(str::to_owned).collect()).unwrap_or_default())
    }

    /// Stores `guess` in round `serving`; false when its position was guessed
    /// already (a second tab's guess came first).
    pub async fn insert(self, serving: &str, guess: &GuessRow, timing: Timing, trial: Trial) -> Result<bool, StoreError> {
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

    /// Every guess people made, without who made them.
    pub async fn human_guesses(self) -> Result<Vec<HumanGuess>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.lang, s.id, g.position, g.word, g.guess, g.rank FROM guess_answers g \
             JOIN guess_servings v ON v.id = g.serving_id JOIN sentences s ON s.id = v.sentence_id ORDER BY v.served_at, g.position",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HumanGuess {
                    lang: r.try_get(0)?,
                    sentence_id: r.try_get(1)?,
                    position: count(r.try_get(2)?),
                    word: r.try_get(3)?,
                    guess: r.try_get(4)?,
                    rank: r.try_get::<Option<i64>, _>(5)?.and_then(|k| usize::try_from(k).ok()),
                })
            })
            .collect()
    }

    /// Every model prediction stored.
    pub async fn model_guesses(self) -> Result<Vec<ModelGuess>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.model_id, s.lang, p.sentence_id, p.position, p.word, p.top, p.word_log_prob, p.word_log_prob_corrected \
             FROM guess_predictions p \
             JOIN sentences s ON s.id = p.sentence_id ORDER BY p.model_id, p.sentence_id, p.position",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ModelGuess {
                    model: r.try_get(0)?,
                    lang: r.try_get(1)?,
                    sentence_id: r.try_get(2)?,
                    position: count(r.try_get(3)?),
                    word: r.try_get(4)?,
                    top: r.try_get::<String, _>(5)?.split('|').filter(|w| !w.is_empty()).map(str::to_owned).collect(),
                    word_log_prob: r.try_get(6)?,
                    word_log_prob_corrected: r.try_get(7)?,
                })
            })
            .collect()
    }

    /// Sentences of `lang` for `model` to predict: those people guessed in first, then
    /// others of playable length in an order drawn from `seed`; at most `limit`.
    pub async fn sentences_to_predict(self, model: &str, lang: &str, limit: usize, seed: u64) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.id, s.text, CASE WHEN EXISTS (SELECT 1 FROM guess_servings v JOIN guess_answers g ON g.serving_id = v.id \
                                                    WHERE v.sentence_id = s.id) THEN 0 ELSE 1 END \
             FROM sentences s WHERE s.lang = $1 \
             AND NOT EXISTS (SELECT 1 FROM guess_predictions p WHERE p.model_id = $2 AND p.sentence_id = s.id) ORDER BY s.id",
        )
        .bind(lang)
        .bind(model)
        .fetch_all(self.pool())
        .await?;
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

    /// Stores the predictions a tool gave at some positions of a sentence (numbered
    /// from 1), and the others as unscored, saying `why`.
    pub async fn save_some_predictions(
        self,
        model: &str,
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
    pub async fn save_predictions(self, model: &str, sentence: i64, predictions: &[Prediction]) -> Result<(), StoreError> {
        let text = self.sentence_text(sentence).await?;
        self.insert_predictions(model, sentence, &text, predictions).await
    }

    async fn sentence_text(self, sentence: i64) -> Result<String, StoreError> {
        Ok(sqlx::query_scalar("SELECT text FROM sentences WHERE id = $1").bind(sentence).fetch_one(self.pool()).await?)
    }

    /// [`Self::save_predictions`] of the sentence whose text is `text`.
    async fn insert_predictions(self, model: &str, sentence: i64, text: &str, predictions: &[Prediction]) -> Result<(), StoreError> {
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
        tx.commit().await?;
        Ok(())
    }

    /// The words of `lang` guessed at or predicted that have no facts yet.
    pub async fn words_without_facts(self, lang: &str) -> Result<Vec<String>, StoreError> {
        let words: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT w FROM (SELECT LOWER(g.word) AS w FROM guess_answers g JOIN guess_servings v ON v.id = g.serving_id \
             JOIN sentences s ON s.id = v.sentence_id WHERE s.lang = $1 \
             UNION SELECT LOWER(p.word) AS w FROM guess_predictions p JOIN sentences s ON s.id = p.sentence_id WHERE s.lang = $1) t \
             WHERE NOT EXISTS (SELECT 1 FROM guess_words f WHERE f.lang = $1 AND f.word = t.w) ORDER BY w",
        )
        .bind(lang)
        .fetch_all(self.pool())
        .await?;
        Ok(words)
    }

    /// Stores what is known of words of `lang` (lower-cased): Zipf frequency and
    /// nearest neighbours, nearest first.
    pub async fn save_word_facts(self, lang: &str, facts: &[(String, WordFacts)]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO guess_words (lang, word, zipf, neighbours) VALUES {} \
             ON CONFLICT (lang, word) DO UPDATE SET zipf = excluded.zipf, neighbours = excluded.neighbours",
            4,
            facts,
            |q, (word, f)| {
                q.bind(lang.to_owned())
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

    /// The facts of every word, by (language, lower-cased word).
    pub async fn word_facts(self) -> Result<std::collections::HashMap<(String, String), WordFacts>, StoreError> {
        let rows = sqlx::query("SELECT lang, word, zipf, neighbours FROM guess_words").fetch_all(self.pool()).await?;
        rows.iter()
            .map(|r| {
                let neighbours: Option<String> = r.try_get(3)?;
                let neighbours = neighbours.map(|n| n.split('|').map(str::to_owned).collect()).unwrap_or_default();
                Ok(((r.try_get(0)?, r.try_get(1)?), WordFacts { zipf: r.try_get(2)?, neighbours }))
            })
            .collect()
    }
}
