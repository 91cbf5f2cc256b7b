//! The game's writes on SQLite: one thread owns the one writer connection (opened
//! with rusqlite, not through sqlx's pool) and commits all the jobs waiting for it
//! in one transaction (a group commit).
//! - One commit per write appended every page a row touched (table and index pages)
//!   to the WAL once per row; a batch appends each page once for all its rows.
//! - The thread runs the statements itself. Through sqlx every statement, and
//!   every row it returned, crossed to the connection's own thread and back: on
//!   a 2-core machine those hand-overs, not SQLite, took most of a batch's time.
//! - Sessions are read there too, in the batch: a reader connection of the pool
//!   drops its page cache whenever the database changed, so under load each
//!   session read read its pages again, after a hand-over of its own. In the batch
//!   it sees every write committed before it.
//! - A statement that fails undoes only itself and fails only its own request; when
//!   the transaction itself fails (a full disk), every request of the batch fails
//!   and nothing of it is stored.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::jobs::{closed, gather, Job, Write};
use super::rows::Value;
use crate::error::StoreError;
use crate::session::{Session, SESSION_BY_TOKEN};

/// Every SQLite connection's settings (the store pool's and the writer's). WAL
/// lets readers run beside the one writer; a busy writer is waited for. 4 KiB pages (for a new file; an existing one keeps
/// its own): every game round reads a few pages that the last commit made stale in
/// the connection's cache, and appends the ones it changes to the WAL, so 16 KiB
/// pages made rounds about a quarter slower (1,586 against 2,149 answers/s in the
/// load test), though a large corpus import writes fewer of them.
pub(crate) const SQLITE_PRAGMAS: &str = "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
     PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;";

/// What the writer connection sets besides the pool's pragmas: its commits never
/// checkpoint the WAL (a commit that does copies megabytes first, and every write
/// queued behind it waits; the store's checkpoint task does that beside it), and
/// its statement journals (the pages a statement changes, kept until it ends, so
/// that a failed statement undoes only itself) are held in memory.
const WRITER_PRAGMAS: &str = "PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY;";

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value as Sql};
        Ok(match *self {
            Value::Text(text) | Value::MaybeText(Some(text)) => ToSqlOutput::from(text),
            Value::Int(n) | Value::MaybeInt(Some(n)) => ToSqlOutput::from(n),
            Value::MaybeInt(None) | Value::MaybeText(None) => ToSqlOutput::Owned(Sql::Null),
        })
    }
}

/// Opens the SQLite database `file` on a thread of its own, which runs the jobs
/// sent to the queue it returns.
pub(super) async fn start(file: PathBuf) -> Result<mpsc::UnboundedSender<Job>, StoreError> {
    let (jobs, waiting) = mpsc::unbounded_channel();
    let (opened, open_result) = oneshot::channel();
    std::thread::Builder::new()
        .name("gapwise-writer".into())
        .spawn(move || match open_writer(&file) {
            Ok(conn) => {
                let _ = opened.send(Ok(()));
                commit_batches(conn, waiting);
            }
            Err(e) => drop(opened.send(Err(e))),
        })
        .map_err(sqlx::Error::Io)?;
    match open_result.await {
        Ok(Ok(())) => Ok(jobs),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => Err(closed()),
    }
}

/// The writer's connection to the SQLite database `file`.
fn open_writer(file: &std::path::Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(file)?;
    conn.execute_batch(SQLITE_PRAGMAS)?;
    conn.execute_batch(WRITER_PRAGMAS)?;
    Ok(conn)
}

/// A job's result before its batch is committed.
enum Outcome {
    Stored(rusqlite::Result<bool>),
    Read(rusqlite::Result<Option<Session>>),
}

impl Outcome {
    /// The error of a job that failed.
    fn into_error(self) -> Option<rusqlite::Error> {
        match self {
            Outcome::Stored(Err(e)) | Outcome::Read(Err(e)) => Some(e),
            Outcome::Stored(Ok(_)) | Outcome::Read(Ok(_)) => None,
        }
    }
}

impl Job {
    /// Runs the job on `conn` (in the batch's transaction, if it has one).
    fn run(&self, conn: &rusqlite::Connection) -> Option<Outcome> {
        match self {
            Job::Write { write, .. } => Some(Outcome::Stored(run_write(conn, write))),
            Job::Session { token_hash, .. } => Some(Outcome::Read(read_session(conn, token_hash))),
            Job::Close { .. } => None,
        }
    }

