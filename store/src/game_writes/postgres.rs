//! The game's writes on PostgreSQL: in each of a few lanes, a task takes the jobs
//! waiting as a batch and sends each kind of job in it as one statement (all its
//! answers as one INSERT over arrays, all its servings and their sessions' moves as
//! another, all its session reads as one SELECT), each on a connection of its own
//! and committing itself. A lane runs one batch at a time, while the jobs that come
//! wait and go together in its next. Under load a request's few statements thus
//! become a share of a few statements per batch: fewer round trips, plans and
//! commits than one of each per request.
//!
//! Lanes let batches run side by side, so that the server uses PostgreSQL's cores:
//! with one lane, a server on 16 cores served about a fifth of what a bare endpoint
//! did, waiting on one batch at a time with most cores idle. A player's jobs always
//! take the same lane ([`super::GameWriter`] picks it by player), so their batches
//! keep the order they were sent in.
//!
//! When a batch's statement fails (an erased player's answer among its rows, a
//! deadlock, a lost connection), each of its jobs runs again alone on the store's
//! pool, as the statements of one request, so that only the job at fault fails,
//! with its own error.

use std::collections::{HashMap, HashSet};
use std::mem::{discriminant, Discriminant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use sqlx::pool::PoolOptions;
use sqlx::postgres::{PgPool, Postgres};
use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::jobs::{gather, serving_values, Job, Statement, Value, Write};
use crate::session::{Session, SessionColumns, SESSIONS_BY_TOKENS, SESSION_BY_TOKEN};
use crate::sql::AnyQuery;
use crate::StoreError;

/// The pools the batches run on.
#[derive(Clone)]
struct Pools {
    /// The writer's own connections (sqlx's PostgreSQL driver, which binds arrays).
    batches: PgPool,
    /// The store's pool, on which the jobs of a failed statement run alone.
    alone: AnyPool,
}

/// Lanes: one per core the server has, from 2 to 8.
fn lanes() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from).clamp(2, 8)
}

/// Connections of the lanes together: a batch holds two or three kinds of job
/// (answers, or servings, with session reads) and each runs on a connection.
fn connections(lanes: usize) -> u32 {
    u32::try_from(3 * lanes).unwrap_or(24)
}

/// Connects to `url` (waiting at most `wait` for a connection) and starts the lanes'
/// tasks, which run the jobs sent to the queues it returns.
pub(super) async fn start(url: &str, alone: AnyPool, wait: Duration) -> Result<Vec<mpsc::UnboundedSender<Job>>, StoreError> {
    let lanes = lanes();
    let options = PoolOptions::<Postgres>::new().max_connections(connections(lanes)).acquire_timeout(wait);
    let pools = Pools { batches: options.connect(url).await?, alone };
    let open = Arc::new(AtomicUsize::new(lanes));
    Ok((0..lanes)
        .map(|_| {
            let (jobs, waiting) = mpsc::unbounded_channel();
            tokio::spawn(run_batches(pools.clone(), waiting, open.clone()));
            jobs
        })
        .collect())
}

/// Until it is closed or every sender is gone: runs the jobs waiting in this lane
/// as one batch, one batch at a time (while it runs, the jobs that come wait and go
/// together in the next). A close is answered once the jobs before it are done; the
/// last lane to close closes the connections first.
async fn run_batches(pools: Pools, mut waiting: mpsc::UnboundedReceiver<Job>, open: Arc<AtomicUsize>) {
    while let Some(first) = waiting.recv().await {
        if let Some(done) = run(&pools, gather(first, &mut waiting)).await {
            if open.fetch_sub(1, Ordering::AcqRel) == 1 {
                pools.batches.close().await;
            }
            let _ = done.send(());
            return;
        }
    }
}

type Told<T> = oneshot::Sender<Result<T, StoreError>>;

/// The writes of a batch of one kind, and where their results go.
type OfKind = (Discriminant<Write>, Vec<(Write, Told<bool>)>);

