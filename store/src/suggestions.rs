//! Word pairs proposed by players and their moderation by admins: approve (maybe
//! after editing the words) or reject with a reason. Pairs are order-insensitive,
//! so a pair or suggestion that exists in either order is a duplicate. Every
//! decision is written to the audit log in the same transaction.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::audit::record;
use crate::error::StoreError;
use crate::sql::now_ms;
use gapwise_model::{Language, PairId, PlayerId, Suggestion, SuggestionStatus, MAX_REASON_CHARS};
use gapwise_model::{Refusal, RefusalKey};
use gapwise_prepare::import::checked_pair;

crate::store::area!(
    /// Word pairs players propose, and their moderation.
    Suggestions,
    suggestions
);

const COLUMNS: &str = "id, lang, target, distractor, status, reason";

fn suggestion(r: &AnyRow) -> Result<Suggestion, StoreError> {
    let status = match r.try_get::<String, _>(4)?.as_str() {
        "approved" => SuggestionStatus::Approved,
        "rejected" => SuggestionStatus::Rejected,
        _ => SuggestionStatus::Pending,
    };
    Ok(Suggestion {
        id: r.try_get(0)?,
        language: r.try_get(1)?,
        target: r.try_get(2)?,
        distractor: r.try_get(3)?,
        status,
        reason: r.try_get(5)?,
    })
}

impl Suggestions<'_> {
    /// Checks a proposed pair: two different single words, both in the language's
    /// corpus, not already a pair or an open or accepted suggestion (in either
    /// order). Returns the normalised words and their key.
    async fn check_new_pair(
        self,
        language: Language,
        target: &str,
        distractor: &str,
        except: Option<i64>,
    ) -> Result<(String, String, String), StoreError> {
        let (target, distractor, key) = checked_pair(target, distractor).map_err(StoreError::Refused)?;
        let known: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM languages WHERE code = $1").bind(language).fetch_one(self.pool()).await?;
        if known == 0 {
            return Err(StoreError::Invalid(format!("unknown language {language:?}")));
        }
        let pairs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM word_pairs WHERE lang = $1 AND pair_key = $2")
            .bind(language)
            .bind(&key)
            .fetch_one(self.pool())
            .await?;
        if pairs > 0 {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::PairInGame, format!("{target} / {distractor} is already in the game"))
                    .arg("target", &target)
                    .arg("distractor", &distractor),
            ));
        }
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pair_suggestions WHERE lang = $1 AND pair_key = $2 AND status = 'pending' AND id <> $3",
        )
        .bind(language)
        .bind(&key)
        .bind(except.unwrap_or(-1))
        .fetch_one(self.pool())
        .await?;
        if open > 0 {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::PairProposed, format!("{target} / {distractor} has already been proposed and awaits a decision"))
                    .arg("target", &target)
                    .arg("distractor", &distractor),
            ));
        }
        for word in [&target, &distractor] {
            if self.material().word_count(language, word).await? == 0 {
                return Err(StoreError::Refused(
                    Refusal::new(RefusalKey::WordUnknown, format!("{word:?} does not occur in our {language} sentences"))
                        .arg("word", word)
                        .arg("language", language),
                ));
            }
        }
        Ok((target, distractor, key))
    }

    /// Records a player's proposal after the instant checks of [`Self::check_new_pair`].
    pub async fn suggest_pair(
        self,
        player: &PlayerId,
        language: Language,
        target: &str,
        distractor: &str,
    ) -> Result<Suggestion, StoreError> {
        let (target, distractor, key) = self.check_new_pair(language, target, distractor, None).await?;
        let row = sqlx::query(&format!(
            "INSERT INTO pair_suggestions (lang, target, distractor, pair_key, annotator_id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
        ))
        .bind(language)
        .bind(target)
        .bind(distractor)
        .bind(key)
        .bind(player)
        .bind(now_ms())
        .fetch_one(self.pool())
        .await?;
        suggestion(&row)
    }

    /// A player's proposals, newest first.
    pub async fn of(self, player: &PlayerId) -> Result<Vec<Suggestion>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {COLUMNS} FROM pair_suggestions WHERE annotator_id = $1 ORDER BY id DESC"))
            .bind(player)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(suggestion).collect()
    }

    /// Proposals awaiting a decision, oldest first.
    pub async fn queue(self) -> Result<Vec<Suggestion>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {COLUMNS} FROM pair_suggestions WHERE status = 'pending' ORDER BY id"))
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(suggestion).collect()
    }

    async fn pending(self, id: i64) -> Result<(Suggestion, String), StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS}, annotator_id FROM pair_suggestions WHERE id = $1 AND status = 'pending'"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("no pending suggestion {id}")))?;
        Ok((suggestion(&row)?, row.try_get(6)?))
    }

    /// Accepts a proposal as a word pair (strategy `suggested`, the proposer as its
    /// creator), with the words as the admin edited them; returns the pair id.
    pub async fn approve(self, staff: &str, id: i64, target: &str, distractor: &str) -> Result<PairId, StoreError> {
        let (proposal, proposer) = self.pending(id).await?;
        let language = Language::parse(&proposal.language)
            .ok_or_else(|| StoreError::Corrupt(format!("suggestion {id} is of an unknown language {:?}", proposal.language)))?;
        let (target, distractor, key) = self.check_new_pair(language, target, distractor, Some(id)).await?;
        let edited = (target != proposal.target || distractor != proposal.distractor)
            .then(|| format!("edited from {} / {}", proposal.target, proposal.distractor));
        let mut tx = self.pool().begin().await?;
        let pair_id: PairId = sqlx::query_scalar(
            "INSERT INTO word_pairs (lang, target, distractor, pair_key, strategy, creator_id, created_at) \
             VALUES ($1, $2, $3, $4, 'suggested', $5, $6) RETURNING id",
        )
        .bind(&proposal.language)
        .bind(&target)
        .bind(&distractor)
        .bind(&key)
        .bind(&proposer)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query("UPDATE pair_suggestions SET status = 'approved', reason = $1, pair_id = $2, decided_at = $3 WHERE id = $4")
            .bind(&edited)
            .bind(pair_id)
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let detail = format!(
            "suggestion {id} -> pair {pair_id} {} / {} ({}){}",
            target,
            distractor,
            proposal.language,
            edited.map(|e| format!(", {e}")).unwrap_or_default()
        );
        record(&mut tx, staff, "approve suggestion", &detail).await?;
        tx.commit().await?;
        Ok(pair_id)
    }

    /// Turns a proposal down; the reason is shown to the proposer.
    pub async fn reject(self, staff: &str, id: i64, reason: &str) -> Result<(), StoreError> {
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
            return Err(StoreError::Invalid(format!("give the proposer a reason of 1 to {MAX_REASON_CHARS} characters")));
        }
        let (proposal, _) = self.pending(id).await?;
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE pair_suggestions SET status = 'rejected', reason = $1, decided_at = $2 WHERE id = $3")
            .bind(reason)
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let detail = format!("suggestion {id} {} / {} ({}): {reason}", proposal.target, proposal.distractor, proposal.language);
        record(&mut tx, staff, "reject suggestion", &detail).await?;
        tx.commit().await?;
        Ok(())
    }
}
