//! What the report and the research page read.

use crate::error::StoreError;
use crate::sql::stored_code;
use gapwise_model::PlayedWord;
use sqlx::Row;

use super::{option_index, setup_of, NewWords, NewWordsAnswer, NewWordsJudgement};

impl NewWords<'_> {
    /// Every answer people gave, without who gave it, in the order served.
    pub async fn answers(self) -> Result<Vec<NewWordsAnswer>, StoreError> {
        let rows = sqlx::query(
            "SELECT item_id, word, with_definition, correct FROM new_words_servings WHERE choice IS NOT NULL ORDER BY served_at",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(NewWordsAnswer {
                    item_id: r.try_get(0)?,
                    word: stored_code(r, 1, "WinoDict word", PlayedWord::parse)?,
                    with_definition: r.try_get::<i64, _>(2)? == 1,
                    correct: r.try_get::<i64, _>(3)? == 1,
                })
            })
            .collect()
    }

    /// Every stored judgement, with whether it was right.
    pub async fn judgements(self) -> Result<Vec<NewWordsJudgement>, StoreError> {
        let rows = sqlx::query(
            "SELECT j.model_id, j.item_id, j.word, j.teaching, j.shots, j.log_likelihood_a, j.log_likelihood_b, j.choice, i.answer \
             FROM new_words_judgements j JOIN new_words_items i ON i.id = j.item_id ORDER BY j.model_id, j.item_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let choice = option_index(r.try_get(7)?)?;
                Ok(NewWordsJudgement {
                    model: r.try_get(0)?,
                    item_id: r.try_get(1)?,
                    setup: setup_of(r, 2)?,
                    log_likelihoods: [r.try_get(5)?, r.try_get(6)?],
                    choice,
                    correct: choice == option_index(r.try_get(8)?)?,
                })
            })
            .collect()
    }
}