/// Runs `batch`: the writes of each kind as one statement, the session reads as
/// one, all at once; returns where to answer the close that ends it, if one does.
async fn run(pools: &Pools, batch: Vec<Job>) -> Option<oneshot::Sender<()>> {
    let mut kinds: Vec<OfKind> = Vec::new();
    let mut reads = Vec::new();
    let mut close = None;
    for job in batch {
        match job {
            Job::Write { write, done } => match kinds.iter_mut().find(|(kind, _)| *kind == discriminant(&write)) {
                Some((_, writes)) => writes.push((write, done)),
                None => kinds.push((discriminant(&write), vec![(write, done)])),
            },
            Job::Session { token_hash, done } => reads.push((token_hash, done)),
            Job::Close { done } => close = Some(done),
        }
    }
    let writes = join_all(kinds.into_iter().map(|(_, writes)| write_together(pools, writes)));
    tokio::join!(writes, read_together(pools, reads));
    close
}

/// Runs `writes`, all of one kind, as one statement, and tells each whether it
/// stored or moved; when the statement fails, each alone.
async fn write_together(pools: &Pools, writes: Vec<(Write, Told<bool>)>) {
    let Some((first, _)) = writes.first() else { return };
    let sql = first.together_sql();
    let rows = writes.iter().map(|(write, _)| write.postgres_statements().swap_remove(0).1);
    let changed: Result<Vec<String>, sqlx::Error> = columns(rows)
        .into_iter()
        .fold(sqlx::query_scalar::<Postgres, String>(sql), |q, column| column.bind_to(q))
        .fetch_all(&pools.batches)
        .await;
    match changed {
        Ok(changed) => {
            // a key changed once is the first job's of that key: the others found it done
            let mut changed: HashSet<String> = changed.into_iter().collect();
            for (write, done) in writes {
                let _ = done.send(Ok(changed.remove(write.key())));
            }
        }
        Err(e) => {
            tracing::debug!("a batch of {} game writes failed ({e}); each runs alone", writes.len());
            for (write, done) in writes {
                let _ = done.send(write_alone(&pools.alone, &write).await);
            }
        }
    }
}

/// Reads the sessions of `reads` as one statement; when it fails, each alone.
async fn read_together(pools: &Pools, reads: Vec<(String, Told<Option<Session>>)>) {
    if reads.is_empty() {
        return;
    }
    let tokens: Vec<&str> = reads.iter().map(|(token_hash, _)| token_hash.as_str()).collect();
    type Found = (String, Option<String>, String, String, i64, i64, i64, i64);
    let found: Result<Vec<Found>, sqlx::Error> = sqlx::query_as(SESSIONS_BY_TOKENS).bind(tokens).fetch_all(&pools.batches).await;
    match found {
        Ok(found) => {
            let found: HashMap<String, SessionColumns> = found
                .into_iter()
                .map(|(token_hash, serving, id, pseudonym, assignments, answered, right, proposed)| {
                    (token_hash, (serving, id, pseudonym, assignments, answered, right, proposed))
                })
                .collect();
            for (token_hash, done) in reads {
                let columns = found.get(&token_hash).cloned();
                let _ = done.send(Ok(columns.map(|c| Session::from_columns(token_hash, c))));
            }
        }
        Err(e) => {
            tracing::debug!("a batch of {} session reads failed ({e}); each runs alone", reads.len());
            for (token_hash, done) in reads {
                let columns: Result<Option<SessionColumns>, sqlx::Error> =
                    sqlx::query_as(SESSION_BY_TOKEN).bind(&token_hash).fetch_optional(&pools.alone).await;
                let _ = done.send(columns.map(|c| c.map(|c| Session::from_columns(token_hash, c))).map_err(StoreError::from));
            }
        }
    }
}

/// A column of a batch's statement: one parameter, an array with an element per job.
enum Column<'a> {
    Text(Vec<Option<&'a str>>),
    Int(Vec<Option<i64>>),
}

impl<'a> Column<'a> {
    fn bind_to(self, query: PgScalar<'a>) -> PgScalar<'a> {
        match self {
            Column::Text(texts) => query.bind(texts),
            Column::Int(ints) => query.bind(ints),
        }
    }
}

type PgScalar<'q> = sqlx::query::QueryScalar<'q, Postgres, String, sqlx::postgres::PgArguments>;

/// The jobs' `rows` (each one statement's values, alike in kind) as columns.
fn columns<'a>(rows: impl Iterator<Item = Vec<Value<'a>>>) -> Vec<Column<'a>> {
    let mut columns: Vec<Column<'a>> = Vec::new();
    for row in rows {
        if columns.is_empty() {
            columns = row
                .iter()
                .map(|value| match value {
                    Value::Text(_) | Value::MaybeText(_) => Column::Text(Vec::new()),
                    Value::Int(_) | Value::MaybeInt(_) => Column::Int(Vec::new()),
                })
                .collect();
        }
        for (column, value) in columns.iter_mut().zip(row) {
            match (column, value) {
                (Column::Text(texts), Value::Text(text)) => texts.push(Some(text)),
                (Column::Text(texts), Value::MaybeText(text)) => texts.push(text),
                (Column::Int(ints), Value::Int(n)) => ints.push(Some(n)),
                (Column::Int(ints), Value::MaybeInt(n)) => ints.push(n),
                _ => unreachable!("the writes of a batch's statement are of one kind, so their values are too"),
            }
        }
    }
    columns
}

