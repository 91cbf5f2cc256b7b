use std::sync::Arc;

use gapwise_model::{LineError, Refusal, RefusalKey};

/// Everything that can go wrong in the store. The HTTP edge maps these to statuses:
/// `NotFound` and `Missing` 404, `Invalid`, `Refused` and `Import` 422,
/// `Unauthorized` and `Denied` 401, `Busy` 503 with `Retry-After`, `Db`, `Sqlite`
/// and `Migrate` 500 (logged, never shown), or 503 with `Retry-After` when
/// [`StoreError::is_unavailable`].
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
    /// The database stayed busy or locked past the wait for it (SQLite's
    /// SQLITE_BUSY or SQLITE_LOCKED: another connection or program holds its lock;
    /// PostgreSQL's lock_not_available, 55P03), or no connection of the pool came free
    /// in time: nothing was done, and a retry later may succeed. Holds the cause.
    #[error("the database is busy: {0}")]
    Busy(String),
    /// Any other error of sqlx's (see `From<sqlx::Error>`, which sorts out [`StoreError::Busy`]).
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// From the SQLite game writer's own connection (see `game_writes`); shared
    /// by every request of a batch that failed.
    #[error("database error: {0}")]
    Sqlite(Arc<rusqlite::Error>),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// rusqlite's error (the SQLite game writer's), with a busy or locked database made
/// [`StoreError::Busy`].
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        if e.sqlite_error().is_some_and(|s| sqlite_busy(s.extended_code.into())) {
            StoreError::Busy(e.to_string())
        } else {
            StoreError::Sqlite(Arc::new(e))
        }
    }
}

/// sqlx's error, with a busy or locked database and a pool with no connection free in
/// time made [`StoreError::Busy`].
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        let busy = match &e {
            sqlx::Error::PoolTimedOut => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|code| busy_code(&code)),
            _ => false,
        };
        if busy {
            StoreError::Busy(e.to_string())
        } else {
            StoreError::Db(e)
        }
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

    /// Whether the database itself failed (busy, damaged, unreadable, a failed
    /// migration) rather than refused what was asked: such an error's words name no
    /// database, so a caller that knows which one names it.
    pub fn is_database_failure(&self) -> bool {
        matches!(self, StoreError::Busy(_) | StoreError::Db(_) | StoreError::Sqlite(_) | StoreError::Migrate(_) | StoreError::Corrupt(_))
    }

    /// The database cannot take the request just now, through no fault of the request:
    /// it is busy ([`StoreError::Busy`], or the SQLite game writer's SQLITE_BUSY or
    /// SQLITE_LOCKED), unreachable (connection lost or refused) or
    /// out of room (SQLite's SQLITE_FULL or an I/O error on write; PostgreSQL's
    /// insufficient resources, class 53, or a connection exception, class 08, or the
    /// server shutting down, 57P). Nothing was stored, and a retry later may succeed.
    pub fn is_unavailable(&self) -> bool {
        let e = match self {
            StoreError::Busy(_) => return true,
            StoreError::Db(e) => e,
            StoreError::Sqlite(e) => {
                return e.sqlite_error().is_some_and(|e| sqlite_unavailable(e.extended_code.into()) || sqlite_busy(e.extended_code.into()))
            }
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

/// Whether a database error code says the database was busy or locked: SQLite's
/// (extended) result codes are numbers, PostgreSQL's SQLSTATEs five characters.
fn busy_code(code: &str) -> bool {
    match code.parse::<i64>() {
        Ok(extended) => sqlite_busy(extended),
        Err(_) => code == "55P03",
    }
}

/// Whether a SQLite (extended) result code is SQLITE_BUSY or SQLITE_LOCKED.
fn sqlite_busy(extended: i64) -> bool {
    const SQLITE_BUSY: i64 = 5;
    const SQLITE_LOCKED: i64 = 6;
    [SQLITE_BUSY, SQLITE_LOCKED].contains(&(extended & 0xff))
}

/// Whether a SQLite (extended) result code is an I/O error or a full disk.
fn sqlite_unavailable(extended: i64) -> bool {
    const SQLITE_IOERR: i64 = 10;
    const SQLITE_FULL: i64 = 13;
    [SQLITE_IOERR, SQLITE_FULL].contains(&(extended & 0xff))
}
