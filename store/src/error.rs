use std::sync::Arc;

use gapwise_model::{LineError, Refusal, RefusalKey};

/// Everything that can go wrong in the store. The HTTP edge maps these to statuses:
/// `NotFound` and `Missing` 404, `Invalid`, `Refused` and `Import` 422,
/// `Unauthorized` and `Denied` 401, `Db`, `Sqlite` and `Migrate` 500 (logged, never
/// shown), or 503 when [`StoreError::is_unavailable`].
/// `Refused`, `Missing` and `Denied` are what players meet through the pages, in
/// their language; the others are for scripts, staff and the command line.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Refused(Refusal),
    #[error("{0}")]
    Missing(Refusal),
    #[error("{0}")]
    Denied(Refusal),
    #[error("the file was not imported; {} problem(s):\n{}", .0.len(), join_lines(.0))]
    Import(Vec<LineError>),
    /// A file the store or a report writes or reads failed: the server's fault, not
    /// the request's.
    #[error("{0}")]
    Io(String),
    /// A stored row the code cannot read (a code it does not know, a number out of
    /// its range, offsets outside their sentence): the database's fault, not the
    /// request's.
    #[error("the stored data is inconsistent: {0}")]
    Corrupt(String),
    /// Work of the store's own failed (the password hasher, a worker thread): the
    /// server's fault, not the request's.
    #[error("{0}")]
    Internal(String),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// From the SQLite game writer's own connection (see `game_writes`); shared
    /// by every request of a batch that failed.
    #[error("database error: {0}")]
    Sqlite(Arc<rusqlite::Error>),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(Arc::new(e))
    }
}

fn join_lines(errors: &[LineError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

impl StoreError {
    /// Requests of one player raced for the same row too often.
    pub fn busy() -> StoreError {
        StoreError::Refused(Refusal::new(RefusalKey::Busy, "too many concurrent requests; try again"))
    }

    /// A crowd participant's study was given back or timed out.
    pub fn study_returned() -> StoreError {
        StoreError::Refused(Refusal::new(
            RefusalKey::StudyReturned,
            "you returned this study or its time ran out, so its items went to others",
        ))
    }

    /// The database cannot take the request just now, through no fault of the request:
    /// it is unreachable (connection lost or refused, no connection free in time) or
    /// out of room (SQLite's SQLITE_FULL or an I/O error on write; PostgreSQL's
    /// insufficient resources, class 53, or a connection exception, class 08, or the
    /// server shutting down, 57P). Nothing was stored, and a retry later may succeed.
    pub fn is_unavailable(&self) -> bool {
        let e = match self {
            StoreError::Db(e) => e,
            StoreError::Sqlite(e) => return e.sqlite_error().is_some_and(|e| sqlite_unavailable(e.extended_code.into())),
            _ => return false,
        };
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|code| unavailable_code(&code)),
            _ => false,
        }
    }
}

/// Error codes of [`StoreError::is_unavailable`]: SQLite's (extended) result codes are
/// numbers, PostgreSQL's SQLSTATEs five characters.
fn unavailable_code(code: &str) -> bool {
    match code.parse::<i64>() {
        Ok(extended) => sqlite_unavailable(extended),
        Err(_) => code.starts_with("53") || code.starts_with("08") || code.starts_with("57P"),
    }
}

/// Whether a SQLite (extended) result code is an I/O error or a full disk.
fn sqlite_unavailable(extended: i64) -> bool {
    const SQLITE_IOERR: i64 = 10;
    const SQLITE_FULL: i64 = 13;
    [SQLITE_IOERR, SQLITE_FULL].contains(&(extended & 0xff))
}
