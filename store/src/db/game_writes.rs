//! The game's hot writes: answers, servings, moving on.
//!
//! On SQLite they go to one task on the one writer connection, which commits all
//! the writes waiting for it in one transaction (a group commit), sent to the
//! connection's thread as one string of statements. One commit per
//! write appended every page a row touched (table and index pages) to the WAL once
//! per row; a batch appends each page once for all its rows. A request still gets
//! its result only after the commit that holds its write, so an answer acknowledged
//! is an answer stored. When a statement of a batch fails, the batch is rolled back
//! and each of its writes runs alone, so that one bad write (an erased player's,
//! say) fails only its own request.
//!
//! PostgreSQL takes concurrent writers: each write runs at once on the pool.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::{AnyConnection, AnyPool, Executor};
use tokio::sync::{mpsc, oneshot};

use super::store::Backend;
use super::{placeholders, StoreError};

/// Writes a batch holds at most (SQLite allows 32,766 bound values a statement, and
/// a batch's transaction should stay short).
const MOST_PER_BATCH: usize = 256;

/// An answer's row (see the `answers` table).
#[derive(Debug)]
pub(crate) struct AnswerRow {
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
}

/// A serving's row (see the `servings` table); never updated once stored.
#[derive(Debug)]
pub(crate) struct ServingRow {
    pub id: String,
    pub annotator_id: String,
    pub item_id: i64,
    pub k: u8,
    pub target_first: bool,
    pub served_at: i64,
}

#[derive(Debug)]
pub(crate) enum Write {
    /// Stores an answer unless one with its id is stored: whether it was new.
    Answer(AnswerRow),
    /// Stores a serving unless the annotator was served the item, and makes it the
    /// session's current one: whether it was new.
    Serve { serving: Arc<ServingRow>, session: String },
    /// Moves the session past an answered serving: whether it was on one.
    MoveOn { session: String },
}

impl Write {
    /// What its statement returns when it stores or moves (see [`Statement`]).
    fn key(&self) -> &str {
        match self {
            Write::Answer(AnswerRow { id, .. }) => id,
            Write::Serve { serving, .. } => &serving.id,
            Write::MoveOn { session } => session,
        }
    }
}

/// Rows a statement of a batch holds at most.
const ROWS_PER_STATEMENT: usize = 16;

/// A value a statement binds.
#[derive(Clone, Copy, Debug)]
enum Value<'a> {
    Text(&'a str),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// A statement of a batch: its SQL, and the values of its parameters in order.
/// Every statement that stores or moves something returns a key of it: the id of
/// an answer or a serving, the token hash of a session moved on.
struct Statement<'a> {
    sql: String,
    values: Vec<Value<'a>>,
}

/// `sql` with `values` bound, returning the keys of what it stored or moved.
fn bind_all<'a>(sql: &'a str, values: impl Iterator<Item = Value<'a>>) -> sqlx::query::QueryScalar<'a, sqlx::Any, String, sqlx::any::AnyArguments<'a>> {
    values.fold(sqlx::query_scalar(sql), |q, value| match value {
        Value::Text(text) => q.bind(text),
        Value::Int(n) => q.bind(n),
        Value::MaybeInt(n) => q.bind(n),
    })
}

