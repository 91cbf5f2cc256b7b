//! The game's hot path to the database: answers, servings, moving on, new players
//! and their sessions, and the reads of sessions that every request starts with.
//! Requests hand them over as jobs ([`GameWriter`]) and wait for their results; the
//! jobs waiting are taken as batches:
//! - on SQLite by one thread that owns the one writer connection and commits a
//!   batch in one transaction ([`sqlite`]);
//! - on PostgreSQL by a few tasks (lanes), each sending the jobs of its batch that
//!   rounds bring as one statement, and each rarer kind of job as one more
//!   ([`postgres`]); a player's jobs always go to the same lane.
//!
//! Either way a request gets its result only after the commit that holds its write,
//! so an answer acknowledged is an answer stored, and a job that fails (an erased
//! player's answer, say) fails only its own request.
//!
//! The jobs of one batch were all handed over before any of them was answered, so
//! none of them waited for another: a request that needs a write done (moving on
//! after its answer) waits for it before it sends the next. Such jobs may be run in
//! any order, which is what lets PostgreSQL take a batch's answers, servings and
//! session reads as one statement.
mod jobs;
mod postgres;
mod rows;
mod sqlite;

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::session::Session;
use crate::error::StoreError;
use jobs::Job;
pub use jobs::{Pending, Write};
pub use rows::{AnswerRow, ServingRow};
pub(crate) use sqlite::SQLITE_PRAGMAS;

/// Longest a request waits for a database connection (the store's pool and the
/// writer's alike).
pub(crate) const ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Where the game's hot writes, and the reads of sessions, go (see the module's
/// documentation): the queues of its lanes.
#[derive(Clone, Debug)]
pub(crate) struct GameWriter(Arc<[mpsc::UnboundedSender<Job>]>);

impl GameWriter {
    /// Opens the SQLite database `file` on a thread of its own, which batches the
    /// jobs handed to it until [`GameWriter::close`] or until every sender is gone.
    pub(crate) async fn sqlite(file: PathBuf) -> Result<GameWriter, StoreError> {
        Ok(GameWriter(Arc::new([sqlite::start(file).await?])))
    }

    /// A writer that takes nothing, for a store opened to read only: every job fails
    /// as on a closed pool.
    pub(crate) fn closed() -> GameWriter {
        let (lane, _) = mpsc::unbounded_channel();
        GameWriter(Arc::new([lane]))
    }

    /// Connects to the PostgreSQL database `url` on connections of its own, beside
    /// `pool` (the store's), on which a job whose batch failed runs again alone.
    pub(crate) async fn postgres(url: &str, pool: AnyPool) -> Result<GameWriter, StoreError> {
        postgres::start(url, pool, ACQUIRE_TIMEOUT).await.map(|lanes| GameWriter(lanes.into()))
    }

    /// The lane of the player `player` (see [`Write::player`]).
    fn lane(&self, player: &str) -> &mpsc::UnboundedSender<Job> {
        let mut hash = DefaultHasher::new();
        player.hash(&mut hash);
        let at = usize::try_from(hash.finish() % self.0.len() as u64).unwrap_or(0);
        self.0.get(at).unwrap_or_else(|| unreachable!("a writer has at least one lane, and the index is below their count"))
    }

    /// Hands `write` over and waits for its result.
    pub(crate) async fn write(&self, write: Write) -> Result<bool, StoreError> {
        self.send(write).await.result().await
    }

    /// Hands `write` over: it joins the jobs waiting for its lane's next batch, so
    /// that a write this request sends after it goes in the same batch or a later one.
    pub(crate) async fn send(&self, write: Write) -> Pending<bool> {
        let (done, result) = oneshot::channel();
        let lane = self.lane(write.player().as_str());
        Pending::queued(lane.send(Job::Write { write, done }), result)
    }

    /// The session whose token hashes to `token_hash`, read in the next batch of the
    /// lane its token picks (a request reads its session before it writes, and waits).
    pub(crate) async fn session(&self, token_hash: String) -> Result<Option<Session>, StoreError> {
        let (done, result) = oneshot::channel();
        let lane = self.lane(&token_hash);
        Pending::queued(lane.send(Job::Session { token_hash, done }), result).result().await
    }

    /// Finishes the jobs handed over so far and closes the writer's connections;
    /// later jobs fail as on a closed pool.
    pub(crate) async fn close(&self) {
        let closing: Vec<_> = self
            .0
            .iter()
            .filter_map(|lane| {
                let (done, closed) = oneshot::channel();
                lane.send(Job::Close { done }).is_ok().then_some(closed)
            })
            .collect();
        futures_util::future::join_all(closing).await;
    }
}
