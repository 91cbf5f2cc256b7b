//! Next-word guessing, the "Shannon game" (002_07d3f5412720a88c.txt): corpus
//! sentences revealed word by word to players, their guesses, models' whole-word
//! predictions at the same positions, and the word facts the analyses stratify by.
//!
//! The positions of a sentence are its words after the first ([`positions`]); what
//! is shown before position i is the sentence's text up to that word, punctuation
//! included, as models get it too. Guesses match the word case-insensitively.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use super::round::open_or_serve;
use super::{insert_rows, now_ms, stored_code, Refusal, RefusalKey, Store, StoreError};
use gapwise_model::words::{normalize, word_spans};
use gapwise_model::{GuessCard, GuessMode, GuessResult, Timing, GUESS_WORDS, MAX_GUESS_CHARS, RECENT_OUTCOME_MS};

/// Sentences looked at per draw when serving a new one.
const DRAW: i64 = 50;

/// (text before the word, the word) for every word of `text` after the first.
pub fn positions(text: &str) -> Vec<(String, String)> {
    let spans = word_spans(text);
    spans.iter().skip(1).map(|&(start, end)| (text[..start].trim_end().to_owned(), text[start..end].to_owned())).collect()
}

fn playable(text: &str) -> bool {
    (GUESS_WORDS.0..=GUESS_WORDS.1).contains(&word_spans(text).len())
}

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
    /// log p(word): the sum over its pieces (the paper's).
    pub word_log_prob: f64,
    /// log p(word), the word's own (see `gapwise_scorer::guess::WordLogProb`); none
    /// for a prediction stored before it was kept.
    pub word_log_prob_corrected: Option<f64>,
}

/// What the analyses know of a word.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WordFacts {
    pub zipf: Option<f64>,
    pub neighbours: Vec<String>,
}

impl Store {
    /// The round in progress for annotator `id` in `lang`, else a new sentence (in
    /// `mode`; the easier mode only from sentences a model has predicted); `None`
    /// when no sentence is left for them.
    pub async fn guess_round(&self, id: &str, lang: &str, mode: GuessMode) -> Result<Option<GuessCard>, StoreError> {
        let serving = open_or_serve(|| self.open_serving(id, lang), self.serve_sentence(id, lang, mode)).await?;
        let Some(serving) = serving else { return Ok(None) };
        self.guess_card(id, &serving).await.map(Some)
    }

    /// Serves annotator `id` a fresh sentence of `lang` in `mode`; false when none is left.
    async fn serve_sentence(&self, id: &str, lang: &str, mode: GuessMode) -> Result<bool, StoreError> {
        let Some(sentence) = self.fresh_sentence(id, lang, mode).await? else { return Ok(false) };
        sqlx::query(
            "INSERT INTO guess_servings (id, annotator_id, sentence_id, mode, served_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (annotator_id, sentence_id) DO NOTHING",
        )
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(id)
        .bind(sentence)
        .bind(mode.code())
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(true)
    }