/// The statements that run `writes`: answers first, then servings and their
/// sessions' moves, then moves on.
fn statements<'a>(conn: &AnyConnection, writes: &[&'a Write]) -> Vec<Statement<'a>> {
    let answers: Vec<&AnswerRow> = writes.iter().filter_map(|w| if let Write::Answer(a) = w { Some(a) } else { None }).collect();
    let servings: Vec<(&ServingRow, &str)> =
        writes.iter().filter_map(|w| if let Write::Serve { serving, session } = w { Some((&**serving, session.as_str())) } else { None }).collect();
    let moves: Vec<&str> = writes.iter().filter_map(|w| if let Write::MoveOn { session } = w { Some(session.as_str()) } else { None }).collect();
    let mut statements = Vec::new();
    for chunk in answers.chunks(ROWS_PER_STATEMENT) {
        let values = chunk.iter().flat_map(|a| {
            [
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
            ]
        });
        let sql = format!(
            "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, server_ms, option_order, \
             created_at, client_ms_reported) VALUES {} ON CONFLICT (id) DO NOTHING RETURNING id",
            placeholders(conn, chunk.len(), 11)
        );
        statements.push(Statement { sql, values: values.collect() });
    }
    for chunk in servings.chunks(ROWS_PER_STATEMENT) {
        let values = chunk.iter().flat_map(|(s, _)| {
            [
                Value::Text(&s.id),
                Value::Text(&s.annotator_id),
                Value::Int(s.item_id),
                Value::Int(s.k.into()),
                Value::Int(s.target_first.into()),
                Value::Int(s.served_at),
            ]
        });
        let sql = format!(
            "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) VALUES {} \
             ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id",
            placeholders(conn, chunk.len(), 6)
        );
        statements.push(Statement { sql, values: values.collect() });
        // a serving id is new, so a serving stored with it is one stored just now
        let sql = format!(
            "WITH moved (token_hash, serving_id) AS (VALUES {}) UPDATE sessions SET current_serving_id = moved.serving_id \
             FROM moved WHERE sessions.token_hash = moved.token_hash \
             AND EXISTS (SELECT 1 FROM servings s WHERE s.id = moved.serving_id)",
            placeholders(conn, chunk.len(), 2)
        );
        statements.push(Statement { sql, values: chunk.iter().flat_map(|(s, session)| [Value::Text(session), Value::Text(&s.id)]).collect() });
    }
    for chunk in moves.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "UPDATE sessions SET current_serving_id = NULL WHERE token_hash IN {} \
             AND current_serving_id IN (SELECT id FROM answers) RETURNING token_hash",
            placeholders(conn, 1, chunk.len())
        );
        statements.push(Statement { sql, values: chunk.iter().map(|session| Value::Text(session)).collect() });
    }
    statements
}

/// Each write's result, from the keys its statements returned (see [`Statement`]):
/// whether it stored or moved. Of two writes with one key, the first did.
fn results(writes: &[&Write], returned: Vec<String>) -> Vec<bool> {
    let mut returned: HashSet<String> = returned.into_iter().collect();
    writes.iter().map(|w| returned.remove(w.key())).collect()
}

/// A write and where its result goes.
#[derive(Debug)]
struct Job {
    write: Write,
    done: oneshot::Sender<Result<bool, StoreError>>,
}

/// Where the game's hot writes go (see the module's documentation).
#[derive(Clone, Debug)]
pub(crate) struct GameWriter(Route);

#[derive(Clone, Debug)]
enum Route {
    Batched(mpsc::UnboundedSender<Job>),
    Direct(AnyPool),
}

impl GameWriter {
    /// Writes through `writer`: batched on SQLite, whose task this starts.
    pub(crate) fn new(backend: Backend, writer: AnyPool) -> GameWriter {
        match backend {
            Backend::Sqlite => {
                let (jobs, waiting) = mpsc::unbounded_channel();
                tokio::spawn(commit_batches(writer, waiting));
                GameWriter(Route::Batched(jobs))
            }
            Backend::Postgres => GameWriter(Route::Direct(writer)),
        }
    }

    /// Hands `write` over and waits for its result.
    pub(crate) async fn write(&self, write: Write) -> Result<bool, StoreError> {
        self.send(write).await.result().await
    }

    /// Hands `write` over: on SQLite it joins the writes waiting for the next batch,
    /// so that a write this request sends after it goes in the same batch or a later
    /// one; on PostgreSQL it runs now.
    pub(crate) async fn send(&self, write: Write) -> Pending {
        match &self.0 {
            Route::Direct(pool) => Pending::Done(run_alone_in(pool, &write).await),
            Route::Batched(jobs) => {
                let (done, result) = oneshot::channel();
                // the task stops only when the store's clones are gone: like a closed pool
                match jobs.send(Job { write, done }) {
                    Ok(()) => Pending::Queued(result),
                    Err(_) => Pending::Done(Err(sqlx::Error::PoolClosed.into())),
                }
            }
        }
    }
}

