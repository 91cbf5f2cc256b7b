//! The game's writes on PostgreSQL: in each of a few lanes, a task takes the jobs
//! waiting as a batch and sends the jobs that rounds bring as one statement over
//! arrays ([`ROUNDS`]: all its answers stored, all its servings stored with their
//! sessions' moves, all its session reads), and each rarer kind of job (new players,
//! new sessions, moves past an answer) as one statement more, each on a connection
//! of its own and committing itself. A lane runs one batch at a time, while the jobs
//! that come wait and go together in its next. Under load a request's few
//! statements thus become a share of one statement per batch: fewer round trips and
//! commits than one of each per request. The statements are planned once per
//! connection, not at each run (see [`start`]).
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
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use futures_util::future::join_all;
use sqlx::pool::PoolOptions;
use sqlx::postgres::{PgConnectOptions, PgPool, Postgres};
use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::jobs::{gather, Job, Write};
use super::rows::{
    names, placeholders, values, AnswerRow, Column as TableColumn, ServingRow, Statement, Value, ANSWER_COLUMNS, SERVING_COLUMNS,
};
use crate::error::StoreError;
use crate::session::{sessions_where, Session, SessionColumns, SESSION_BY_TOKEN};
use crate::sql::AnyQuery;

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

/// Connections of the lanes together: a batch's rounds run on one, and the rarer
/// kinds of job beside them on others (a statement waits for one when all are
/// taken, at most [`super::ACQUIRE_TIMEOUT`], then its jobs run alone).
fn connections(lanes: usize) -> u32 {
    u32::try_from(2 * lanes).unwrap_or(16)
}

