//! Crowd-platform studies (see `model::crowd`): an admin sets one up; each
//! participant who arrives with the platform's ids gets an assignment, its own
//! pseudonymous annotator, and the study's items until the target is reached.
//!
//! An assignment is returned when the participant says so, and abandoned when it
//! stays idle past the study's time limit ([`Crowd::reclaim_abandoned`], run by
//! the game's requests at most once a second per process); either way its answers and reservations stop
//! holding items (see `item_choice`), so other participants get them. Its rows stay,
//! flagged, for the analysis to decide.

use sqlx::Row;

use super::audit::record;
use super::secrets::random_code;
use crate::error::StoreError;
use crate::players::CONSENT_VERSION;
use crate::sql::{now_ms, stored_code};
use gapwise_model::{
    CrowdEntry, CrowdProgress, CrowdStudy, ItemPolicy, Language, Platform, PlayState, PlayerId, StudyId, StudySettings, K, MTURK_PREVIEW,
};
use gapwise_model::{Refusal, RefusalKey};

crate::store::area!(
    /// Crowd studies: their settings, participants' assignments and completion.
    Crowd,
    crowd
);

/// Longest participant or session id a platform may send.
const MAX_ID_CHARS: usize = 128;

/// A participant's assignment with what its study asks.
#[derive(Debug)]
pub struct Assignment {
    /// active, completed, returned or abandoned.
    pub status: String,
    pub platform: Platform,
    pub platform_session: String,
    pub k: K,
    pub lang: Language,
    pub items_target: i64,
    pub completion_code: String,
    pub policy: ItemPolicy,
}

/// How a participant's entry to a study went (see [`Crowd::enter_study`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyEntry {
    /// The session token for the assignment's annotator: a new assignment, or one
    /// resumed by the browser or platform session that began it.
    Session(String),
    /// The assignment was completed: no session, only its code and the platform's
    /// completion address that takes it.
    Completed { redirect: String, code: String },
}

/// The refusal of an assignment's resumption by someone who holds neither the
/// platform's session id of its first entry nor its annotator's session.
fn study_elsewhere() -> StoreError {
    StoreError::Refused(Refusal::new(
        RefusalKey::StudyElsewhere,
        "this participant's study was begun in another session; continue it in the browser where it began, or open it from the platform",
    ))
}

impl Assignment {
    /// The end of the study: back to the platform with the completion code.
    pub fn completed(&self) -> PlayState {
        PlayState::Completed {
            redirect: self.platform.completion_url(&self.completion_code, &self.platform_session),
            code: self.completion_code.clone(),
        }
    }
}

