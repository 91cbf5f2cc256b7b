//! The game's hot path to the database: answers, servings, moving on, new players
//! and their sessions, and the reads of sessions that every request starts with.
//!
//! On SQLite they go to one thread that owns the one writer connection (opened with
//! rusqlite, not through sqlx's pool) and commits all the writes waiting for it in
//! one transaction (a group commit). A request still gets its result only after the
//! commit that holds its write, so an answer acknowledged is an answer stored.
//! - One commit per write appended every page a row touched (table and index pages)
//!   to the WAL once per row; a batch appends each page once for all its rows.
//! - The thread runs the statements itself. Through sqlx every statement, and
//!   every row it returned, crossed to the connection's own thread and back: on
//!   this 2-core machine those hand-overs, not SQLite, took most of a batch's time.
//! - Sessions are read there too, in the batch: a reader connection of the pool
//!   drops its page cache whenever the database changed, so under load each
//!   session read read its pages again, after a hand-over of its own. In the batch
//!   it sees every write committed before it.
//! - A statement that fails (an erased player's answer, say) undoes only itself and
//!   fails only its own request; when the transaction itself fails (a full disk),
//!   every request of the batch fails and nothing of it is stored.
//!
//! PostgreSQL takes concurrent writers: each write and read runs at once on the
//! pool, with the same statements.

use std::path::PathBuf;
use std::sync::Arc;

use gapwise_model::{Input, Trial};
use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::session::{Session, SessionColumns, SESSION_BY_TOKEN};
use super::{AnyQuery, StoreError};

/// Jobs a batch holds at most (its transaction should stay short).
const MOST_PER_BATCH: usize = 256;

/// What the writer connection sets besides the pool's pragmas: its commits never
/// checkpoint the WAL (a commit that does copies megabytes first, and every write
/// queued behind it waits; the store's checkpoint task does that beside it), and
/// its statement journals (the pages a statement changes, kept until it ends, so
/// that a failed statement undoes only itself) are held in memory.
const WRITER_PRAGMAS: &str = "PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY;";

/// An answer's row (see the `answers` table).
#[derive(Debug)]
pub struct AnswerRow {
    pub id: String,
    pub annotator_id: String,
    pub item_id: i64,
    pub k: u8,
    pub chosen: String,
    pub correct: bool,
    pub client_ms: Option<i64>,
    pub server_ms: i64,
    pub option_order: String,
    pub created_at: i64,
    pub client_ms_reported: Option<i64>,
    /// What the browser saw of the trial.
    pub trial: Trial,
}

/// A serving's row (see the `servings` table); never updated once stored.
#[derive(Debug)]
pub struct ServingRow {
    pub id: String,
    pub annotator_id: String,
    pub item_id: i64,
    pub k: u8,
    pub target_first: bool,
    pub served_at: i64,
}

#[derive(Debug)]
pub enum Write {
    /// Stores an answer unless one with its id is stored: whether it was new.
    Answer(AnswerRow),
    /// Stores a serving unless the annotator was served the item, and makes it the
    /// session's current one: whether it was new.
    Serve { serving: Arc<ServingRow>, session: String },
    /// Moves the session past an answered serving: whether it was on one.
    MoveOn { session: String },
    /// Stores a new player unless their pseudonym is taken: whether it was free.
    NewAnnotator { id: String, pseudonym: String, consent_version: String, created_at: i64 },
    /// Opens a session for a player (true).
    NewSession { token_hash: String, annotator_id: String, created_at: i64 },
}