/// Connects to `url` (waiting at most `wait` for a connection) and starts the lanes'
/// tasks, which run the jobs sent to the queues it returns.
pub(super) async fn start(url: &str, alone: AnyPool, wait: Duration) -> Result<Vec<mpsc::UnboundedSender<Job>>, StoreError> {
    let lanes = lanes();
    // the batches' statements are planned once per connection. Left to choose,
    // PostgreSQL planned ROUNDS afresh for the arrays bound at nearly every run
    // (pg_stat_statements: a plan per call, 0.25 ms each, about what running it took)
    let connect = url.parse::<PgConnectOptions>()?.options([("plan_cache_mode", "force_generic_plan")]);
    let options = PoolOptions::<Postgres>::new().max_connections(connections(lanes)).acquire_timeout(wait);
    let pools = Pools { batches: options.connect_with(connect).await?, alone };
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

/// The jobs of a batch that every round brings, which go as one statement
/// ([`ROUNDS`]): answers, servings with their sessions' moves, session reads.
#[derive(Default)]
struct Rounds {
    answers: Vec<(Write, Told<bool>)>,
    servings: Vec<(Write, Told<bool>)>,
    reads: Vec<(String, Told<Option<Session>>)>,
}

/// Runs `batch`: its rounds' jobs as one statement, the writes of each other kind
/// as one, all at once; returns where to answer the close that ends it, if one does.
async fn run(pools: &Pools, batch: Vec<Job>) -> Option<oneshot::Sender<()>> {
    let mut rounds = Rounds::default();
    let mut kinds: Vec<OfKind> = Vec::new();
    let mut close = None;
    for job in batch {
        match job {
            Job::Write { write: write @ Write::Answer(_), done } => rounds.answers.push((write, done)),
            Job::Write { write: write @ Write::Serve { .. }, done } => rounds.servings.push((write, done)),
            Job::Write { write, done } => match kinds.iter_mut().find(|(kind, _)| *kind == discriminant(&write)) {
                Some((_, writes)) => writes.push((write, done)),
                None => kinds.push((discriminant(&write), vec![(write, done)])),
            },
            Job::Session { token_hash, done } => rounds.reads.push((token_hash, done)),
            Job::Close { done } => close = Some(done),
        }
    }
    let writes = join_all(kinds.into_iter().map(|(_, writes)| write_together(pools, writes)));
    tokio::join!(writes, rounds_together(pools, rounds));
    close
}

/// What a row of [`ROUNDS`] tells: its kind, its key, and for a session read the
/// session's [`SessionColumns`].
type RoundRow =
    (String, String, Option<String>, Option<String>, Option<String>, Option<i64>, Option<i64>, Option<i64>, Option<i64>, Option<i64>);

/// Runs the jobs of `rounds` as one statement and tells each its result; when the
/// statement fails, each runs alone.
async fn rounds_together(pools: &Pools, rounds: Rounds) {
    let Rounds { answers, servings, reads } = rounds;
    if answers.is_empty() && servings.is_empty() && reads.is_empty() {
        return;
    }
    let tokens: Vec<&str> = reads.iter().map(|(token_hash, _)| token_hash.as_str()).collect();
    let answer_rows: Vec<&AnswerRow> = answers.iter().filter_map(|(write, _)| write.answer()).collect();
    let (serving_rows, moving): (Vec<&ServingRow>, Vec<&str>) = servings.iter().filter_map(|(write, _)| write.serving()).unzip();
    let query = sqlx::query_as::<Postgres, RoundRow>(&ROUNDS);
    let query = bind_arrays(bind_arrays(query, &ANSWER_COLUMNS, &answer_rows), &SERVING_COLUMNS, &serving_rows).bind(moving).bind(tokens);
    match query.fetch_all(&pools.batches).await {
        Ok(found) => {
            let mut stored = HashSet::new();
            let mut served = HashSet::new();
            let mut sessions = HashMap::new();
            for (kind, key, serving, id, pseudonym, assignments, answered, right, proposed, opened) in found {
                match (kind.as_str(), id, pseudonym, assignments, answered, right, proposed, opened) {
                    ("answer", ..) => {
                        stored.insert(key);
                    }
                    ("serving", ..) => {
                        served.insert(key);
                    }
                    (_, Some(id), Some(pseudonym), Some(assignments), Some(answered), Some(right), Some(proposed), Some(opened)) => {
                        sessions.insert(key, (serving, id, pseudonym, assignments, answered, right, proposed, opened));
                    }
                    _ => unreachable!("a session read's row has every column of the session"),
                }
            }
            tell(stored, answers);
            tell(served, servings);
            for (token_hash, done) in reads {
                let columns = sessions.get(&token_hash).cloned();
                let _ = done.send(Ok(columns.map(|c| Session::from_columns(token_hash, c))));
            }
        }
        Err(e) => {
            tracing::debug!("a batch of {} rounds' jobs failed ({e}); each runs alone", answers.len() + servings.len() + reads.len());
            each_alone(pools, answers.into_iter().chain(servings)).await;
            for (token_hash, done) in reads {
                let columns: Result<Option<SessionColumns>, sqlx::Error> =
                    sqlx::query_as(SESSION_BY_TOKEN).bind(&token_hash).fetch_optional(&pools.alone).await;
                let _ = done.send(columns.map(|c| c.map(|c| Session::from_columns(token_hash, c))).map_err(StoreError::from));
            }
        }
    }
}

/// Tells each of `writes` whether its key is among the keys its statement `changed`.
/// A key changed once is the first job's of that key: the others found it done.
fn tell(mut changed: HashSet<String>, writes: Vec<(Write, Told<bool>)>) {
    for (write, done) in writes {
        let _ = done.send(Ok(changed.remove(write.key())));
    }
}

/// Runs each of `writes` alone (after their batch's statement failed) and tells it
/// its own result.
async fn each_alone(pools: &Pools, writes: impl IntoIterator<Item = (Write, Told<bool>)>) {
    for (write, done) in writes {
        let _ = done.send(write_alone(&pools.alone, &write).await);
    }
}

/// The values of `writes` (all of one kind) in their batch's statement, a row each.
fn batch_values<'a>(writes: &'a [(Write, Told<bool>)]) -> Vec<Vec<Value<'a>>> {
    writes.iter().map(|(write, _)| write.postgres_statements().swap_remove(0).1).collect()
}

/// Runs `writes`, all of one kind, as one statement, and tells each whether it
/// stored or moved; when the statement fails, each alone.
async fn write_together(pools: &Pools, writes: Vec<(Write, Told<bool>)>) {
    let Some((first, _)) = writes.first() else { return };
    let (sql, parameters) = first.together();
    let changed: Result<Vec<(String,)>, sqlx::Error> = columns(parameters, batch_values(&writes))
        .into_iter()
        .fold(sqlx::query_as::<Postgres, (String,)>(sql), |q, column| column.bind_to(q))
        .fetch_all(&pools.batches)
        .await;
    match changed {
        Ok(changed) => tell(changed.into_iter().map(|(key,)| key).collect(), writes),
        Err(e) => {
            tracing::debug!("a batch of {} game writes failed ({e}); each runs alone", writes.len());
            each_alone(pools, writes).await;
        }
    }
}

/// `query` with a parameter per column of `columns`: an array of its values in `rows`.
fn bind_arrays<'a, R, O>(query: PgQueryAs<'a, O>, columns: &[TableColumn<R>], rows: &[&'a R]) -> PgQueryAs<'a, O> {
    columns.iter().fold(query, |q, column| match column {
        TableColumn::Text(_, get) => q.bind(rows.iter().map(|row| get(row)).collect::<Vec<Option<&str>>>()),
        TableColumn::Int(_, get) => q.bind(rows.iter().map(|row| get(row)).collect::<Vec<Option<i64>>>()),
    })
}

/// The kind of a batch statement's parameter: an array of texts or of integers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Text,
    Int,
}
use Kind::{Int, Text};