    /// Tells the request its `outcome`, or the error that failed its batch. A
    /// request that went away does not want its result.
    fn tell(self, outcome: Result<Option<Outcome>, &Arc<rusqlite::Error>>) {
        let failed = |e: &Arc<rusqlite::Error>| StoreError::Sqlite(Arc::clone(e));
        match self {
            Job::Write { done, .. } => drop(done.send(match outcome {
                Ok(Some(Outcome::Stored(stored))) => stored.map_err(StoreError::from),
                Ok(_) => Err(closed()),
                Err(e) => Err(failed(e)),
            })),
            Job::Session { done, .. } => drop(done.send(match outcome {
                Ok(Some(Outcome::Read(session))) => session.map_err(StoreError::from),
                Ok(_) => Err(closed()),
                Err(e) => Err(failed(e)),
            })),
            Job::Close { done } => drop(done.send(())),
        }
    }
}

/// The writer thread's loop: until it is closed or every sender is gone, runs what
/// is waiting as one batch. A close is answered once the connection is closed.
fn commit_batches(conn: rusqlite::Connection, mut waiting: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = waiting.blocking_recv() {
        let mut batch = gather(first, &mut waiting);
        let close = match batch.last() {
            Some(Job::Close { .. }) => batch.pop(),
            _ => None,
        };
        commit(&conn, batch);
        if let Some(close) = close {
            drop(conn);
            close.tell(Ok(None));
            return;
        }
    }
}

/// Runs `batch`, its writes in one transaction (reads alone take none, so that they
/// never wait for another process's write lock), and tells each job its result.
fn commit(conn: &rusqlite::Connection, batch: Vec<Job>) {
    let outcomes = if batch.iter().any(|job| matches!(job, Job::Write { .. })) {
        run_in_transaction(conn, &batch)
    } else {
        Ok(batch.iter().map(|job| job.run(conn)).collect())
    };
    match outcomes {
        Ok(outcomes) => batch.into_iter().zip(outcomes).for_each(|(job, outcome)| job.tell(Ok(outcome))),
        Err(e) => {
            tracing::warn!("a batch of {} game writes failed: {e}", batch.len());
            let e = Arc::new(e);
            batch.into_iter().for_each(|job| job.tell(Err(&e)));
        }
    }
}

/// Runs `batch` between `BEGIN IMMEDIATE` and `COMMIT`: each job's outcome, or the
/// error that failed the transaction, of which nothing is then stored.
fn run_in_transaction(conn: &rusqlite::Connection, batch: &[Job]) -> rusqlite::Result<Vec<Option<Outcome>>> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for job in batch {
        let outcome = job.run(conn);
        // SQLite rolls the whole transaction back on some errors (a full disk):
        // then nothing of the batch is stored, the rest must not run outside it,
        // and that error is every job's
        if conn.is_autocommit() {
            return Err(outcome.and_then(Outcome::into_error).unwrap_or(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
                Some("the batch's transaction was rolled back".into()),
            )));
        }
        outcomes.push(outcome);
    }
    if let Err(e) = conn.execute_batch("COMMIT") {
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        return Err(e);
    }
    Ok(outcomes)
}

/// Runs `write`'s statements in order: the others only when the first changed a row.
fn run_write(conn: &rusqlite::Connection, write: &Write) -> rusqlite::Result<bool> {
    for (i, (sql, values)) in write.statements().iter().enumerate() {
        if conn.prepare_cached(sql)?.execute(rusqlite::params_from_iter(values))? == 0 && i == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

fn read_session(conn: &rusqlite::Connection, token_hash: &str) -> rusqlite::Result<Option<Session>> {
    use rusqlite::OptionalExtension;
    let mut statement = conn.prepare_cached(SESSION_BY_TOKEN)?;
    let columns = statement
        .query_row([token_hash], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)))
        .optional()?;
    Ok(columns.map(|c| Session::from_columns(token_hash.to_owned(), c)))
}

#[cfg(test)]
mod tests {
    use gapwise_model::PlayerId;

    use super::*;

