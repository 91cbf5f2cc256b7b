//! Backing the database up while the game runs, and restoring a backup.
//!
//! - SQLite: `VACUUM INTO` writes a transactionally consistent copy while readers and
//!   the writer go on (the same guarantee as SQLite's online backup API, which sqlx
//!   does not expose; the copy comes out compacted). Restoring needs the server
//!   stopped: the copy is checked with `PRAGMA integrity_check`, then moved into the
//!   database's place, and the old file's WAL and shared-memory files are removed.
//! - PostgreSQL: `pg_dump --format=custom` (one consistent snapshot, online) and
//!   `pg_restore --clean --if-exists --no-owner --single-transaction`, so a restore
//!   that fails changes nothing. The PostgreSQL client tools must be on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use gapwise_store::{sqlite_file, sqlite_url_of, Backend, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} already exists; a backup never overwrites a file")]
    Exists(PathBuf),
    #[error("{0} is not a sound Gapwise database: {1}")]
    NotABackup(PathBuf, String),
    #[error("{tool} failed: {detail}")]
    Tool { tool: &'static str, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Writes a backup of the database `store` (at `url`) to the new file `file`.
pub async fn backup(store: &Store, url: &str, file: &Path) -> Result<(), BackupError> {
    if file.exists() {
        return Err(BackupError::Exists(file.to_owned()));
    }
    match store.backend() {
        Backend::Sqlite => {
            let target = file.to_str().ok_or_else(|| BackupError::NotABackup(file.to_owned(), "the path is not UTF-8".into()))?;
            sqlx::query(&format!("VACUUM INTO '{}'", target.replace('\'', "''"))).execute(store.pool()).await.map_err(StoreError::from)?;
            Ok(())
        }
        Backend::Postgres => run_tool("pg_dump", &["--format=custom", "--file", &file.to_string_lossy(), url]),
    }
}

/// Replaces the database at `url` by the backup `file`. For SQLite, stop the server
/// first; for PostgreSQL the database must exist (it may be empty).
pub async fn restore(url: &str, file: &Path) -> Result<(), BackupError> {
    match url.parse::<Backend>()? {
        Backend::Sqlite => {
            check_sqlite_backup(file).await?;
            let target = sqlite_file(url);
            let staged = target.with_extension("restoring");
            std::fs::copy(file, &staged)?;
            for suffix in ["-wal", "-shm"] {
                let mut side = target.clone().into_os_string();
                side.push(suffix);
                match std::fs::remove_file(&side) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                    _ => {}
                }
            }
            std::fs::rename(&staged, &target)?;
            Ok(())
        }
        Backend::Postgres => run_tool(
            "pg_restore",
            &["--clean", "--if-exists", "--no-owner", "--single-transaction", "--dbname", url, &file.to_string_lossy()],
        ),
    }
}

/// A SQLite backup passes the integrity check and holds Gapwise's migrations.
async fn check_sqlite_backup(file: &Path) -> Result<(), BackupError> {
    use sqlx::Connection;
    let not_a_backup = |why: String| BackupError::NotABackup(file.to_owned(), why);
    if !file.is_file() {
        return Err(not_a_backup("no such file".into()));
    }
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&sqlite_url_of(file, "mode=ro")?).await.map_err(|e| not_a_backup(e.to_string()))?;
    let check: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut conn).await.map_err(|e| not_a_backup(e.to_string()))?;
    if check != "ok" {
        return Err(not_a_backup(check));
    }
    let migrations: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(&mut conn).await.map_err(|e| not_a_backup(e.to_string()))?;
    if migrations == 0 {
        return Err(not_a_backup("it holds no migrations".into()));
    }
    conn.close().await.map_err(|e| not_a_backup(e.to_string()))?;
    Ok(())
}

/// Runs a PostgreSQL client tool; its error output becomes the error.
fn run_tool(tool: &'static str, args: &[&str]) -> Result<(), BackupError> {
    let out = Command::new(tool)
        .args(args)
        .output()
        .map_err(|e| BackupError::Tool { tool, detail: format!("cannot run it ({e}); install the PostgreSQL client tools") })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(BackupError::Tool { tool, detail: String::from_utf8_lossy(&out.stderr).trim().to_owned() })
    }
}