/// A write handed over (see [`GameWriter::send`]) whose result may be still to come.
#[derive(Debug)]
pub(crate) enum Pending {
    Queued(oneshot::Receiver<Result<bool, StoreError>>),
    Done(Result<bool, StoreError>),
}

impl Pending {
    /// Whether the write stored or moved, once it is committed.
    pub(crate) async fn result(self) -> Result<bool, StoreError> {
        match self {
            Pending::Done(result) => result,
            Pending::Queued(result) => result.await.map_err(|_| sqlx::Error::PoolClosed)?,
        }
    }
}

/// The batching task: until every sender is gone, commits what is waiting. It
/// keeps its connection while writes keep coming and gives it back when none wait
/// (or after a failed batch, so that the next one starts on a fresh connection):
/// taking it from the pool for every batch waited each time for the pool to get it
/// back from the batch before, a quarter of a batch's time under load.
async fn commit_batches(pool: AnyPool, mut waiting: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = waiting.recv().await {
        let mut batch = gather(first, &mut waiting);
        let mut conn = match pool.acquire().await {
            Ok(conn) => conn,
            Err(_) => {
                // each write then meets the pool's error itself
                for job in batch {
                    let _ = job.done.send(run_alone_in(&pool, &job.write).await);
                }
                continue;
            }
        };
        while commit(&mut conn, batch).await {
            match waiting.try_recv() {
                Ok(job) => batch = gather(job, &mut waiting),
                Err(_) => break,
            }
        }
    }
}

/// A batch: `first`, and the jobs waiting behind it up to [`MOST_PER_BATCH`].
fn gather(first: Job, waiting: &mut mpsc::UnboundedReceiver<Job>) -> Vec<Job> {
    let mut batch = vec![first];
    while batch.len() < MOST_PER_BATCH {
        match waiting.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}

/// Commits `batch` in one transaction and tells each job its result; when that
/// fails, runs each write alone. Whether the batch went through together.
async fn commit(conn: &mut AnyConnection, batch: Vec<Job>) -> bool {
    match run_together(conn, &batch).await {
        Ok(results) => {
            for (job, result) in batch.into_iter().zip(results) {
                // a request that went away does not want its result
                let _ = job.done.send(Ok(result));
            }
            true
        }
        Err(e) => {
            tracing::debug!("a batch of {} writes failed ({e}); each runs alone", batch.len());
            for job in batch {
                let _ = job.done.send(run_alone(conn, &job.write).await);
            }
            false
        }
    }
}

/// Runs the batch in one transaction: on SQLite one string of statements between
/// BEGIN and COMMIT, handed to the connection's thread once (a hand-over each way
/// per statement took longer than the statements on a busy machine).
async fn run_together(conn: &mut AnyConnection, batch: &[Job]) -> Result<Vec<bool>, sqlx::Error> {
    let writes: Vec<&Write> = batch.iter().map(|job| &job.write).collect();
    let statements = statements(conn, &writes);
    let sql = format!("BEGIN IMMEDIATE; {}; COMMIT", statements.iter().map(|s| s.sql.as_str()).collect::<Vec<_>>().join("; "));
    let returned = bind_all(&sql, statements.iter().flat_map(|s| s.values.iter().copied())).fetch_all(&mut *conn).await;
    if returned.is_err() {
        // the statement that failed left the transaction open
        let _ = conn.execute("ROLLBACK").await;
    }
    Ok(results(&writes, returned?))
}

/// One write on its own, each statement committing itself (a serving, then its
/// session's move: a serving whose move failed is one the player never saw).
async fn run_alone(conn: &mut AnyConnection, write: &Write) -> Result<bool, StoreError> {
    let mut returned = Vec::new();
    for statement in statements(conn, &[write]) {
        returned.extend(bind_all(&statement.sql, statement.values.iter().copied()).fetch_all(&mut *conn).await?);
    }
    Ok(results(&[write], returned)[0])
}

/// [`run_alone`] on a connection of `pool`.
async fn run_alone_in(pool: &AnyPool, write: &Write) -> Result<bool, StoreError> {
    let mut conn = pool.acquire().await?;
    run_alone(&mut conn, write).await
}