/// A value a statement binds.
#[derive(Clone, Copy, Debug)]
enum Value<'a> {
    Text(&'a str),
    MaybeText(Option<&'a str>),
    Int(i64),
    MaybeInt(Option<i64>),
}

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

/// A statement: its SQL (with `$n` parameters, which both backends read), and the
/// values of its parameters in order.
type Statement<'a> = (&'static str, Vec<Value<'a>>);

impl Write {
    /// Its statements. The first one changes a row when the write stores or moves
    /// something; the others run only then.
    fn statements(&self) -> Vec<Statement<'_>> {
        match self {
            Write::Answer(a) => vec![(
                "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, server_ms, option_order, \
                 created_at, client_ms_reported, input_device, hidden_changes, clock_us, frame_us) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING",
                vec![
                    Value::Text(&a.id),
                    Value::Text(&a.annotator_id),
                    Value::Int(a.item_id),
                    Value::Int(a.k.into()),
                    Value::Text(&a.chosen),
                    Value::Int(a.correct.into()),
                    Value::MaybeInt(a.client_ms),
                    Value::Int(a.server_ms),
                    Value::Text(&a.option_order),
                    Value::Int(a.created_at),
                    Value::MaybeInt(a.client_ms_reported),
                    Value::MaybeText(a.trial.input.map(Input::code)),
                    Value::MaybeInt(a.trial.hidden.map(i64::from)),
                    Value::MaybeInt(a.trial.clock_us.map(i64::from)),
                    Value::MaybeInt(a.trial.frame_us.map(i64::from)),
                ],
            )],
            Write::Serve { serving: s, session } => vec![
                (
                    "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) VALUES ($1, $2, $3, $4, $5, $6) \
                     ON CONFLICT (annotator_id, item_id) DO NOTHING",
                    serving_values(s),
                ),
                ("UPDATE sessions SET current_serving_id = $1 WHERE token_hash = $2", vec![Value::Text(&s.id), Value::Text(session)]),
            ],
            Write::MoveOn { session } => vec![(
                "UPDATE sessions SET current_serving_id = NULL WHERE token_hash = $1 AND current_serving_id IN (SELECT id FROM answers)",
                vec![Value::Text(session)],
            )],
            Write::NewAnnotator { id, pseudonym, consent_version, created_at } => vec![(
                "INSERT INTO annotators (id, pseudonym, consent_version, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (pseudonym) DO NOTHING",
                vec![Value::Text(id), Value::Text(pseudonym), Value::Text(consent_version), Value::Int(*created_at)],
            )],
            Write::NewSession { token_hash, annotator_id, created_at } => vec![(
                "INSERT INTO sessions (token_hash, annotator_id, created_at) VALUES ($1, $2, $3)",
                vec![Value::Text(token_hash), Value::Text(annotator_id), Value::Int(*created_at)],
            )],
        }
    }
}

/// Where the game's hot writes, and the reads of sessions, go (see the module's
/// documentation).
#[derive(Clone, Debug)]
pub(crate) struct GameWriter(Route);

#[derive(Clone, Debug)]
enum Route {
    /// SQLite: to the writer thread.
    Batched(mpsc::UnboundedSender<Job>),
    /// PostgreSQL: each write and read runs at once on the pool.
    Direct(AnyPool),
}

impl GameWriter {
    /// Writes and reads on `pool` as they come (PostgreSQL).
    pub(crate) fn direct(pool: AnyPool) -> GameWriter {
        GameWriter(Route::Direct(pool))
    }

    /// Opens the SQLite database `file` on a thread of its own, which batches the
    /// jobs handed to it until [`GameWriter::close`] or until every sender is gone.
    pub(crate) async fn batched(file: PathBuf) -> Result<GameWriter, StoreError> {
        let (jobs, waiting) = mpsc::unbounded_channel();
        let (opened, open_result) = oneshot::channel();
        std::thread::Builder::new()
            .name("gapwise-writer".into())
            .spawn(move || {
                match open_writer(&file) {
                    Ok(conn) => {
                        let _ = opened.send(Ok(()));
                        commit_batches(conn, waiting);
                    }
                    Err(e) => drop(opened.send(Err(e))),
                }
            })
            .map_err(sqlx::Error::Io)?;
        match open_result.await {
            Ok(Ok(())) => Ok(GameWriter(Route::Batched(jobs))),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(closed()),
        }
    }

    /// Hands `write` over and waits for its result.
    pub(crate) async fn write(&self, write: Write) -> Result<bool, StoreError> {
        self.send(write).await.result().await
    }

