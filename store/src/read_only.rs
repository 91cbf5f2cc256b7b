//! Opening a database only to read it (`report`, `export`, `export-pairs`, `backup`):
//! nothing is created, migrated or written, and a file that is not a Gapwise
//! database is refused at once, with the reason, before any pool is made. The same
//! recognition refuses such a file before the server and the commands that write
//! open it ([`check_before_writing`]), so that nothing converts another program's
//! file into a Gapwise database.
//!
//! - SQLite: the file must be there, readable, a SQLite file (its 16-byte header), and
//!   Gapwise's: its `application_id` is [`APPLICATION_ID`] (set by every writable
//!   opening), or, for a file made before that, it holds the migrations table with
//!   Gapwise's first migration. It is opened with `mode=ro`, and with `immutable`
//!   when no server has it open (no `-wal` file beside it), so that reading leaves no
//!   `-wal` or `-shm` file behind. A database older than this program's migrations is
//!   refused: migrating is a write.
//! - PostgreSQL: every transaction is read-only (`default_transaction_read_only`),
//!   and the database must hold Gapwise's migrations.

use std::path::{Path, PathBuf};

use sqlx::migrate::Migrator;
use sqlx::{AnyConnection, Connection};

use crate::error::StoreError;

/// What a Gapwise SQLite file holds in its header's application id ("Gapw").
pub const APPLICATION_ID: i64 = 0x4761_7077;

/// The header every SQLite file starts with.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

fn not_gapwise(file: &Path, why: &str) -> StoreError {
    StoreError::Invalid(format!("{} is not a Gapwise database ({why})", file.display()))
}

/// The file's first bytes: a SQLite file, and not an empty one.
fn check_header(file: &Path) -> Result<(), StoreError> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let mut f = std::fs::File::open(file).map_err(|e| StoreError::Invalid(format!("cannot read {}: {e}", file.display())))?;
    let read = f.read(&mut head).map_err(|e| StoreError::Invalid(format!("cannot read {}: {e}", file.display())))?;
    match read {
        0 => Err(not_gapwise(file, "an empty file")),
        _ if &head != SQLITE_HEADER => Err(not_gapwise(file, "not a SQLite file")),
        _ => Ok(()),
    }
}

/// A SQLite error's message, and a word on what it means for a file we only read.
fn sqlite_error(file: &Path, e: &sqlx::Error) -> StoreError {
    file_refused(file, "read", e)
}

/// The refusal of SQLite `file` that cannot be `done` (read, written), naming it, with
/// SQLite's message.
pub(crate) fn file_refused(file: &Path, done: &str, e: &sqlx::Error) -> StoreError {
    let message = e.as_database_error().map_or_else(|| e.to_string(), |d| d.message().to_owned());
    StoreError::Invalid(format!("{} cannot be {done}: {message}", file.display()))
}

/// The URL that reads the SQLite `file` (see the module), once the file is checked:
/// a SQLite file of Gapwise's, every migration of `migrator` applied.
pub(crate) async fn sqlite_url(file: &Path, migrator: &Migrator) -> Result<String, StoreError> {
    if !file.is_file() {
        return Err(StoreError::NotFound(format!("no database at {}", file.display())));
    }
    let applied = gapwise_migrations(file, migrator).await?;
    up_to_date(migrator, &applied, &file.display().to_string())?;
    reading_url(file)
}

/// Refuses, before anything writes to it, a SQLite `file` that is there and holds
/// something other than a Gapwise database (another program's database, random
/// bytes, a file too damaged to read), with its name and the reason; the file is
/// left as it was. No file, or an empty one, becomes a new Gapwise database; a
/// Gapwise database behind `migrator` is brought up to date by the opening.
pub(crate) async fn check_before_writing(file: &Path, migrator: &Migrator) -> Result<(), StoreError> {
    match std::fs::metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StoreError::Invalid(format!("cannot read {}: {e}", file.display()))),
        Ok(meta) if !meta.is_file() => Err(not_gapwise(file, "not a file")),
        Ok(meta) if meta.len() == 0 => Ok(()),
        Ok(_) => gapwise_migrations(file, migrator).await.map(|_| ()),
    }
}

