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

use sqlx::{AnyConnection, AnyPool};
use tokio::sync::{mpsc, oneshot};

use super::store::Backend;
use super::StoreError;

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

/// A serving's row (see the `servings` table).
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
    Serve { serving: ServingRow, session: String },
    /// Moves the session past an answered serving: whether it was on one.
    MoveOn { session: String },
}

impl Write {
    async fn run(&self, conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
        let changed = match self {
            Write::Answer(a) => sqlx::query(
                "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, \
                 server_ms, option_order, created_at, client_ms_reported) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING",
            )
            .bind(&a.id)
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
            .execute(&mut *conn)
            .await?
            .rows_affected(),
            Write::Serve { serving: s, session } => {
                let inserted = sqlx::query(
                    "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (annotator_id, item_id) DO NOTHING",
                )
                .bind(&s.id)
                .bind(&s.annotator_id)
                .bind(s.item_id)
                .bind(i64::from(s.k))
                .bind(i64::from(s.target_first))
                .bind(s.served_at)
                .execute(&mut *conn)
                .await?
                .rows_affected();
                if inserted == 1 {
                    sqlx::query("UPDATE sessions SET current_serving_id = $1 WHERE token_hash = $2")
                        .bind(&s.id)
                        .bind(session)
                        .execute(&mut *conn)
                        .await?;
                }
                inserted
            }
            Write::MoveOn { session } => sqlx::query(
                "UPDATE sessions SET current_serving_id = NULL WHERE token_hash = $1 \
                 AND current_serving_id IN (SELECT id FROM answers)",
            )
            .bind(session)
            .execute(&mut *conn)
            .await?
            .rows_affected(),
        };
        Ok(changed == 1)
    }
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

    pub(crate) async fn write(&self, write: Write) -> Result<bool, StoreError> {
        match &self.0 {
            Route::Direct(pool) => run_alone(pool, &write).await,
            Route::Batched(jobs) => {
                let (done, result) = oneshot::channel();
                jobs.send(Job { write, done }).map_err(|_| StoreError::Invalid("the database writer has stopped".into()))?;
                result.await.map_err(|_| StoreError::Invalid("the database writer has stopped".into()))?
            }
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
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        results.push(job.write.run(&mut tx).await?);
    }
    tx.commit().await?;
    Ok(results)
}

async fn run_alone(pool: &AnyPool, write: &Write) -> Result<bool, StoreError> {
    let mut conn = pool.acquire().await?;
    Ok(write.run(&mut conn).await?)
}