    /// Hands `write` over: on SQLite it joins the jobs waiting for the next batch,
    /// so that a write this request sends after it goes in the same batch or a later
    /// one; on PostgreSQL it runs now.
    pub(crate) async fn send(&self, write: Write) -> Pending<bool> {
        match &self.0 {
            Route::Direct(pool) => Pending::Done(write_in(pool, &write).await),
            Route::Batched(jobs) => {
                let (done, result) = oneshot::channel();
                Pending::queued(jobs.send(Job::Write { write, done }), result)
            }
        }
    }

    /// The session whose token hashes to `token_hash`: on SQLite read in the next batch.
    pub(crate) async fn session(&self, token_hash: String) -> Result<Option<Session>, StoreError> {
        match &self.0 {
            Route::Direct(pool) => {
                let columns: Option<SessionColumns> = sqlx::query_as(SESSION_BY_TOKEN).bind(&token_hash).fetch_optional(pool).await?;
                Ok(columns.map(|c| Session::from_columns(token_hash, c)))
            }
            Route::Batched(jobs) => {
                let (done, result) = oneshot::channel();
                Pending::queued(jobs.send(Job::Session { token_hash, done }), result).result().await
            }
        }
    }

    /// Finishes the jobs handed over so far and closes the SQLite writer connection;
    /// later jobs fail as on a closed pool.
    pub(crate) async fn close(&self) {
        if let Route::Batched(jobs) = &self.0 {
            let (done, closed) = oneshot::channel();
            if jobs.send(Job::Close { done }).is_ok() {
                let _ = closed.await;
            }
        }
    }
}

/// The writer's connection to the SQLite database `file`.
fn open_writer(file: &std::path::Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(file)?;
    conn.execute_batch(super::store::SQLITE_PRAGMAS)?;
    conn.execute_batch(WRITER_PRAGMAS)?;
    Ok(conn)
}

/// The error of a job handed to a writer that has closed.
fn closed() -> StoreError {
    sqlx::Error::PoolClosed.into()
}

/// A job handed over (see [`GameWriter::send`]) whose result may be still to come.
#[derive(Debug)]
pub enum Pending<T> {
    Queued(oneshot::Receiver<Result<T, StoreError>>),
    Done(Result<T, StoreError>),
}

impl<T> Pending<T> {
    /// Waits on `result` when the job was `sent` to the writer thread.
    fn queued<E>(sent: Result<(), E>, result: oneshot::Receiver<Result<T, StoreError>>) -> Pending<T> {
        match sent {
            Ok(()) => Pending::Queued(result),
            Err(_) => Pending::Done(Err(closed())),
        }
    }

    /// The job's result (for a write, whether it stored or moved) once its batch
    /// is committed.
    pub async fn result(self) -> Result<T, StoreError> {
        match self {
            Pending::Done(result) => result,
            Pending::Queued(result) => result.await.map_err(|_| closed())?,
        }
    }
}

/// A serving and its session's move as one PostgreSQL statement (one round trip,
/// one commit): the serving is stored and made the session's current one, or, when
/// the player was served the item already (or the session is gone), nothing is.
const SERVE_AND_MOVE: &str = "WITH served AS (INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) \
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id) \
     UPDATE sessions SET current_serving_id = served.id FROM served WHERE token_hash = $7";

/// A serving's values, as its INSERT binds them.
fn serving_values(s: &ServingRow) -> Vec<Value<'_>> {
    vec![
        Value::Text(&s.id),
        Value::Text(&s.annotator_id),
        Value::Int(s.item_id),
        Value::Int(s.k.into()),
        Value::Int(s.target_first.into()),
        Value::Int(s.served_at),
    ]
}

impl Write {
    /// Its statements on PostgreSQL, where each commits itself: a serving and its
    /// session's move are one ([`SERVE_AND_MOVE`]), the others as [`Write::statements`].
    fn postgres_statements(&self) -> Vec<Statement<'_>> {
        match self {
            Write::Serve { serving, session } => {
                let mut values = serving_values(serving);
                values.push(Value::Text(session));
                vec![(SERVE_AND_MOVE, values)]
            }
            _ => self.statements(),
        }
    }
}

