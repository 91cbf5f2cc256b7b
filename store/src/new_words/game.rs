//! The rounds players play: what the engine reads to serve a round and writes of its answers.

use crate::error::StoreError;
use crate::sql::{bind_measure, now_ms, MEASURE_COLUMNS};
use gapwise_model::{NewWordsCard, NewWordsPick, PlayedWord, PlayerId, ServingId, Timing, Trial};
use sqlx::Row;

use super::{option_index, NewWords, NewWordsServing};

impl NewWords<'_> {
    /// How many items player `player` has met.
    pub async fn met(self, player: &PlayerId) -> Result<usize, StoreError> {
        let met: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM new_words_servings WHERE annotator_id = $1")
            .bind(player)
            .fetch_one(self.pool())
            .await?;
        Ok(usize::try_from(met).unwrap_or(0))
    }

    /// An item played with `word` that player `player` has not met: one a model has
    /// judged when there is, else any, drawn at random.
    pub async fn unmet_item(self, player: &PlayerId, word: PlayedWord) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT i.id FROM new_words_items i \
             WHERE EXISTS (SELECT 1 FROM new_words_variants v WHERE v.item_id = i.id AND v.word = $2) \
             AND NOT EXISTS (SELECT 1 FROM new_words_servings s WHERE s.annotator_id = $1 AND s.item_id = i.id) \
             ORDER BY CASE WHEN EXISTS (SELECT 1 FROM new_words_judgements j WHERE j.item_id = i.id) THEN 0 ELSE 1 END, random() LIMIT 1",
        )
        .bind(player)
        .bind(word.code())
        .fetch_optional(self.pool())
        .await?)
    }

    /// Stores item `item` served to player `player` with `word`, its definition shown
    /// or not; nothing when they have it already (a second tab drawing it at the same moment).
    pub async fn insert_serving(self, player: &PlayerId, item: &str, word: PlayedWord, with_definition: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO new_words_servings (id, annotator_id, item_id, word, with_definition, served_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (annotator_id, item_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(player)
        .bind(item)
        .bind(word.code())
        .bind(i64::from(with_definition))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The item player `player` was served first and has not answered.
    pub async fn open_serving(self, player: &PlayerId) -> Result<Option<ServingId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM new_words_servings WHERE annotator_id = $1 AND choice IS NULL ORDER BY served_at, id LIMIT 1",
        )
        .bind(player)
        .fetch_optional(self.pool())
        .await?)
    }

    /// The card of round `serving` of player `player`, with their latest answer since `since` (ms).
    pub async fn card(self, player: &PlayerId, serving: &ServingId, since: i64) -> Result<NewWordsCard, StoreError> {
        let row = sqlx::query(
            "SELECT v.sentence, v.taught, s.with_definition, i.option_a, i.option_b FROM new_words_servings s \
             JOIN new_words_items i ON i.id = s.item_id JOIN new_words_variants v ON v.item_id = s.item_id AND v.word = s.word WHERE s.id = $1",
        )
        .bind(serving)
        .fetch_one(self.pool())
        .await?;
        let tally = sqlx::query(
            "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM new_words_servings WHERE annotator_id = $1 AND choice IS NOT NULL",
        )
        .bind(player)
        .fetch_one(self.pool())
        .await?;
        Ok(NewWordsCard {
            serving_id: serving.to_owned(),
            sentence: row.try_get(0)?,
            definition: if row.try_get::<i64, _>(2)? == 1 { Some(row.try_get(1)?) } else { None },
            options: [row.try_get(3)?, row.try_get(4)?],
            answered: tally.try_get(0)?,
            right: tally.try_get(1)?,
            last: self.last_pick(player, since).await?,
        })
    }

    /// Player `id`'s last answer, if it was given since `since` (ms).
    async fn last_pick(self, player: &PlayerId, since: i64) -> Result<Option<NewWordsPick>, StoreError> {
        let row = sqlx::query(
            "SELECT s.correct, i.answer, i.option_a, i.option_b, v.sentence FROM new_words_servings s JOIN new_words_items i ON i.id = s.item_id \
             JOIN new_words_variants v ON v.item_id = s.item_id AND v.word = s.word WHERE s.annotator_id = $1 AND s.choice IS NOT NULL AND s.served_at + s.server_ms >= $2 \
             ORDER BY s.served_at + s.server_ms DESC LIMIT 1",
        )
        .bind(player)
        .bind(since)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let options: [String; 2] = [r.try_get(2)?, r.try_get(3)?];
            let [first, second] = options;
            let answer = if option_index(r.try_get(1)?)? == 0 { first } else { second };
            Ok(NewWordsPick { correct: r.try_get::<i64, _>(0)? == 1, answer, sentence: r.try_get(4)? })
        })
        .transpose()
    }

    /// Round `serving` of player `player`; `None` when it is not theirs.
    pub async fn serving(self, player: &PlayerId, serving: &ServingId) -> Result<Option<NewWordsServing>, StoreError> {
        let row = sqlx::query(
            "SELECT i.answer, i.option_a, i.option_b, s.served_at, s.choice, s.correct, v.sentence FROM new_words_servings s \
             JOIN new_words_items i ON i.id = s.item_id JOIN new_words_variants v ON v.item_id = s.item_id AND v.word = s.word \
             WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(serving)
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let answered = match (r.try_get::<Option<i64>, _>(4)?, r.try_get::<Option<i64>, _>(5)?) {
                (Some(choice), Some(correct)) => Some((option_index(choice)?, correct == 1)),
                _ => None,
            };
            Ok(NewWordsServing {
                answer: option_index(r.try_get(0)?)?,
                options: [r.try_get(1)?, r.try_get(2)?],
                sentence: r.try_get(6)?,
                served_at: r.try_get(3)?,
                answered,
            })
        })
        .transpose()
    }

    /// Stores the answer to round `serving`: option `choice`, right or not; false
    /// when it was answered already (a second tab's answer came first).
    pub async fn record_choice(
        self,
        serving: &ServingId,
        (choice, correct): (usize, bool),
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        // the measure's seven columns, $1 to $7, in the order bind_measure binds them
        let measure: Vec<String> = MEASURE_COLUMNS.split(", ").zip(1..).map(|(column, n)| format!("{column} = ${n}")).collect();
        let sql =
            format!("UPDATE new_words_servings SET {}, choice = $8, correct = $9 WHERE id = $10 AND choice IS NULL", measure.join(", "));
        let query = bind_measure(sqlx::query(&sql), timing, trial);
        let done =
            query.bind(i64::try_from(choice).unwrap_or(i64::MAX)).bind(i64::from(correct)).bind(serving).execute(self.pool()).await?;
        Ok(done.rows_affected() == 1)
    }
}