impl Crowd<'_> {
    /// Creates a study and records who did it; returns its id.
    pub async fn create_study(self, staff: &str, study: &StudySettings) -> Result<StudyId, StoreError> {
        let name = study.name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(StoreError::Invalid("a study needs a name of 1 to 100 characters".into()));
        }
        if !(1..=500).contains(&study.items_target) || !(1..=24 * 60).contains(&study.max_minutes) {
            return Err(StoreError::Invalid("items must be 1 to 500 and the time limit 1 to 1440 minutes".into()));
        }
        let code = match study.completion_code.trim() {
            "" => random_code(8).to_uppercase(),
            code if code.len() <= 64 && code.chars().all(|c| c.is_ascii_alphanumeric()) => code.to_owned(),
            _ => return Err(StoreError::Invalid("a completion code has up to 64 letters and digits".into())),
        };
        let id = StudyId::new(random_code(10));
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO crowd_studies (id, platform, name, k, lang, items_target, max_minutes, completion_code, created_at, item_policy) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&id)
        .bind(study.platform.code())
        .bind(name)
        .bind(i64::from(study.k))
        .bind(study.language)
        .bind(study.items_target)
        .bind(study.max_minutes)
        .bind(&code)
        .bind(now_ms())
        .bind(study.policy.code())
        .execute(&mut *tx)
        .await?;
        record(
            &mut tx,
            staff,
            "create study",
            &format!("{id} {name} ({}, {} items, {})", study.platform.code(), study.items_target, study.policy.code()),
        )
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Every study, newest first, with its assignments by status.
    pub async fn studies(self) -> Result<Vec<CrowdStudy>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.id, s.platform, s.name, s.k, s.lang, s.items_target, s.max_minutes, s.completion_code, s.item_policy, \
                    CAST(COALESCE(SUM(CASE WHEN a.status = 'active' THEN 1 ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN a.status = 'completed' THEN 1 ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN a.status = 'returned' THEN 1 ELSE 0 END), 0) AS BIGINT), \
                    CAST(COALESCE(SUM(CASE WHEN a.status = 'abandoned' THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM crowd_studies s LEFT JOIN crowd_assignments a ON a.study_id = s.id \
             GROUP BY s.id, s.platform, s.name, s.k, s.lang, s.items_target, s.max_minutes, s.completion_code, s.item_policy, s.created_at \
             ORDER BY s.created_at DESC",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(CrowdStudy {
                    id: r.try_get(0)?,
                    settings: StudySettings {
                        platform: stored_code(r, 1, "platform", Platform::parse)?,
                        name: r.try_get(2)?,
                        k: super::game::to_k(r.try_get(3)?)?,
                        language: r.try_get(4)?,
                        items_target: r.try_get(5)?,
                        max_minutes: r.try_get(6)?,
                        completion_code: r.try_get(7)?,
                        policy: stored_code(r, 8, "item policy", ItemPolicy::parse)?,
                    },
                    assignments: [r.try_get(9)?, r.try_get(10)?, r.try_get(11)?, r.try_get(12)?],
                })
            })
            .collect()
    }

    /// What a participant arriving at study `id` is told before consenting.
    pub async fn entry(self, id: &StudyId) -> Result<CrowdEntry, StoreError> {
        let r = sqlx::query("SELECT name, items_target, max_minutes, platform FROM crowd_studies WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?
            .ok_or_else(|| {
                StoreError::Missing(Refusal::new(
                    RefusalKey::NoStudy,
                    format!("no study {:?}: check the link the platform gave you", id.as_str()),
                ))
            })?;
        Ok(CrowdEntry {
            study: r.try_get(0)?,
            items_target: r.try_get(1)?,
            max_minutes: r.try_get(2)?,
            platform: stored_code(&r, 3, "platform", Platform::parse)?,
        })
    }

    /// Starts the assignment of `participant` on study `id` after they consented, or
    /// resumes it for the browser that began it: returns a session token for its
    /// annotator. The platform's participant id travels in links and may be guessed,
    /// so it alone resumes nothing: an assignment is resumed only with the platform's
    /// session id that came with its first entry (Prolific's `SESSION_ID`, MTurk's
    /// `assignmentId`), or by `current`, the player whose session cookie the browser
    /// holds, when that is the assignment's annotator; anyone else is refused
    /// ([`RefusalKey::StudyElsewhere`]). A completed assignment gives no session again,
    /// only the way back to the platform with its code; a participant who returned the
    /// study, or let it time out, cannot start it again.
    pub async fn enter_study(
        self,
        id: &StudyId,
        participant: &str,
        platform_session: &str,
        current: Option<&PlayerId>,
    ) -> Result<StudyEntry, StoreError> {
        self.entry(id).await?;
        let (participant, platform_session) = (participant.trim(), platform_session.trim());
        let valid = |s: &str| !s.is_empty() && s.len() <= MAX_ID_CHARS && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c));
        if !valid(participant) || !valid(platform_session) || platform_session == MTURK_PREVIEW {
            return Err(StoreError::Refused(Refusal::new(
                RefusalKey::StudyLink,
                "the link lacks the platform's participant and session ids; open the study from the platform",
            )));
        }
        self.reclaim_abandoned().await?;
        let existing = sqlx::query(
            "SELECT annotator_id, status, platform_session_id FROM crowd_assignments WHERE study_id = $1 AND participant_id = $2",
        )
        .bind(id)
        .bind(participant)
        .fetch_optional(self.pool())
        .await?;
        let annotator = match existing {
            Some(r) => {
                let (annotator, status, first_session): (PlayerId, String, String) = (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
                if first_session != platform_session && current != Some(&annotator) {
                    return Err(study_elsewhere());
                }
                match status.as_str() {
                    "active" => annotator,
                    "completed" => return self.completed_entry(&annotator).await,
                    _ => return Err(StoreError::study_returned()),
                }
            }
            None => self.new_assignment(id, participant, platform_session).await?,
        };
        Ok(StudyEntry::Session(self.players().create_session(&annotator).await?))
    }

    /// A new annotator and its assignment on study `id`, bound to the platform's
    /// session id of this first entry.
    async fn new_assignment(self, id: &StudyId, participant: &str, platform_session: &str) -> Result<PlayerId, StoreError> {
        let annotator = self.players().create_player(CONSENT_VERSION).await?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO crowd_assignments (id, study_id, annotator_id, participant_id, platform_session_id, status, started_at, last_seen_at) \
             VALUES ($1, $2, $3, $4, $5, 'active', $6, $6)",
        )
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(id)
        .bind(&annotator.id)
        .bind(participant)
        .bind(platform_session)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(annotator.id)
    }

    /// The re-entry of a completed assignment: its completion code and the way back
    /// to the platform with it.
    async fn completed_entry(self, annotator: &PlayerId) -> Result<StudyEntry, StoreError> {
        let assignment = self
            .assignment(annotator)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("completed assignment of {annotator} vanished")))?;
        match assignment.completed() {
            PlayState::Completed { redirect, code } => Ok(StudyEntry::Completed { redirect, code }),
            _ => Err(StoreError::Corrupt(format!("completed assignment of {annotator} has no completion"))),
        }
    }

    /// Marks `annotator_id`'s assignment completed at `now` (ms).
    pub async fn complete_assignment(self, player: &PlayerId, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE crowd_assignments SET status = 'completed', ended_at = $1, last_seen_at = $1 WHERE annotator_id = $2")
            .bind(now)
            .bind(player)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Notes that `annotator_id` was seen at `now` (ms), for the time limit.
    pub async fn touch_assignment(self, player: &PlayerId, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE crowd_assignments SET last_seen_at = $1 WHERE annotator_id = $2")
            .bind(now)
            .bind(player)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// How far a crowd participant is, when the player is one whose study is under
    /// way or done (the answer that completes it is still a study's, not the game's).
    pub async fn progress(self, player: &PlayerId) -> Result<Option<CrowdProgress>, StoreError> {
        let row = sqlx::query(
            "SELECT s.name, s.items_target FROM crowd_assignments a JOIN crowd_studies s ON s.id = a.study_id \
             WHERE a.annotator_id = $1 AND a.status IN ('active', 'completed')",
        )
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        let Some(r) = row else { return Ok(None) };
        Ok(Some(CrowdProgress { study: r.try_get(0)?, answered: self.game().score(player).await?.answered, target: r.try_get(1)? }))
    }

    /// The participant gives the study back: its items go to others.
    pub async fn return_assignment(self, player: &PlayerId) -> Result<(), StoreError> {
        let changed =
            sqlx::query("UPDATE crowd_assignments SET status = 'returned', ended_at = $1 WHERE annotator_id = $2 AND status = 'active'")
                .bind(now_ms())
                .bind(player)
                .execute(self.pool())
                .await?
                .rows_affected();
        if changed == 0 {
            return Err(StoreError::Missing(Refusal::new(RefusalKey::NoStudyUnderWay, "you have no study under way")));
        }
        self.changes.pool_changed();
        Ok(())
    }

    /// Marks active assignments idle past their study's time limit as abandoned;
    /// returns how many. The game's requests run it often ([`Store::sweep_abandoned`]),
    /// so it first only reads: a write would queue for the database's one writer even
    /// when nothing is due.
    pub async fn reclaim_abandoned(self) -> Result<u64, StoreError> {
        const IDLE: &str = "status = 'active' AND last_seen_at < $1 - 60000 * \
             (SELECT s.max_minutes FROM crowd_studies s WHERE s.id = crowd_assignments.study_id)";
        let now = now_ms();
        let due: Option<i64> = sqlx::query_scalar(&format!("SELECT 1 FROM crowd_assignments WHERE {IDLE} LIMIT 1"))
            .bind(now)
            .fetch_optional(self.pool())
            .await?;
        if due.is_none() {
            return Ok(0);
        }
        let reclaimed = sqlx::query(&format!("UPDATE crowd_assignments SET status = 'abandoned', ended_at = $1 WHERE {IDLE}"))
            .bind(now)
            .execute(self.pool())
            .await?
            .rows_affected();
        self.changes.pool_changed();
        Ok(reclaimed)
    }

    /// The assignment of `annotator_id`, when they came from a crowd platform.
    pub async fn assignment(self, player: &PlayerId) -> Result<Option<Assignment>, StoreError> {
        let row = sqlx::query(
            "SELECT a.status, s.platform, a.platform_session_id, s.k, s.lang, s.items_target, s.completion_code, s.item_policy \
             FROM crowd_assignments a JOIN crowd_studies s ON s.id = a.study_id WHERE a.annotator_id = $1",
        )
        .bind(player)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            Ok(Assignment {
                status: r.try_get(0)?,
                platform: stored_code(&r, 1, "platform", Platform::parse)?,
                platform_session: r.try_get(2)?,
                k: super::game::to_k(r.try_get(3)?)?,
                lang: r.try_get(4)?,
                items_target: r.try_get(5)?,
                completion_code: r.try_get(6)?,
                policy: stored_code(&r, 7, "item policy", ItemPolicy::parse)?,
            })
        })
        .transpose()
    }
}