/// `write` on a connection of `pool` (PostgreSQL), each statement committing itself.
async fn write_in(pool: &AnyPool, write: &Write) -> Result<bool, StoreError> {
    let mut conn = pool.acquire().await?;
    for (i, (sql, values)) in write.postgres_statements().into_iter().enumerate() {
        if bind(sql, values).execute(&mut *conn).await?.rows_affected() == 0 && i == 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `sql` with `values` bound in order.
fn bind<'q>(sql: &'q str, values: Vec<Value<'q>>) -> AnyQuery<'q> {
    values.into_iter().fold(sqlx::query(sql), |q, value| match value {
        Value::Text(text) => q.bind(text),
        Value::MaybeText(text) => q.bind(text),
        Value::Int(n) => q.bind(n),
        Value::MaybeInt(n) => q.bind(n),
    })
}

/// What a request hands the writer thread, and where its result goes.
enum Job {
    /// Whether the write stored or moved.
    Write { write: Write, done: oneshot::Sender<Result<bool, StoreError>> },
    /// The session with this token hash, if there is one.
    Session { token_hash: String, done: oneshot::Sender<Result<Option<Session>, StoreError>> },
    /// Stops the thread once the jobs before it are done.
    Close { done: oneshot::Sender<()> },
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

/// A batch: `first`, and the jobs waiting behind it up to [`MOST_PER_BATCH`] or up
/// to a close.
fn gather(first: Job, waiting: &mut mpsc::UnboundedReceiver<Job>) -> Vec<Job> {
    let mut batch = vec![first];
    while batch.len() < MOST_PER_BATCH && !matches!(batch.last(), Some(Job::Close { .. })) {
        match waiting.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
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
    let columns = statement.query_row([token_hash], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))).optional()?;
    Ok(columns.map(|c| Session::from_columns(token_hash.to_owned(), c)))
}

#[cfg(test)]
mod tests {
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
        Write::NewAnnotator { id: id.into(), pseudonym: format!("p{id}"), consent_version: "v".into(), created_at: 1 }
    }

    fn new_session(token_hash: &str, annotator_id: &str) -> Write {
        Write::NewSession { token_hash: token_hash.into(), annotator_id: annotator_id.into(), created_at: 1 }
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
        (stored.into_iter().map(|mut r| r.try_recv().expect(told)).collect(), read.into_iter().map(|mut r| r.try_recv().expect(told)).collect())
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
        assert_eq!((session.annotator.id.as_str(), session.annotator.pseudonym.as_str(), session.current_serving_id.clone()), ("a", "pa", None));
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
        assert!(stored[0].as_ref().is_err_and(|e| e.to_string().contains("disk full")), "the failing statement's own error is every job's: {stored:?}");
        assert!(read[0].is_err(), "{:?}", read[0]);
        assert_eq!(players(&conn), 0, "nothing of the batch is stored, before or after the failure");
        let (stored, _) = run(&conn, vec![new_player("c")], &[]);
        assert!(matches!(stored[0], Ok(true)), "the next batch goes through: {:?}", stored[0]);
        assert_eq!(players(&conn), 1);
    }

    #[tokio::test]
    async fn a_closed_writer_finishes_what_it_was_given_and_refuses_the_rest() {
        let dir = tempfile::tempdir().expect("folder");
        let store = crate::Store::open(&format!("sqlite://{}", dir.path().join("gapwise.db").display())).await.expect("open");
        let pending = store.writes.send(new_player("a")).await;
        store.writes.close().await;
        assert!(matches!(pending.result().await, Ok(true)));
        let refused = store.writes.write(new_player("b")).await;
        assert!(matches!(&refused, Err(e) if e.is_unavailable()), "{refused:?}");
        assert_eq!(store.count_rows("annotators").await.expect("count"), 1);
    }
}