/// The URL that reads `file` without writing: `mode=ro`, and `immutable` when no
/// server has it open (no `-wal` file beside it).
fn reading_url(file: &Path) -> Result<String, StoreError> {
    let mut wal = file.as_os_str().to_owned();
    wal.push("-wal");
    let immutable = !PathBuf::from(wal).exists();
    sqlite_url_of(file, if immutable { "mode=ro&immutable=true" } else { "mode=ro" })
}

/// The migrations applied to the SQLite `file`, once it is known to be a Gapwise
/// database (see the module), read without writing; else the refusal, naming the
/// file: not a SQLite file, not Gapwise's, or unreadable (with SQLite's reason).
async fn gapwise_migrations(file: &Path, migrator: &Migrator) -> Result<Vec<i64>, StoreError> {
    check_header(file)?;
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(&reading_url(file)?).await.map_err(|e| sqlite_error(file, &e))?;
    let application_id: i64 = sqlx::query_scalar("PRAGMA application_id").fetch_one(&mut conn).await.map_err(|e| sqlite_error(file, &e))?;
    let has_migrations: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| sqlite_error(file, &e))?;
    let applied: Vec<i64> = if has_migrations > 0 {
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
            .fetch_all(&mut conn)
            .await
            .map_err(|e| sqlite_error(file, &e))?
    } else {
        Vec::new()
    };
    conn.close().await.map_err(|e| sqlite_error(file, &e))?;
    let first = migrator.iter().next().map(|m| m.version);
    if application_id != APPLICATION_ID && !first.is_some_and(|v| applied.contains(&v)) {
        return Err(not_gapwise(file, "it holds no Gapwise schema"));
    }
    Ok(applied)
}

/// Refuses a database that misses a migration of this program (applying it would
/// write).
fn up_to_date(migrator: &Migrator, applied: &[i64], database: &str) -> Result<(), StoreError> {
    let missing = migrator.iter().filter(|m| !applied.contains(&m.version)).count();
    if missing > 0 {
        return Err(StoreError::Invalid(format!(
            "{database} was made by an older Gapwise ({missing} migrations behind this program): \
             start `gapwise serve` on it once, which brings it up to date, then read it"
        )));
    }
    Ok(())
}

/// The URL that reads the PostgreSQL database `url` in read-only transactions, once
/// it is checked to be Gapwise's and up to date.
pub(crate) async fn postgres_url(url: &str, migrator: &Migrator) -> Result<String, StoreError> {
    let sep = if url.contains('?') { '&' } else { '?' };
    let url = format!("{url}{sep}options=-c%20default_transaction_read_only%3Don");
    sqlx::any::install_default_drivers();
    let mut conn = AnyConnection::connect(&url).await?;
    let has_migrations: bool = sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL").fetch_one(&mut conn).await?;
    if !has_migrations {
        return Err(StoreError::Invalid("the PostgreSQL database holds no Gapwise schema (no migrations table)".into()));
    }
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success").fetch_all(&mut conn).await?;
    conn.close().await?;
    up_to_date(migrator, &applied, "the PostgreSQL database")?;
    Ok(url)
}

/// The URL by which sqlx opens the SQLite `file` with `options` (`mode=ro&...`, or
/// none): sqlx percent-decodes a URL's path and ends it at its first `?`, so the
/// file's `%` and `?` go escaped and sqlx opens that very file. A name that is not
/// UTF-8 cannot be put in a URL and is refused by name.
pub fn sqlite_url_of(file: &std::path::Path, options: &str) -> Result<String, StoreError> {
    let name = file.to_str().ok_or_else(|| StoreError::Invalid(format!("{}: a SQLite file's name must be UTF-8 text", file.display())))?;
    let escaped = name.replace('%', "%25").replace('?', "%3F");
    Ok(if options.is_empty() { format!("sqlite://{escaped}") } else { format!("sqlite://{escaped}?{options}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_that_are_not_sqlite_are_refused_by_name() {
        let dir = tempfile::tempdir().expect("tmp");
        let empty = dir.path().join("empty.db");
        std::fs::write(&empty, b"").expect("write");
        assert!(check_header(&empty).expect_err("empty").to_string().contains("empty.db is not a Gapwise database (an empty file)"));
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, b"just some notes, long enough").expect("write");
        assert!(check_header(&text).expect_err("text").to_string().contains("not a SQLite file"));
    }
}
