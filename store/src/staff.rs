//! Researchers and admins: accounts made and removed from the command line (argon2id
//! passwords), their sign-in sessions for the research pages, and API tokens for
//! scripted export, each ending at its time (see [`crate::lifetimes`]).

use sqlx::Row;

use super::lifetimes::{token_expiry, Cutoffs, MAX_TOKEN_DAYS};
use super::password_rules::PasswordRules;
use super::secrets::{hash_password, hash_token, new_token, verify_password};
use crate::error::StoreError;
use crate::sql::now_ms;

crate::store::area!(
    /// Staff accounts, their sign-in and the audit log of what they did.
    StaffAccounts,
    staff
);

/// What a staff member may do. Admins may do everything researchers may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Researcher,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Researcher => "researcher",
            Role::Admin => "admin",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "researcher" => Ok(Role::Researcher),
            "admin" => Ok(Role::Admin),
            other => Err(StoreError::Invalid(format!("unknown role {other:?} (researcher or admin)"))),
        }
    }
}

/// A staff member, as an API token identifies them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staff {
    pub name: String,
    pub role: Role,
}

/// An API token as `gapwise token --list` shows it: never the token, only its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiToken {
    /// The first [`TOKEN_ID_CHARS`] hex digits of the token's SHA-256: enough to name
    /// it, nothing to use it with.
    pub id: String,
    /// The staff account it works for.
    pub staff: String,
    /// What it is for, as its maker said.
    pub label: String,
    /// When it was made and when it stops working (Unix ms).
    pub created_at: i64,
    pub expires_at: i64,
}

/// The length of an [`ApiToken`]'s id.
pub const TOKEN_ID_CHARS: usize = 12;

/// The columns [`ApiToken::from_row`] reads, and the token's hash last.
const TOKEN_COLUMNS: &str = "SELECT staff_name, label, created_at, expires_at, token_hash FROM api_tokens";

impl ApiToken {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<ApiToken, StoreError> {
        let hash: String = row.try_get(4)?;
        Ok(ApiToken {
            id: hash.get(..TOKEN_ID_CHARS).unwrap_or(&hash).to_owned(),
            staff: row.try_get(0)?,
            label: row.try_get(1)?,
            created_at: row.try_get(2)?,
            expires_at: row.try_get(3)?,
        })
    }
}

/// Where a staff token is kept: API tokens, or sign-in sessions.
#[derive(Clone, Copy, Debug)]
enum TokenTable {
    ApiTokens,
    Sessions,
}

impl TokenTable {
    /// The table, and the condition (on its row `t`, from `$2` on) under which a
    /// token of it is live at `at`, with the condition's values.
    fn live(self, at: Cutoffs) -> (&'static str, &'static str, Vec<i64>) {
        match self {
            TokenTable::ApiTokens => ("api_tokens", "t.expires_at > $2", vec![at.now]),
            TokenTable::Sessions => ("staff_sessions", "t.created_at >= $2 AND t.last_seen_at >= $3", vec![at.staff_opened, at.staff_seen]),
        }
    }
}

