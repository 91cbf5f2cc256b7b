//! Puts right, once, the rows numbered by a sentence's words as the games counted
//! them before [`game_spans`] ("don" and "t" are now "don't"; "l" is now "l'"): at
//! the first start after migration 20261210000001_game_positions, which records it
//! in `data_repairs`.
//!
//! For each sentence that the next-word or cloze game has rows of, and whose words
//! the two counts split differently:
//! - the models' predictions are deleted, and the sentence queued in
//!   `predictions_to_remake` for each model that had them: the games' supply
//!   predicts it again with the default model before any other sentence of its
//!   language, `gapwise score-guess` with any model;
//! - a cloze round's blank is renumbered to its word's new position (a blank is a
//!   word standing alone, which both counts find at the same bytes);
//! - a next-word round's guesses, from the first position whose word changed on,
//!   move to `guess_answers_replaced`, kept as they were but out of the analyses;
//!   the round goes on from that position with the new words.

use gapwise_model::words::{game_spans, same_word, word_spans};
use sqlx::Row;

use crate::error::StoreError;
use crate::sql::{now_ms, MEASURE_COLUMNS};
use crate::Store;

const NAME: &str = "game_positions";

/// What the repair changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repaired {
    /// Sentences whose words the two counts split differently.
    pub sentences: u64,
    pub predictions_deleted: u64,
    pub blanks_renumbered: u64,
    pub guesses_replaced: u64,
}

/// The first position (1 is a sentence's second word) whose word is not the same,
/// or not at the same place, in the spans `old` and `new` of `text`.
fn first_changed(text: &str, old: &[(usize, usize)], new: &[(usize, usize)]) -> Option<usize> {
    let word = |&(s, e): &(usize, usize)| text.get(s..e).unwrap_or_default();
    (1..old.len().max(new.len())).find(|&i| match (old.get(i), new.get(i)) {
        (Some(a), Some(b)) => a.0 != b.0 || !same_word(word(a), word(b)),
        _ => true,
    })
}

impl Store {
    /// Runs the repair (see the module) unless it ran before; the record of it is
    /// taken first, so that of two servers starting at once one repairs and the
    /// other waits for it.
    pub async fn repair_game_positions(&self) -> Result<Repaired, StoreError> {
        let mut tx = self.pool().begin().await?;
        let taken = sqlx::query("INSERT INTO data_repairs (name, done_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
            .bind(NAME)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        let mut repaired = Repaired::default();
        if taken.rows_affected() == 0 {
            return Ok(repaired);
        }
        let sentences = sqlx::query(
            "SELECT id, text FROM sentences WHERE id IN \
             (SELECT sentence_id FROM guess_servings UNION SELECT sentence_id FROM guess_predictions UNION SELECT sentence_id FROM cloze_servings) \
             ORDER BY id",
        )
        .fetch_all(&mut *tx)
        .await?;
        for row in sentences {
            let (id, text): (i64, String) = (row.try_get(0)?, row.try_get(1)?);
            let (old, new) = (word_spans(&text), game_spans(&text));
            if old == new {
                continue;
            }
            repaired.sentences += 1;
            sqlx::query(
                "INSERT INTO predictions_to_remake (model_id, sentence_id) \
                 SELECT DISTINCT model_id, sentence_id FROM guess_predictions WHERE sentence_id = $1",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
            repaired.predictions_deleted +=
                sqlx::query("DELETE FROM guess_predictions WHERE sentence_id = $1").bind(id).execute(&mut *tx).await?.rows_affected();
            let blanks = sqlx::query("SELECT id, position FROM cloze_servings WHERE sentence_id = $1").bind(id).fetch_all(&mut *tx).await?;
            for blank in blanks {
                let (serving, position): (String, i64) = (blank.try_get(0)?, blank.try_get(1)?);
                let span = usize::try_from(position).ok().and_then(|p| old.get(p));
                match span.and_then(|span| new.iter().position(|s| s == span)).map(i64::try_from) {
                    Some(Ok(now)) if now != position => {
                        sqlx::query("UPDATE cloze_servings SET position = $1 WHERE id = $2")
                            .bind(now)
                            .bind(&serving)
                            .execute(&mut *tx)
                            .await?;
                        repaired.blanks_renumbered += 1;
                    }
                    Some(Ok(_)) => {}
                    _ => tracing::warn!(sentence = id, position, "a cloze blank that is no word of the games' count: left as it was"),
                }
            }
            let Some(from) = first_changed(&text, &old, &new).and_then(|p| i64::try_from(p).ok()) else { continue };
            let rows = "FROM guess_answers WHERE serving_id IN (SELECT id FROM guess_servings WHERE sentence_id = $1) AND position >= $2";
            sqlx::query(&format!(
                "INSERT INTO guess_answers_replaced (serving_id, position, guess, word, correct, rank, created_at, {MEASURE_COLUMNS}, replaced_at) \
                 SELECT serving_id, position, guess, word, correct, rank, created_at, {MEASURE_COLUMNS}, $3 {rows}"
            ))
            .bind(id)
            .bind(from)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
            repaired.guesses_replaced +=
                sqlx::query(&format!("DELETE {rows}")).bind(id).bind(from).execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        Ok(repaired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_changed_position_skips_elisions_that_only_gain_their_apostrophe() {
        let changed = |text: &str| first_changed(text, &word_spans(text), &game_spans(text));
        assert_eq!(changed("I said I don't know."), Some(3), "don then t became don't");
        assert_eq!(changed("Il a vu l'été."), None, "l is l' with its apostrophe");
        assert_eq!(changed("Dis-le aujourd'hui."), Some(1));
        assert_eq!(changed("The dog barked."), None);
    }
}