/// A serving and its session's move as one statement (one round trip, one commit):
/// the serving is stored and made the session's current one, or, when the player
/// was served the item already (or the session is gone), nothing is.
const SERVE_AND_MOVE: &str = "WITH served AS (INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) \
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id) \
     UPDATE sessions SET current_serving_id = served.id FROM served WHERE token_hash = $7";

/// The writes of a batch, one statement per kind: each takes its jobs' values (as
/// [`Write::postgres_statements`] binds them) as arrays, one per parameter, and
/// returns the key ([`Write::key`]) of each job that stored or moved something.
const ANSWERS: &str = "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, server_ms, option_order, \
     created_at, client_ms_reported, input_device, hidden_changes, clock_us, frame_us) \
     SELECT * FROM UNNEST($1::text[], $2::text[], $3::int8[], $4::int8[], $5::text[], $6::int8[], $7::int8[], $8::int8[], \
     $9::text[], $10::int8[], $11::int8[], $12::text[], $13::int8[], $14::int8[], $15::int8[]) \
     ON CONFLICT (id) DO NOTHING RETURNING id";
const SERVINGS_AND_MOVES: &str = "WITH given AS (SELECT * FROM UNNEST($1::text[], $2::text[], $3::int8[], $4::int8[], $5::int8[], \
     $6::int8[], $7::text[]) AS g (id, annotator_id, item_id, k, target_first, served_at, token_hash)), \
     served AS (INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) \
     SELECT id, annotator_id, item_id, k, target_first, served_at FROM given ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id) \
     UPDATE sessions s SET current_serving_id = given.id FROM served JOIN given USING (id) \
     WHERE s.token_hash = given.token_hash RETURNING s.current_serving_id";
const MOVES_ON: &str = "UPDATE sessions SET current_serving_id = NULL FROM UNNEST($1::text[]) AS m (token_hash) \
     WHERE sessions.token_hash = m.token_hash AND current_serving_id IN (SELECT id FROM answers) RETURNING sessions.token_hash";
const NEW_PLAYERS: &str = "INSERT INTO annotators (id, pseudonym, consent_version, created_at) \
     SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::int8[]) ON CONFLICT (pseudonym) DO NOTHING RETURNING id";
const NEW_SESSIONS: &str = "INSERT INTO sessions (token_hash, annotator_id, created_at) \
     SELECT * FROM UNNEST($1::text[], $2::text[], $3::int8[]) RETURNING token_hash";

impl Write {
    /// Its statements when it runs alone, each committing itself: a serving and its
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

    /// The statement that runs the writes of its kind in a batch together.
    fn together_sql(&self) -> &'static str {
        match self {
            Write::Answer(_) => ANSWERS,
            Write::Serve { .. } => SERVINGS_AND_MOVES,
            Write::MoveOn { .. } => MOVES_ON,
            Write::NewAnnotator { .. } => NEW_PLAYERS,
            Write::NewSession { .. } => NEW_SESSIONS,
        }
    }

    /// What the statement of [`Write::together_sql`] returns when this write
    /// stored or moved something.
    fn key(&self) -> &str {
        match self {
            Write::Answer(answer) => &answer.id,
            Write::Serve { serving, .. } => &serving.id,
            Write::MoveOn { session, .. } => session,
            Write::NewAnnotator { id, .. } => id,
            Write::NewSession { token_hash, .. } => token_hash,
        }
    }
}

/// `write` alone on a connection of `pool`, each statement committing itself.
async fn write_alone(pool: &AnyPool, write: &Write) -> Result<bool, StoreError> {
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
