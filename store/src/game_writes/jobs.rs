//! The jobs that requests hand the game's writer (see the parent module): the
//! writes and their rows, the statements each write is, the results still to come,
//! and how the jobs waiting are taken as a batch.

use std::sync::Arc;

use gapwise_model::PlayerId;
use tokio::sync::{mpsc, oneshot};

use super::rows::{values, AnswerRow, ServingRow, Statement, Value, ANSWER_COLUMNS, INSERT_ANSWER, INSERT_SERVING, SERVING_COLUMNS};
use crate::error::StoreError;
use crate::session::Session;

/// Jobs a batch holds at most (its transaction or statements should stay short).
const MOST_PER_BATCH: usize = 256;

#[derive(Debug)]
pub enum Write {
    /// Stores an answer unless one with its id is stored: whether it was new.
    Answer(AnswerRow),
    /// Stores a serving unless the annotator was served the item, and makes it the
    /// session's current one: whether it was new.
    Serve { serving: Arc<ServingRow>, session: String },
    /// Moves the session past an answered serving: whether it was on one. `player`
    /// is the session's player (it picks the lane).
    MoveOn { session: String, player: PlayerId },
    /// Stores a new player unless their pseudonym is taken: whether it was free.
    NewPlayer { id: PlayerId, pseudonym: String, consent_version: String, created_at: i64 },
    /// Opens a session for a player (true).
    NewSession { token_hash: String, player: PlayerId, created_at: i64 },
}

impl Write {
    /// Its statements. The first one changes a row when the write stores or moves
    /// something; the others run only then.
    pub(super) fn statements(&self) -> Vec<Statement<'_>> {
        match self {
            Write::Answer(a) => vec![(INSERT_ANSWER.as_str(), values(&ANSWER_COLUMNS, a))],
            Write::Serve { serving: s, session } => vec![
                (INSERT_SERVING.as_str(), values(&SERVING_COLUMNS, s)),
                ("UPDATE sessions SET current_serving_id = $1 WHERE token_hash = $2", vec![Value::Text(s.id.as_str()), Value::Text(session)]),
            ],
            Write::MoveOn { session, .. } => vec![(
                "UPDATE sessions SET current_serving_id = NULL WHERE token_hash = $1 AND current_serving_id IN (SELECT id FROM answers)",
                vec![Value::Text(session)],
            )],
            Write::NewPlayer { id, pseudonym, consent_version, created_at } => vec![(
                "INSERT INTO annotators (id, pseudonym, consent_version, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (pseudonym) DO NOTHING",
                vec![Value::Text(id.as_str()), Value::Text(pseudonym), Value::Text(consent_version), Value::Int(*created_at)],
            )],
            Write::NewSession { token_hash, player, created_at } => vec![(
                "INSERT INTO sessions (token_hash, annotator_id, created_at) VALUES ($1, $2, $3)",
                vec![Value::Text(token_hash), Value::Text(player.as_str()), Value::Int(*created_at)],
            )],
        }
    }
}

/// The error of a job handed to a writer that has closed.
pub(super) fn closed() -> StoreError {
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
    pub(super) fn queued<E>(sent: Result<(), E>, result: oneshot::Receiver<Result<T, StoreError>>) -> Pending<T> {
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

/// What a request hands the writer, and where its result goes.
pub(crate) enum Job {
    /// Whether the write stored or moved.
    Write { write: Write, done: oneshot::Sender<Result<bool, StoreError>> },
    /// The session with this token hash, if there is one.
    Session { token_hash: String, done: oneshot::Sender<Result<Option<Session>, StoreError>> },
    /// Stops the thread once the jobs before it are done.
    Close { done: oneshot::Sender<()> },
}

impl Write {
    /// The player it concerns (their id): what picks the lane it runs in.
    pub(super) fn player(&self) -> &PlayerId {
        match self {
            Write::Answer(a) => &a.player,
            Write::Serve { serving, .. } => &serving.player,
            Write::MoveOn { player, .. } => player,
            Write::NewPlayer { id, .. } => id,
            Write::NewSession { player, .. } => player,
        }
    }
}

/// A batch: `first`, and the jobs waiting behind it up to [`MOST_PER_BATCH`] or up
/// to a close.
pub(super) fn gather(first: Job, waiting: &mut mpsc::UnboundedReceiver<Job>) -> Vec<Job> {
    let mut batch = vec![first];
    while batch.len() < MOST_PER_BATCH && !matches!(batch.last(), Some(Job::Close { .. })) {
        match waiting.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}