    /// The latest serving of `lang` that annotator `id` has not guessed to the end.
    async fn open_serving(&self, id: &str, lang: &str) -> Result<Option<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT v.id, s.text, (SELECT COUNT(*) FROM guess_answers g WHERE g.serving_id = v.id) FROM guess_servings v \
             JOIN sentences s ON s.id = v.sentence_id WHERE v.annotator_id = $1 AND s.lang = $2 ORDER BY v.served_at DESC LIMIT 3",
        )
        .bind(id)
        .bind(lang)
        .fetch_all(self.pool())
        .await?;
        for r in &rows {
            let guessed = usize::try_from(r.try_get::<i64, _>(2)?).unwrap_or(0);
            if guessed < positions(&r.try_get::<String, _>(1)?).len() {
                return Ok(Some(r.try_get(0)?));
            }
        }
        Ok(None)
    }

    /// A sentence of `lang` of playable length that annotator `id` has not had:
    /// one a model has predicted when there is (always, in the easier mode).
    async fn fresh_sentence(&self, id: &str, lang: &str, mode: GuessMode) -> Result<Option<i64>, StoreError> {
        for predicted in [true, false] {
            if !predicted && mode == GuessMode::Choose {
                break;
            }
            let rows = sqlx::query(
                "SELECT s.id, s.text FROM sentences s WHERE s.lang = $1 \
                 AND NOT EXISTS (SELECT 1 FROM guess_servings v WHERE v.annotator_id = $2 AND v.sentence_id = s.id) \
                 AND (EXISTS (SELECT 1 FROM guess_predictions p WHERE p.sentence_id = s.id) OR $3 = 0) ORDER BY random() LIMIT $4",
            )
            .bind(lang)
            .bind(id)
            .bind(i64::from(predicted))
            .bind(DRAW)
            .fetch_all(self.pool())
            .await?;
            for r in &rows {
                if playable(&r.try_get::<String, _>(1)?) {
                    return Ok(Some(r.try_get(0)?));
                }
            }
        }
        Ok(None)
    }

    async fn guess_card(&self, id: &str, serving: &str) -> Result<GuessCard, StoreError> {
        let row = sqlx::query(
            "SELECT v.mode, v.sentence_id, s.text, (SELECT COUNT(*) FROM guess_answers g WHERE g.serving_id = v.id) \
             FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id WHERE v.id = $1",
        )
        .bind(serving)
        .fetch_one(self.pool())
        .await?;
        let mode = stored_code(&row, 0, "guessing mode", GuessMode::parse)?;
        let sentence: i64 = row.try_get(1)?;
        let all = positions(&row.try_get::<String, _>(2)?);
        let position = usize::try_from(row.try_get::<i64, _>(3)?).unwrap_or(0) + 1;
        let revealed = all.get(position - 1).map(|(before, _)| before.clone()).unwrap_or_default();
        let suggestions = match mode {
            GuessMode::Type => Vec::new(),
            GuessMode::Choose => self.suggestions(sentence, position).await?,
        };
        let finished = self.finished_sentences(id).await?;
        let last = self.last_guess(id, serving).await?;
        Ok(GuessCard { serving_id: serving.to_owned(), mode, revealed, position, positions: all.len(), suggestions, finished, last })
    }

    /// Annotator `id`'s last guess in the language and mode of round `serving`, if it was just made.
    async fn last_guess(&self, id: &str, serving: &str) -> Result<Option<GuessResult>, StoreError> {
        let row = sqlx::query(
            "SELECT g.guess, g.word, g.correct, g.position, s.text FROM guess_answers g \
             JOIN guess_servings v ON v.id = g.serving_id JOIN sentences s ON s.id = v.sentence_id \
             JOIN guess_servings w ON w.id = $3 JOIN sentences t ON t.id = w.sentence_id \
             WHERE v.annotator_id = $1 AND g.created_at >= $2 AND s.lang = t.lang AND v.mode = w.mode \
             ORDER BY g.created_at DESC, g.position DESC LIMIT 1",
        )
        .bind(id)
        .bind(now_ms() - RECENT_OUTCOME_MS)
        .bind(serving)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let position = usize::try_from(r.try_get::<i64, _>(3)?).unwrap_or(0);
            Ok(GuessResult {
                guess: r.try_get(0)?,
                word: r.try_get(1)?,
                correct: r.try_get::<i64, _>(2)? == 1,
                sentence_done: position == positions(&r.try_get::<String, _>(4)?).len(),
            })
        })
        .transpose()
    }

    /// The easier mode's suggestions at a position: the top words of the first model
    /// (by name) that predicted the sentence.
    async fn suggestions(&self, sentence: i64, position: usize) -> Result<Vec<String>, StoreError> {
        let top: Option<String> =
            sqlx::query_scalar("SELECT top FROM guess_predictions WHERE sentence_id = $1 AND position = $2 ORDER BY model_id LIMIT 1")
                .bind(sentence)
                .bind(i64::try_from(position).unwrap_or(0))
                .fetch_optional(self.pool())
                .await?;
        Ok(top.map(|t| t.split('|').map(str::to_owned).collect()).unwrap_or_default())
    }

    async fn finished_sentences(&self, id: &str) -> Result<i64, StoreError> {
        let rows = sqlx::query(
            "SELECT s.text, (SELECT COUNT(*) FROM guess_answers g WHERE g.serving_id = v.id) FROM guess_servings v \
             JOIN sentences s ON s.id = v.sentence_id WHERE v.annotator_id = $1",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        let mut finished = 0;
        for r in &rows {
            finished += i64::from(usize::try_from(r.try_get::<i64, _>(1)?).unwrap_or(0) >= positions(&r.try_get::<String, _>(0)?).len());
        }
        Ok(finished)
    }

    /// Annotator `id` guesses word `position` of round `serving`: `guess` as typed, or
    /// with `rank`, the suggestion at that 1-based place (the easier mode). A
    /// position guessed already answers as before; one further ahead is refused.
    pub async fn guess_word(
        &self,
        id: &str,
        serving: &str,
        position: usize,
        guess: &str,
        rank: Option<usize>,
        client_ms: Option<i64>,
    ) -> Result<GuessResult, StoreError> {
        let row = sqlx::query(
            "SELECT v.mode, s.text, v.served_at, v.sentence_id FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id \
             WHERE v.id = $1 AND v.annotator_id = $2",
        )
        .bind(serving)
        .bind(id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("{serving:?} is not a sentence served to you")))?;
        let all = positions(&row.try_get::<String, _>(1)?);
        let at = i64::try_from(position).unwrap_or(i64::MAX);
        let earlier = sqlx::query("SELECT guess, word, correct FROM guess_answers WHERE serving_id = $1 AND position = $2")
            .bind(serving)
            .bind(at)
            .fetch_optional(self.pool())
            .await?;
        if let Some(r) = earlier {
            return Ok(GuessResult {
                guess: r.try_get(0)?,
                word: r.try_get(1)?,
                correct: r.try_get::<i64, _>(2)? == 1,
                sentence_done: position == all.len(),
            });
        }
        let guessed: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM guess_answers WHERE serving_id = $1").bind(serving).fetch_one(self.pool()).await?;
        if at != guessed + 1 || position > all.len() {
            return Err(StoreError::Invalid(format!("word {} is the one to guess now, not {position}", guessed + 1)));
        }
        let guess = match rank {
            None => normalize(guess),
            Some(rank) => {
                if stored_code(&row, 0, "guessing mode", GuessMode::parse)? != GuessMode::Choose {
                    return Err(StoreError::Invalid("suggestions are only offered in the easier mode".into()));
                }
                let suggestions = self.suggestions(row.try_get(3)?, position).await?;
                rank.checked_sub(1)
                    .and_then(|i| suggestions.get(i).cloned())
                    .ok_or_else(|| StoreError::Invalid(format!("there are {} suggestions, not {rank}", suggestions.len())))?
            }
        };
        if guess.is_empty() || guess.chars().count() > MAX_GUESS_CHARS {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::GuessLength, format!("a guess is one word of 1 to {MAX_GUESS_CHARS} characters"))
                    .arg("max", MAX_GUESS_CHARS),
            ));
        }
        let word = all
            .get(position - 1)
            .map(|(_, word)| word.clone())
            .ok_or_else(|| StoreError::Invalid(format!("no word {position} in this sentence")))?;
        let correct = guess.to_lowercase() == word.to_lowercase();
        let now = now_ms();
        let timing = Timing::of(row.try_get(2)?, now, client_ms);
        sqlx::query(
            "INSERT INTO guess_answers (serving_id, position, guess, word, correct, rank, client_ms, client_ms_reported, server_ms, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (serving_id, position) DO NOTHING",
        )
        .bind(serving)
        .bind(at)
        .bind(&guess)
        .bind(&word)
        .bind(i64::from(correct))
        .bind(rank.and_then(|r| i64::try_from(r).ok()))
        .bind(timing.client_ms)
        .bind(timing.client_ms_reported)
        .bind(timing.server_ms)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(GuessResult { guess, word, correct, sentence_done: position == all.len() })
    }

    /// Every guess people made, without who made them.
    pub async fn human_guesses(&self) -> Result<Vec<HumanGuess>, StoreError> {
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
                    position: usize::try_from(r.try_get::<i64, _>(2)?).unwrap_or(0),
                    word: r.try_get(3)?,
                    guess: r.try_get(4)?,
                    rank: r.try_get::<Option<i64>, _>(5)?.and_then(|k| usize::try_from(k).ok()),
                })
            })
            .collect()
    }

    /// Every model prediction stored.
    pub async fn model_guesses(&self) -> Result<Vec<ModelGuess>, StoreError> {
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
                    position: usize::try_from(r.try_get::<i64, _>(3)?).unwrap_or(0),
                    word: r.try_get(4)?,
                    top: r.try_get::<String, _>(5)?.split('|').map(str::to_owned).collect(),
                    word_log_prob: r.try_get(6)?,
                    word_log_prob_corrected: r.try_get(7)?,
                })
            })
            .collect()
    }

    /// Sentences of `lang` for `model` to predict: those people guessed in first, then
    /// others of playable length in an order drawn from `seed`; at most `limit`.
    pub async fn sentences_to_predict(&self, model: &str, lang: &str, limit: usize, seed: u64) -> Result<Vec<(i64, String)>, StoreError> {
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

    /// Stores `model`'s (top words, log p(word) as the sum over its pieces and as the
    /// word's own) for each position of a sentence.
    pub async fn save_predictions(&self, model: &str, sentence: i64, predictions: &[(Vec<String>, f64, f64)]) -> Result<(), StoreError> {
        let text: String = sqlx::query_scalar("SELECT text FROM sentences WHERE id = $1").bind(sentence).fetch_one(self.pool()).await?;
        let all = positions(&text);
        if all.len() != predictions.len() {
            return Err(StoreError::Invalid(format!("sentence {sentence} has {} positions, not {}", all.len(), predictions.len())));
        }
        let rows: Vec<(i64, String, String, f64, f64)> = all
            .into_iter()
            .zip(predictions)
            .enumerate()
            .map(|(i, ((_, word), (top, pieces, corrected)))| {
                (i64::try_from(i + 1).unwrap_or(i64::MAX), word, top.join("|"), *pieces, *corrected)
            })
            .collect();
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO guess_predictions (model_id, sentence_id, position, word, top, word_log_prob, word_log_prob_corrected) VALUES {} \
             ON CONFLICT (model_id, sentence_id, position) DO NOTHING",
            7,
            &rows,
            |q, (position, word, top, pieces, corrected)| {
                q.bind(model.to_owned()).bind(sentence).bind(*position).bind(word.clone()).bind(top.clone()).bind(*pieces).bind(*corrected)
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The words of `lang` guessed at or predicted that have no facts yet.
    pub async fn words_without_facts(&self, lang: &str) -> Result<Vec<String>, StoreError> {
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
    pub async fn save_word_facts(&self, lang: &str, facts: &[(String, WordFacts)]) -> Result<(), StoreError> {
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
    pub async fn word_facts(&self) -> Result<std::collections::HashMap<(String, String), WordFacts>, StoreError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_the_words_after_the_first_with_the_text_before_them() {
        let p = positions("The dog, a poodle, barked twenty-one times.");
        let words: Vec<&str> = p.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(words, ["dog", "a", "poodle", "barked", "twenty-one", "times"]);
        assert_eq!(p[0].0, "The");
        assert_eq!(p[1].0, "The dog,");
        assert_eq!(p[5].0, "The dog, a poodle, barked twenty-one");
        assert!(positions("Hello!").is_empty());
    }
}
