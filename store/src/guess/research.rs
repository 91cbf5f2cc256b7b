//! What the report and the research page read.

use crate::error::StoreError;
use sqlx::Row;

use super::{count, Guess, HumanGuess, ModelGuess, WordFacts};

impl Guess<'_> {
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
