//! A player's rights over their data: see everything stored about them, take it
//! away as a file, and erase it all; and the feedback they leave.

use sqlx::Row;

use super::audit::utc_minute;
use super::tables::player_tables;
use crate::error::StoreError;
use crate::sql::now_ms;
use gapwise_model::{FeedbackNote, MyAnswer, MyData, MyRating, PlayerId, MAX_FEEDBACK_CHARS};
use gapwise_model::{Refusal, RefusalKey};

crate::store::area!(
    /// A player's rights: their data, its erasure, and their feedback.
    Rights,
    rights
);

/// What an erasure removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Erased {
    /// Rows deleted, the annotator's own included.
    pub rows: u64,
    /// Word pairs in the game that no longer name their proposer.
    pub pairs_unlinked: u64,
}

impl Rights<'_> {
    /// Everything stored about player `player`.
    pub async fn my_data(self, player: &PlayerId) -> Result<MyData, StoreError> {
        let me = sqlx::query("SELECT pseudonym, consent_version, created_at, CAST(CASE WHEN password_hash IS NULL THEN 0 ELSE 1 END AS BIGINT) FROM annotators WHERE id = $1")
            .bind(player)
            .fetch_optional(self.pool())
            .await?
            .ok_or_else(|| StoreError::NotFound("no such player".into()))?;
        let count = |sql: &'static str| async move { sqlx::query_scalar::<_, i64>(sql).bind(player).fetch_one(self.pool()).await };
        let mut rows = Vec::new();
        for table in player_tables() {
            rows.push((table.name.to_owned(), sqlx::query_scalar::<_, i64>(&table.count()).bind(player).fetch_one(self.pool()).await?));
        }
        let held = |name: &str| rows.iter().find(|(table, _)| table == name).map_or(0, |&(_, n)| n);
        let answers = sqlx::query(
            "SELECT item_id, k, chosen, correct, client_ms, server_ms, created_at, input_device, hidden_changes, clock_us, frame_us \
             FROM answers WHERE annotator_id = $1 ORDER BY created_at, id",
        )
        .bind(player)
        .fetch_all(self.pool())
        .await?;
        let ratings = sqlx::query(
            "SELECT item_id, CAST(rating AS BIGINT), created_at FROM rate_ratings WHERE annotator_id = $1 ORDER BY created_at, item_id",
        )
        .bind(player)
        .fetch_all(self.pool())
        .await?;
        let feedback = sqlx::query("SELECT message, created_at FROM feedback WHERE annotator_id = $1 ORDER BY id")
            .bind(player)
            .fetch_all(self.pool())
            .await?;
        Ok(MyData {
            pseudonym: me.try_get(0)?,
            consent_version: me.try_get(1)?,
            joined: utc_minute(me.try_get(2)?),
            has_password: me.try_get::<i64, _>(3)? == 1,
            sessions: held("sessions"),
            servings: held("servings"),
            answers: answers
                .iter()
                .map(|r| {
                    Ok(MyAnswer {
                        item_id: r.try_get(0)?,
                        k: super::game::to_k(r.try_get(1)?)?,
                        chosen: r.try_get(2)?,
                        correct: r.try_get::<i64, _>(3)? == 1,
                        client_ms: r.try_get(4)?,
                        server_ms: r.try_get(5)?,
                        trial: super::research::trial_of(r, 7)?,
                        at: utc_minute(r.try_get(6)?),
                    })
                })
                .collect::<Result<_, StoreError>>()?,
            ratings: ratings
                .iter()
                .map(|r| {
                    let rating = u8::try_from(r.try_get::<i64, _>(1)?).map_err(|_| StoreError::Corrupt("a stored rating is out of range".into()))?;
                    Ok(MyRating { item_id: r.try_get(0)?, rating, at: utc_minute(r.try_get(2)?) })
                })
                .collect::<Result<_, StoreError>>()?,
            define_picks: held("define_picks"),
            word_guesses: held("guess_answers"),
            invented_word_answers: count("SELECT COUNT(*) FROM new_words_servings WHERE annotator_id = $1 AND choice IS NOT NULL").await?,
            suggestions: self.suggestions().of(player).await?,
            pairs_created: count("SELECT COUNT(*) FROM word_pairs WHERE creator_id = $1").await?,
            feedback: feedback.iter().map(|r| Ok(FeedbackNote { message: r.try_get(0)?, at: utc_minute(r.try_get(1)?) })).collect::<Result<_, StoreError>>()?,
            // an export names a player who answered by a stored id or the keyed hash of theirs
            has_export_id: held("export_pseudonyms") > 0 || held("answers") > 0,
            friends: sqlx::query_scalar("SELECT n.pseudonym FROM friends f JOIN annotators n ON n.id = f.friend_id WHERE f.annotator_id = $1 ORDER BY n.pseudonym")
                .bind(player)
                .fetch_all(self.pool())
                .await?,
            challenges: held("challenges"),
            crowd: sqlx::query_as(
                "SELECT s.name, a.participant_id, a.status FROM crowd_assignments a JOIN crowd_studies s ON s.id = a.study_id WHERE a.annotator_id = $1",
            )
            .bind(player)
            .fetch_optional(self.pool())
            .await?,
            rows,
        })
    }

    /// Deletes every row of player `player` (those of every table of [`player_tables`],
    /// then the annotator) in one transaction, and takes their name off the word pairs
    /// they proposed. Irreversible.
    pub async fn erase(self, player: &PlayerId) -> Result<Erased, StoreError> {
        let mut tx = self.pool().begin().await?;
        let mut erased = Erased::default();
        for table in player_tables() {
            erased.rows += sqlx::query(&table.delete()).bind(player).execute(&mut *tx).await?.rows_affected();
        }
        erased.pairs_unlinked = sqlx::query("UPDATE word_pairs SET creator_id = NULL WHERE creator_id = $1")
            .bind(player)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let me = sqlx::query("DELETE FROM annotators WHERE id = $1").bind(player).execute(&mut *tx).await?.rows_affected();
        if me == 0 {
            return Err(StoreError::NotFound("no such player".into()));
        }
        erased.rows += me;
        tx.commit().await?;
        self.changes.pool_changed();
        Ok(erased)
    }

    /// Stores a feedback message from player `player` (1 to [`MAX_FEEDBACK_CHARS`]
    /// characters, kept as written; pages escape it).
    pub async fn leave_feedback(self, player: &PlayerId, message: &str) -> Result<(), StoreError> {
        let message = message.trim();
        if message.is_empty() || message.chars().count() > MAX_FEEDBACK_CHARS {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::FeedbackLength, format!("feedback must have 1 to {MAX_FEEDBACK_CHARS} characters"))
                    .arg("max", MAX_FEEDBACK_CHARS),
            ));
        }
        sqlx::query("INSERT INTO feedback (annotator_id, message, created_at) VALUES ($1, $2, $3)")
            .bind(player)
            .bind(message)
            .bind(now_ms())
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The latest `limit` feedback messages, newest first, without their senders.
    pub async fn latest_feedback(self, limit: i64) -> Result<Vec<FeedbackNote>, StoreError> {
        let rows =
            sqlx::query("SELECT message, created_at FROM feedback ORDER BY id DESC LIMIT $1").bind(limit).fetch_all(self.pool()).await?;
        rows.iter().map(|r| Ok(FeedbackNote { message: r.try_get(0)?, at: utc_minute(r.try_get(1)?) })).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use super::*;

    /// The tables an erasure deletes from.
    fn erased_tables() -> HashSet<&'static str> {
        player_tables().iter().map(|t| t.name).collect()
    }

    /// Every table that holds a player's rows is erased: those with a foreign key to
    /// `annotators` (but `word_pairs`, whose proposer is unlinked, and the pair stays in
    /// the game), and those whose rows hang from such rows (a serving's picks, a
    /// challenge's items), read from the migrated schema itself, so that a mode's new
    /// table with a player column fails here until the erasure lists it. And every
    /// column that names a player is such a foreign key, so none escapes the schema's
    /// reading.
    #[tokio::test]
    async fn every_table_holding_a_players_rows_is_erased() {
        let db = crate::testing::sqlite().await;
        let pool = db.store.pool();
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 5) <> '_sqlx' ORDER BY name",
        )
        .fetch_all(pool)
        .await
        .expect("tables");
        // (table, column, the table it refers to)
        let mut keys = Vec::new();
        for table in &tables {
            let rows = sqlx::query(&format!("SELECT \"from\", \"table\" FROM pragma_foreign_key_list('{table}')"))
                .fetch_all(pool)
                .await
                .expect("foreign keys");
            keys.extend(rows.iter().map(|r| (table.clone(), r.get::<String, _>(0), r.get::<String, _>(1))));
            let columns: Vec<String> =
                sqlx::query_scalar(&format!("SELECT name FROM pragma_table_info('{table}')")).fetch_all(pool).await.expect("columns");
            for column in columns.iter().filter(|c| ["annotator", "creator", "opponent", "friend"].iter().any(|who| c.contains(who))) {
                assert!(
                    keys.iter().any(|(t, c, to)| t == table && c == column && to == "annotators"),
                    "{table}.{column} names a player without a foreign key to annotators"
                );
            }
        }
        let mut personal: BTreeSet<&str> =
            keys.iter().filter(|(t, _, to)| to == "annotators" && t != "word_pairs").map(|(t, ..)| t.as_str()).collect();
        loop {
            let hanging: Vec<&str> = keys
                .iter()
                .filter(|(t, _, to)| personal.contains(to.as_str()) && !personal.contains(t.as_str()))
                .map(|(t, ..)| t.as_str())
                .collect();
            if hanging.is_empty() {
                break;
            }
            personal.extend(hanging);
        }
        let erased = erased_tables();
        let missed: Vec<&&str> = personal.iter().filter(|t| !erased.contains(**t)).collect();
        assert!(missed.is_empty(), "tables holding a player's rows that an erasure leaves: {missed:?}");
        let unknown: Vec<&&str> = erased.iter().filter(|t| !tables.iter().any(|name| name == **t)).collect();
        assert!(unknown.is_empty(), "the erasure names tables that do not exist: {unknown:?}");
        assert!(personal.len() >= 14, "the schema was read: {personal:?}");
        // and the store's list of tables is the schema's
        let listed: BTreeSet<&str> = crate::tables::all_tables().map(|t| t.name).collect();
        let schema: BTreeSet<&str> = tables.iter().map(String::as_str).collect();
        assert_eq!(listed, schema, "the store's tables (store/src/tables.rs) against the migrated schema");
    }
}