impl StaffAccounts<'_> {
    /// Creates a researcher or admin account; the name must be new, the password
    /// one that [`PasswordRules::Staff`] takes.
    pub async fn create(self, name: &str, role: Role, password: &str) -> Result<(), StoreError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
            return Err(StoreError::Invalid("a staff name needs 1 to 64 printable characters".into()));
        }
        let hash = hash_password(password, PasswordRules::Staff, &[name]).await?;
        let inserted =
            sqlx::query("INSERT INTO staff (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(role.as_str())
                .bind(hash)
                .bind(now_ms())
                .execute(self.pool())
                .await?;
        if inserted.rows_affected() == 0 {
            return Err(StoreError::Invalid(format!("a staff account named {name:?} already exists")));
        }
        Ok(())
    }

    /// Gives a staff account a new password (one that [`PasswordRules::Staff`] takes)
    /// and ends all its sessions, so that whoever knew the old one is signed out.
    pub async fn set_password(self, name: &str, password: &str) -> Result<(), StoreError> {
        let hash = hash_password(password, PasswordRules::Staff, &[name]).await?;
        let mut tx = self.pool().begin().await?;
        let changed = sqlx::query("UPDATE staff SET password_hash = $1 WHERE name = $2").bind(hash).bind(name).execute(&mut *tx).await?;
        if changed.rows_affected() == 0 {
            return Err(no_such_account(name));
        }
        sqlx::query("DELETE FROM staff_sessions WHERE staff_name = $1").bind(name).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Removes a staff account with its sessions and API tokens: none of them works
    /// from now on. What the account did stays in the audit log under its name.
    pub async fn remove(self, name: &str) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for table in ["api_tokens", "staff_sessions"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE staff_name = $1")).bind(name).execute(&mut *tx).await?;
        }
        let removed = sqlx::query("DELETE FROM staff WHERE name = $1").bind(name).execute(&mut *tx).await?;
        if removed.rows_affected() == 0 {
            return Err(no_such_account(name));
        }
        tx.commit().await?;
        Ok(())
    }

    /// Makes an API token for a staff member that works for `days` days and returns
    /// it; only its hash is kept.
    pub async fn create_api_token(self, name: &str, label: &str, days: u32) -> Result<String, StoreError> {
        if !(1..=MAX_TOKEN_DAYS).contains(&days) {
            return Err(StoreError::Invalid(format!("a token lasts 1 to {MAX_TOKEN_DAYS} days, not {days}")));
        }
        let exists: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM staff WHERE name = $1").bind(name).fetch_one(self.pool()).await?;
        if exists == 0 {
            return Err(no_such_account(name));
        }
        let token = new_token();
        let now = now_ms();
        sqlx::query("INSERT INTO api_tokens (token_hash, staff_name, label, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(hash_token(&token))
            .bind(name)
            .bind(label)
            .bind(now)
            .bind(token_expiry(now, days))
            .execute(self.pool())
            .await?;
        Ok(token)
    }

    /// The API tokens of staff member `name`, or of everyone, by account and age.
    pub async fn api_tokens(self, name: Option<&str>) -> Result<Vec<ApiToken>, StoreError> {
        let whose = if name.is_some() { " WHERE staff_name = $1" } else { "" };
        let sql = format!("{TOKEN_COLUMNS}{whose} ORDER BY staff_name, created_at");
        let mut query = sqlx::query::<sqlx::Any>(&sql);
        if let Some(name) = name {
            query = query.bind(name);
        }
        let rows = query.fetch_all(self.pool()).await?;
        rows.iter().map(ApiToken::from_row).collect()
    }

    /// Revokes an API token at once: the one whose id ([`ApiToken::id`]) or whose
    /// token itself is `id_or_token`. Returns what it was.
    pub async fn revoke_api_token(self, id_or_token: &str) -> Result<ApiToken, StoreError> {
        let wanted = id_or_token.trim();
        let rows = sqlx::query(&format!("{TOKEN_COLUMNS} WHERE SUBSTR(token_hash, 1, {TOKEN_ID_CHARS}) = $1 OR token_hash = $2"))
            .bind(wanted)
            .bind(hash_token(wanted))
            .fetch_all(self.pool())
            .await?;
        let row = match rows.as_slice() {
            [row] => row,
            [] => return Err(StoreError::NotFound(format!("no API token has the id {wanted:?} (see gapwise token --list)"))),
            _ => return Err(StoreError::Invalid(format!("several API tokens match {wanted:?}: give the token itself"))),
        };
        let hash: String = row.try_get(4)?;
        sqlx::query("DELETE FROM api_tokens WHERE token_hash = $1").bind(&hash).execute(self.pool()).await?;
        ApiToken::from_row(row)
    }

    /// The staff member an API token belongs to, if it is a known token that has not
    /// expired.
    pub async fn for_token(self, token: &str) -> Result<Option<Staff>, StoreError> {
        self.holding(TokenTable::ApiTokens, &hash_token(token)).await
    }

    /// Checks a staff name and password; on success opens a staff session and returns
    /// its token (for the cookie). The same error is given for an unknown name and a
    /// wrong password.
    pub async fn login(self, name: &str, password: &str) -> Result<String, StoreError> {
        let denied = || StoreError::Unauthorized("unknown name or wrong password".into());
        let stored: Option<String> =
            sqlx::query_scalar("SELECT password_hash FROM staff WHERE name = $1").bind(name.trim()).fetch_optional(self.pool()).await?;
        if !verify_password(stored, password).await {
            return Err(denied());
        }
        let token = new_token();
        let now = now_ms();
        sqlx::query("INSERT INTO staff_sessions (token_hash, staff_name, created_at, last_seen_at) VALUES ($1, $2, $3, $3)")
            .bind(hash_token(&token))
            .bind(name.trim())
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(token)
    }

    /// The staff member a staff-session cookie token belongs to, if the session has
    /// not ended (see [`crate::lifetimes`]); the session is seen now, which keeps it
    /// from ending idle.
    pub async fn session(self, token: &str) -> Result<Option<Staff>, StoreError> {
        let hash = hash_token(token);
        let staff = self.holding(TokenTable::Sessions, &hash).await?;
        if staff.is_some() {
            sqlx::query("UPDATE staff_sessions SET last_seen_at = $1 WHERE token_hash = $2")
                .bind(now_ms())
                .bind(&hash)
                .execute(self.pool())
                .await?;
        }
        Ok(staff)
    }

    /// The staff member holding the live token of `table` whose hash is `token_hash`.
    async fn holding(self, table: TokenTable, token_hash: &str) -> Result<Option<Staff>, StoreError> {
        let (table, live, values) = table.live(Cutoffs::now());
        let sql = format!("SELECT s.name, s.role FROM {table} t JOIN staff s ON s.name = t.staff_name WHERE t.token_hash = $1 AND {live}");
        let mut query = sqlx::query::<sqlx::Any>(&sql).bind(token_hash);
        for value in values {
            query = query.bind(value);
        }
        let row = query.fetch_optional(self.pool()).await?;
        row.map(|r| Ok(Staff { name: r.try_get(0)?, role: r.try_get::<String, _>(1)?.parse()? })).transpose()
    }

    /// Ends a staff session (sign out).
    pub async fn end_session(self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM staff_sessions WHERE token_hash = $1").bind(hash_token(token)).execute(self.pool()).await?;
        Ok(())
    }
}

/// The error for a staff name that names no account.
fn no_such_account(name: &str) -> StoreError {
    StoreError::NotFound(format!("no staff account named {name:?}"))
}