/// A column of a batch's statement: one parameter, an array with an element per job.
enum Column<'a> {
    Text(Vec<Option<&'a str>>),
    Int(Vec<Option<i64>>),
}

impl<'a> Column<'a> {
    fn bind_to<O>(self, query: PgQueryAs<'a, O>) -> PgQueryAs<'a, O> {
        match self {
            Column::Text(texts) => query.bind(texts),
            Column::Int(ints) => query.bind(ints),
        }
    }
}

type PgQueryAs<'q, O> = sqlx::query::QueryAs<'q, Postgres, O, sqlx::postgres::PgArguments>;

/// The jobs' `rows` (each one statement's values, alike in kind) as columns of the
/// kinds `parameters` (empty arrays when there are no rows).
fn columns<'a>(parameters: &[Kind], rows: Vec<Vec<Value<'a>>>) -> Vec<Column<'a>> {
    let mut columns: Vec<Column<'a>> = parameters
        .iter()
        .map(|kind| match kind {
            Text => Column::Text(Vec::with_capacity(rows.len())),
            Int => Column::Int(Vec::with_capacity(rows.len())),
        })
        .collect();
    for row in rows {
        for (column, value) in columns.iter_mut().zip(row) {
            match (column, value) {
                (Column::Text(texts), Value::Text(text)) => texts.push(Some(text)),
                (Column::Text(texts), Value::MaybeText(text)) => texts.push(text),
                (Column::Int(ints), Value::Int(n)) => ints.push(Some(n)),
                (Column::Int(ints), Value::MaybeInt(n)) => ints.push(n),
                _ => unreachable!("a statement's values are of the kinds of its parameters (tested)"),
            }
        }
    }
    columns
}

/// A serving and its session's move as one statement (one round trip, one commit):
/// the serving is stored and made the session's current one, or, when the player
/// was served the item already (or the session is gone), nothing is.
static SERVE_AND_MOVE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH served AS (INSERT INTO servings ({}) VALUES ({}) ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id) \
         UPDATE sessions SET current_serving_id = served.id FROM served WHERE token_hash = ${}",
        names(&SERVING_COLUMNS),
        placeholders(&SERVING_COLUMNS, 1),
        SERVING_COLUMNS.len() + 1
    )
});

/// `$from::type[]`... for `columns`, one parameter each.
fn arrays<R>(columns: &[TableColumn<R>], from: usize) -> String {
    columns.iter().enumerate().map(|(i, c)| format!("${}::{}", from + i, c.array_type())).collect::<Vec<_>>().join(", ")
}

/// A batch's rounds ([`Rounds`]) as one statement, each kind of job taking its
/// values as arrays, one per parameter: the answers are stored; the servings are
/// stored and made their sessions' current ones; the sessions are read. It returns a
/// row per answer stored and per session moved (their kind and key, [`Write::key`]),
/// and per session read (its kind, token hash and [`SessionColumns`]). Its parts see
/// the database as it was before it, so a session read does not see the batch's
/// moves: no job of a batch waits for another (see the parent module).
static ROUNDS: LazyLock<String> = LazyLock::new(|| {
    let (answers, servings) = (names(&ANSWER_COLUMNS), names(&SERVING_COLUMNS));
    let given = ANSWER_COLUMNS.len() + 1;
    let tokens = given + SERVING_COLUMNS.len() + 1;
    format!(
        "WITH answered AS (INSERT INTO answers ({answers}) SELECT * FROM UNNEST({}) ON CONFLICT (id) DO NOTHING RETURNING id), \
         given AS (SELECT * FROM UNNEST({}, ${}::text[]) AS g ({servings}, token_hash)), \
         served AS (INSERT INTO servings ({servings}) SELECT {servings} FROM given ON CONFLICT (annotator_id, item_id) DO NOTHING RETURNING id), \
         moved AS (UPDATE sessions s SET current_serving_id = given.id FROM served JOIN given USING (id) \
         WHERE s.token_hash = given.token_hash RETURNING s.current_serving_id) {}{tokens}::text[]) \
         UNION ALL SELECT 'answer', id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM answered \
         UNION ALL SELECT 'serving', current_serving_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM moved",
        arrays(&ANSWER_COLUMNS, 1),
        arrays(&SERVING_COLUMNS, given),
        tokens - 1,
        sessions_where!("'session', s.token_hash, ", "s.token_hash = ANY($"),
    )
});