    /// A migrated SQLite database in its own folder, and a writer connection to it
    /// set up as the writer thread's.
    async fn database() -> (tempfile::TempDir, rusqlite::Connection) {
        let dir = tempfile::tempdir().expect("folder");
        let file = dir.path().join("gapwise.db");
        let store = crate::Store::open(&format!("sqlite://{}", file.display())).await.expect("open");
        store.close().await;
        (dir, open_writer(&file).expect("writer connection"))
    }

    fn new_player(id: &str) -> Write {
        Write::NewPlayer { id: PlayerId::new(id), pseudonym: format!("p{id}"), consent_version: "v".into(), created_at: 1 }
    }

    fn new_session(token_hash: &str, player: &str) -> Write {
        Write::NewSession { token_hash: token_hash.into(), player: PlayerId::new(player), created_at: 1 }
    }

    /// What the jobs of a batch were told: the writes', then the reads'.
    type Told = (Vec<Result<bool, StoreError>>, Vec<Result<Option<Session>, StoreError>>);

    /// Runs `writes`, then reads of `sessions`, as one batch.
    fn run(conn: &rusqlite::Connection, writes: Vec<Write>, sessions: &[&str]) -> Told {
        let (mut batch, mut stored, mut read) = (Vec::new(), Vec::new(), Vec::new());
        for write in writes {
            let (done, result) = oneshot::channel();
            batch.push(Job::Write { write, done });
            stored.push(result);
        }
        for token_hash in sessions {
            let (done, result) = oneshot::channel();
            batch.push(Job::Session { token_hash: (*token_hash).into(), done });
            read.push(result);
        }
        commit(conn, batch);
        let told = "every job is told before the batch ends";
        (
            stored.into_iter().map(|mut r| r.try_recv().expect(told)).collect(),
            read.into_iter().map(|mut r| r.try_recv().expect(told)).collect(),
        )
    }

    fn players(conn: &rusqlite::Connection) -> i64 {
        conn.query_row("SELECT COUNT(*) FROM annotators", [], |r| r.get(0)).expect("count")
    }

    #[tokio::test]
    async fn a_failing_statement_fails_only_its_job_and_reads_see_the_batch() {
        let (_dir, conn) = database().await;
        let writes = vec![new_player("a"), new_session("ghost", "nobody"), new_session("t", "a"), new_player("a2"), new_player("a")];
        let (stored, read) = run(&conn, writes, &["t", "ghost"]);
        assert!(matches!(stored[0], Ok(true)), "{:?}", stored[0]);
        assert!(matches!(stored[1], Err(StoreError::Sqlite(_))), "a session of no player is refused: {:?}", stored[1]);
        assert!(matches!(stored[2..4], [Ok(true), Ok(true)]), "{:?}", &stored[2..4]);
        assert!(matches!(stored[4], Ok(false)), "the second player of one id is not stored: {:?}", stored[4]);
        let session = read[0].as_ref().expect("read").as_ref().expect("the session opened earlier in the batch");
        assert_eq!((session.player.id.as_str(), session.player.pseudonym.as_str(), session.serving.clone()), ("a", "pa", None));
        assert!(matches!(read[1], Ok(None)), "{:?}", read[1]);
        assert_eq!(players(&conn), 2, "the batch was committed");
    }

    #[tokio::test]
    async fn when_the_transaction_fails_every_job_of_the_batch_fails_and_nothing_is_stored() {
        let (_dir, conn) = database().await;
        // as a full disk does, this statement's failure rolls the whole transaction back
        conn.execute_batch(
            "CREATE TRIGGER full_disk BEFORE INSERT ON annotators WHEN NEW.id = 'full' BEGIN SELECT RAISE(ROLLBACK, 'disk full'); END",
        )
        .expect("trigger");
        let (stored, read) = run(&conn, vec![new_player("a"), new_session("t", "a"), new_player("full"), new_player("b")], &["t"]);
        assert!(stored.iter().all(Result::is_err), "{stored:?}");
        assert!(
            stored[0].as_ref().is_err_and(|e| e.to_string().contains("disk full")),
            "the failing statement's own error is every job's: {stored:?}"
        );
        assert!(read[0].is_err(), "{:?}", read[0]);
        assert_eq!(players(&conn), 0, "nothing of the batch is stored, before or after the failure");
        let (stored, _) = run(&conn, vec![new_player("c")], &[]);
        assert!(matches!(stored[0], Ok(true)), "the next batch goes through: {:?}", stored[0]);
        assert_eq!(players(&conn), 1);
    }
}
