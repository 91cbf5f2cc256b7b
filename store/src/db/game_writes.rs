//! The game's hot writes: answers, servings, moving on.
//!
//! On SQLite they go to one task on the one writer connection, which commits all
//! the writes waiting for it in one transaction (a group commit). One commit per
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

use sqlx::{AnyConnection, AnyPool};
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

/// Rows an INSERT of a batch holds at most.
const ROWS_PER_STATEMENT: usize = 16;

/// Stores the answers not stored yet; the ids of those it stored.
async fn insert_answers(conn: &mut AnyConnection, rows: &[&AnswerRow]) -> Result<HashSet<String>, sqlx::Error> {
    let mut stored = HashSet::new();
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, server_ms, option_order, \
             created_at, client_ms_reported) VALUES {} ON CONFLICT (id) DO NOTHING RETURNING id",
            placeholders(conn, chunk.len(), 11)
        );
        let query = chunk.iter().fold(sqlx::query_scalar::<_, String>(&sql), |q, a| {
            q.bind(&a.id)
                .bind(&a.annotator_id)
                .bind(a.item_id)
                .bind(i64::from(a.k))
                .bind(&a.chosen)
                .bind(i64::from(a.correct))
                .bind(a.client_ms)
                .bind(a.server_ms)
                .bind(&a.option_order)
                .bind(a.created_at)
                .bind(a.client_ms_reported)
        });
        stored.extend(query.fetch_all(&mut *conn).await?);
    }
    Ok(stored)
}

/// Stores the servings of items not yet served to their annotators, and makes each
/// stored one its session's current serving; the ids of those it stored.
async fn insert_servings(conn: &mut AnyConnection, rows: &[(&ServingRow, &str)]) -> Result<HashSet<String>, sqlx::Error> {
    let mut stored = HashSet::new();
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) VALUES {} \
             ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id",
            placeholders(conn, chunk.len(), 6)
        );
        let query = chunk.iter().fold(sqlx::query_scalar::<_, String>(&sql), |q, (s, _)| {
            q.bind(&s.id).bind(&s.annotator_id).bind(s.item_id).bind(i64::from(s.k)).bind(i64::from(s.target_first)).bind(s.served_at)
        });
        let new: HashSet<String> = query.fetch_all(&mut *conn).await?.into_iter().collect();
        let moved: Vec<_> = chunk.iter().filter(|(s, _)| new.contains(&s.id)).collect();
        if !moved.is_empty() {
            let sql = format!(
                "WITH moved (token_hash, serving_id) AS (VALUES {}) UPDATE sessions SET current_serving_id = moved.serving_id \
                 FROM moved WHERE sessions.token_hash = moved.token_hash",
                placeholders(conn, moved.len(), 2)
            );
            let query = moved.iter().fold(sqlx::query(&sql), |q, (s, session)| q.bind(*session).bind(&s.id));
            query.execute(&mut *conn).await?;
        }
        stored.extend(new);
    }
    Ok(stored)
}

/// Moves the session past an answered serving: whether it was on one.
async fn move_on(conn: &mut AnyConnection, session: &str) -> Result<bool, sqlx::Error> {
    let moved = sqlx::query(
        "UPDATE sessions SET current_serving_id = NULL WHERE token_hash = $1 \
         AND current_serving_id IN (SELECT id FROM answers)",
    )
    .bind(session)
    .execute(&mut *conn)
    .await?;
    Ok(moved.rows_affected() == 1)
}

/// Runs `writes` on `conn`, answers first, then servings, then moves; each write's
/// result (whether it stored or moved). Of two answers with one id, the first
/// stored it.
async fn run(conn: &mut AnyConnection, writes: &[&Write]) -> Result<Vec<bool>, sqlx::Error> {
    let answers: Vec<&AnswerRow> = writes.iter().filter_map(|w| if let Write::Answer(a) = w { Some(a) } else { None }).collect();
    let mut stored = insert_answers(conn, &answers).await?;
    let servings: Vec<(&ServingRow, &str)> =
        writes.iter().filter_map(|w| if let Write::Serve { serving, session } = w { Some((&**serving, session.as_str())) } else { None }).collect();
    stored.extend(insert_servings(conn, &servings).await?);
    let mut results = Vec::with_capacity(writes.len());
    for write in writes {
        results.push(match write {
            Write::Answer(AnswerRow { id, .. }) => stored.remove(id),
            Write::Serve { serving, .. } => stored.remove(&serving.id),
            Write::MoveOn { session } => move_on(conn, session).await?,
        });
    }
    Ok(results)
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
            Route::Direct(pool) => Pending::Done(run_alone(pool, &write).await),
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

/// The batching task: until every sender is gone, commits what is waiting.
async fn commit_batches(pool: AnyPool, mut waiting: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < MOST_PER_BATCH {
            match waiting.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match run_together(&pool, &batch).await {
            Ok(results) => {
                for (job, result) in batch.into_iter().zip(results) {
                    // a request that went away does not want its result
                    let _ = job.done.send(Ok(result));
                }
            }
            Err(e) => {
                tracing::debug!("a batch of {} writes failed ({e}); each runs alone", batch.len());
                for job in batch {
                    let _ = job.done.send(run_alone(&pool, &job.write).await);
                }
            }
        }
    }
}

async fn run_together(pool: &AnyPool, batch: &[Job]) -> Result<Vec<bool>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let writes: Vec<&Write> = batch.iter().map(|job| &job.write).collect();
    let results = run(&mut tx, &writes).await?;
    tx.commit().await?;
    Ok(results)
}

/// One write on its own, each statement committing itself (a serving, then its
/// session's move: a serving whose move failed is one the player never saw).
async fn run_alone(pool: &AnyPool, write: &Write) -> Result<bool, StoreError> {
    let mut conn = pool.acquire().await?;
    Ok(run(&mut conn, &[write]).await?[0])
}