/// The writes of a batch outside its rounds, one statement per kind: each takes its
/// jobs' values (as [`Write::postgres_statements`] binds them) as arrays, one per
/// parameter, and returns the key ([`Write::key`]) of each job that stored or moved
/// something.
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
                let mut values = values(&SERVING_COLUMNS, serving);
                values.push(Value::Text(session));
                vec![(SERVE_AND_MOVE.as_str(), values)]
            }
            _ => self.statements(),
        }
    }

    /// Its answer's row, when it stores an answer.
    fn answer(&self) -> Option<&AnswerRow> {
        match self {
            Write::Answer(answer) => Some(answer),
            _ => None,
        }
    }

    /// Its serving's row and the session it moves, when it serves.
    fn serving(&self) -> Option<(&ServingRow, &str)> {
        match self {
            Write::Serve { serving, session } => Some((serving, session)),
            _ => None,
        }
    }

    /// The statement that runs the writes of its kind in a batch together, outside
    /// the batch's rounds, and its parameters.
    fn together(&self) -> (&'static str, &'static [Kind]) {
        match self {
            Write::Answer(_) | Write::Serve { .. } => unreachable!("a batch's answers and servings go in its rounds' statement"),
            Write::MoveOn { .. } => (MOVES_ON, &[Text]),
            Write::NewPlayer { .. } => (NEW_PLAYERS, &[Text, Text, Text, Int]),
            Write::NewSession { .. } => (NEW_SESSIONS, &[Text, Text, Int]),
        }
    }

    /// What its batch's statement returns when this write stored or moved something.
    fn key(&self) -> &str {
        match self {
            Write::Answer(answer) => answer.id.as_str(),
            Write::Serve { serving, .. } => serving.id.as_str(),
            Write::MoveOn { session, .. } => session,
            Write::NewPlayer { id, .. } => id.as_str(),
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

#[cfg(test)]
mod tests {
    use super::super::{AnswerRow, ServingRow};
    use super::*;

    /// The kinds of `sql`'s parameters, as it casts them (`$n::text[]` or `$n::int8[]`).
    fn casts(sql: &str) -> Vec<Kind> {
        sql.split("::")
            .skip(1)
            .map(|after| match after {
                _ if after.starts_with("text[]") => Text,
                _ if after.starts_with("int8[]") => Int,
                _ => panic!("a cast to neither text[] nor int8[]: {after:.20}"),
            })
            .collect()
    }

    /// The kinds of the values `write` binds in its batch's statement.
    fn kinds(write: &Write) -> Vec<Kind> {
        let values = write.postgres_statements().swap_remove(0).1;
        values
            .iter()
            .map(|value| match value {
                Value::Text(_) | Value::MaybeText(_) => Text,
                Value::Int(_) | Value::MaybeInt(_) => Int,
            })
            .collect()
    }

    /// The kinds of `columns`.
    fn kinds_of<R>(columns: &[TableColumn<R>]) -> Vec<Kind> {
        columns.iter().map(|c| if c.array_type() == "text[]" { Text } else { Int }).collect()
    }

    #[test]
    fn the_values_bound_are_of_the_kinds_the_statements_cast_them_to() {
        // the rounds' statement: the answers' columns, the servings' and their
        // sessions' token hashes, then the token hashes of the sessions read
        let rounds = [kinds_of(&ANSWER_COLUMNS), kinds_of(&SERVING_COLUMNS), vec![Text, Text]].concat();
        assert_eq!(casts(&ROUNDS), rounds, "{}", *ROUNDS);
        let (k, id, player) = (gapwise_model::K::THREE, gapwise_model::ServingId::new("s"), gapwise_model::PlayerId::new("p"));
        let serving =
            ServingRow { id: id.clone(), player: player.clone(), item: gapwise_model::ItemId(1), k, target_first: true, served_at: 1 };
        let answer = AnswerRow {
            id: id.clone(),
            player: player.clone(),
            item: gapwise_model::ItemId(1),
            k,
            chosen: "w".into(),
            correct: true,
            client_ms: None,
            server_ms: 1,
            option_order: "w|v".into(),
            created_at: 1,
            client_ms_reported: None,
            trial: gapwise_model::Trial::default(),
        };
        assert_eq!(kinds(&Write::Answer(answer)), kinds_of(&ANSWER_COLUMNS));
        let serve = Write::Serve { serving: Arc::new(serving), session: "t".into() };
        assert_eq!(kinds(&serve), [kinds_of(&SERVING_COLUMNS), vec![Text]].concat());
        let move_on = Write::MoveOn { session: "t".into(), player: player.clone() };
        let new_player = Write::NewPlayer { id: player.clone(), pseudonym: "q".into(), consent_version: "v".into(), created_at: 1 };
        let session = Write::NewSession { token_hash: "t".into(), player, created_at: 1 };
        for write in [move_on, new_player, session] {
            let (sql, parameters) = write.together();
            assert_eq!(casts(sql), parameters, "{sql}");
            assert_eq!(kinds(&write), parameters, "{sql}");
        }
    }
}
