//! Researchers and admins: accounts made from the command line (argon2id passwords),
//! their sign-in sessions for the research pages, and API tokens for scripted export.

use sqlx::Row;

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

/// Where a staff token is kept: API tokens, or sign-in sessions.
enum TokenTable {
    ApiTokens,
    Sessions,
}

impl StaffAccounts<'_> {
    /// Creates a researcher or admin account; the name must be new.
    pub async fn create(self, name: &str, role: Role, password: &str) -> Result<(), StoreError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
            return Err(StoreError::Invalid("a staff name needs 1 to 64 printable characters".into()));
        }
        let hash = hash_password(password).await?;
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

    /// Makes an API token for a staff member and returns it; only its hash is kept.
    pub async fn create_api_token(self, name: &str, label: &str) -> Result<String, StoreError> {
        let exists: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM staff WHERE name = $1").bind(name).fetch_one(self.pool()).await?;
        if exists == 0 {
            return Err(StoreError::NotFound(format!("no staff account named {name:?}")));
        }
        let token = new_token();
        sqlx::query("INSERT INTO api_tokens (token_hash, staff_name, label, created_at) VALUES ($1, $2, $3, $4)")
            .bind(hash_token(&token))
            .bind(name)
            .bind(label)
            .bind(now_ms())
            .execute(self.pool())
            .await?;
        Ok(token)
    }

    /// The staff member an API token belongs to, if it is a known token.
    pub async fn for_token(self, token: &str) -> Result<Option<Staff>, StoreError> {
        self.holding(TokenTable::ApiTokens, token).await
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
        sqlx::query("INSERT INTO staff_sessions (token_hash, staff_name, created_at) VALUES ($1, $2, $3)")
            .bind(hash_token(&token))
            .bind(name.trim())
            .bind(now_ms())
            .execute(self.pool())
            .await?;
        Ok(token)
    }

    /// The staff member a staff-session cookie token belongs to, if any.
    pub async fn session(self, token: &str) -> Result<Option<Staff>, StoreError> {
        self.holding(TokenTable::Sessions, token).await
    }

    async fn holding(self, table: TokenTable, token: &str) -> Result<Option<Staff>, StoreError> {
        let table = match table {
            TokenTable::ApiTokens => "api_tokens",
            TokenTable::Sessions => "staff_sessions",
        };
        let row =
            sqlx::query(&format!("SELECT s.name, s.role FROM {table} t JOIN staff s ON s.name = t.staff_name WHERE t.token_hash = $1"))
                .bind(hash_token(token))
                .fetch_optional(self.pool())
                .await?;
        row.map(|r| Ok(Staff { name: r.try_get(0)?, role: r.try_get::<String, _>(1)?.parse()? })).transpose()
    }

    /// Ends a staff session (sign out).
    pub async fn end_session(self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM staff_sessions WHERE token_hash = $1").bind(hash_token(token)).execute(self.pool()).await?;
        Ok(())
    }
}
