//! Pseudonymous annotators, their cookie sessions and optional passwords.

use gapwise_model::PlayerId;
use sqlx::Row;

use super::game_writes::Write;
use super::lifetimes::Cutoffs;
use super::password_rules::PasswordRules;
use super::secrets::{hash_password, hash_token, new_token, random_code, verify_password};
use super::session::{Player, Session};
use crate::error::StoreError;
use crate::sql::now_ms;
use gapwise_model::{Refusal, RefusalKey};

crate::store::area!(
    /// Players and their sign-in: annotators, sessions, passwords.
    Players,
    players
);

/// The version of the consent text a new annotator agrees to; stored with them.
pub const CONSENT_VERSION: &str = "2026-11-v1";

const PSEUDONYM_LEN: usize = 10;

impl Players<'_> {
    /// Creates an annotator who consented to `consent_version`, with a fresh
    /// pseudonym. Like a session, through the game writer: on SQLite it queues with
    /// the game's writes instead of waiting for their write lock.
    pub async fn create_player(self, consent_version: &str) -> Result<Player, StoreError> {
        for _ in 0..5 {
            let annotator = Player { id: PlayerId::new(uuid::Uuid::new_v4().to_string()), pseudonym: random_code(PSEUDONYM_LEN) };
            let new = Write::NewPlayer {
                id: annotator.id.clone(),
                pseudonym: annotator.pseudonym.clone(),
                consent_version: consent_version.to_owned(),
                created_at: now_ms(),
            };
            if self.writes.write(new).await? {
                return Ok(annotator);
            }
        }
        Err(StoreError::Refused(Refusal::new(RefusalKey::Busy, "could not draw a free pseudonym; try again")))
    }

    /// Opens a session for the annotator; returns the token for the cookie.
    pub async fn create_session(self, player: &PlayerId) -> Result<String, StoreError> {
        let token = new_token();
        self.writes.write(Write::NewSession { token_hash: hash_token(&token), player: player.clone(), created_at: now_ms() }).await?;
        Ok(token)
    }

    /// The session a cookie token belongs to, if any and if it has not ended (a year
    /// after it was opened, see [`crate::lifetimes`]). On SQLite it is read on the
    /// game writer's connection with its next batch (see [`super::game_writes`]).
    pub async fn session(self, token: &str) -> Result<Option<Session>, StoreError> {
        let opened_after = Cutoffs::now().player_opened;
        Ok(self.writes.session(hash_token(token)).await?.filter(|session| session.opened_at >= opened_after))
    }

    /// Ends a session (sign out).
    pub async fn delete_session(self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(hash_token(token)).execute(self.pool()).await?;
        Ok(())
    }

    /// Sets the optional password that lets the player of `session` resume on
    /// another device: one that [`PasswordRules::Player`] takes, hashed with argon2id
    /// (see [`hash_password`]). A password set before must be given as `current`
    /// (else the refusal `PasswordCurrent`); the player's other sessions end, so that
    /// whoever knew the old password is signed out, and this one goes on.
    pub async fn change_password(self, session: &Session, current: Option<&str>, password: &str) -> Result<(), StoreError> {
        let player = &session.player;
        let stored = sqlx::query_scalar::<_, Option<String>>("SELECT password_hash FROM annotators WHERE id = $1")
            .bind(&player.id)
            .fetch_optional(self.pool())
            .await?
            .flatten();
        if stored.is_some() && !verify_password(stored, current.unwrap_or_default()).await {
            return Err(StoreError::Refused(Refusal::new(RefusalKey::PasswordCurrent, "type your current password to change it")));
        }
        let hash = hash_password(password, PasswordRules::Player, &[player.pseudonym.as_str()]).await?;
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE annotators SET password_hash = $1 WHERE id = $2").bind(hash).bind(&player.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM sessions WHERE annotator_id = $1 AND token_hash <> $2")
            .bind(&player.id)
            .bind(&session.token_hash)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Checks a pseudonym (in any case) and password; on success opens a session and
    /// returns its token.
    /// The same error, after the same argon2 work, is given for an unknown pseudonym
    /// and a wrong password.
    pub async fn login(self, pseudonym: &str, password: &str) -> Result<String, StoreError> {
        let denied = || StoreError::Denied(Refusal::new(RefusalKey::Login, "unknown pseudonym or wrong password"));
        let row = sqlx::query("SELECT id, password_hash FROM annotators WHERE LOWER(pseudonym) = $1")
            .bind(pseudonym.trim().to_lowercase())
            .fetch_optional(self.pool())
            .await?;
        let (id, stored): (Option<PlayerId>, Option<String>) = match row {
            Some(row) => (Some(row.try_get(0)?), row.try_get(1)?),
            None => (None, None),
        };
        // an unknown pseudonym or one without a password costs a decoy check too
        let ok = verify_password(stored, password).await;
        match id {
            Some(id) if ok => self.create_session(&id).await,
            _ => Err(denied()),
        }
    }
}
