//! Load and audit for Gapwise. Simulated annotators play a served Gapwise over HTTP
//! for a bounded time (serve an item, think, answer, move on), as a browser's
//! hydrated page does; every answer the server acknowledges with a 2xx is kept, and
//! the audit then looks each one up in the database: stored exactly once, none lost.
//!
//! The same players can drive a bare axum + sqlx endpoint that does one INSERT per
//! request ([`bare`]), measured in the same run, so Gapwise's throughput is reported
//! as a ratio to what the stack itself allows on this machine.
//!
//! Transport errors (a server killed and restarted, a replica gone) are counted and
//! the player retries the same answer, which Gapwise stores once (answers are
//! idempotent), so a fault run audits the promise "no acknowledged answer lost".

pub mod audit;
pub mod bare;
mod player;

use std::collections::HashSet;
use std::time::{Duration, Instant};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The server's base URL, such as `http://127.0.0.1:3000`.
    pub base: String,
    /// Annotators playing at once; one who runs out of items is replaced by a new one.
    pub annotators: usize,
    pub duration: Duration,
    /// Pause between seeing an item and answering it.
    pub think: Duration,
    /// Sentences per item (5 is open to new players).
    pub k: u8,
    pub language: String,
    /// Only serve and answer, one request a round: `answer-next` answers and returns
    /// the next item. The game page's progress and crowd-progress requests after
    /// each answer are left out.
    pub lean: bool,
}

/// Which server the players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Gapwise's own game API: `start`, `play`, `answer`, `next`.
    Gapwise,
    /// The reference endpoint of [`bare`]: one POST, one INSERT.
    Bare,
}

/// Requests that did not end in a 2xx.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Errors {
    /// No response: connection refused or reset, or a timeout.
    pub transport: u64,
    pub client: u64,
    pub server: u64,
}

impl Errors {
    pub fn total(&self) -> u64 {
        self.transport + self.client + self.server
    }

    fn add(&mut self, other: Errors) {
        self.transport += other.transport;
        self.client += other.client;
        self.server += other.server;
    }
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Ids of the answers acknowledged with a 2xx (each once, however often retried).
    pub acknowledged: HashSet<String>,
    /// Latency of each acknowledged answer request, in microseconds, sorted.
    pub latencies_us: Vec<u64>,
    pub errors: Errors,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn answers_per_second(&self) -> f64 {
        self.latencies_us.len() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q`-quantile of answer latency (nearest rank), in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return f64::NAN;
        }
        let rank = ((q * self.latencies_us.len() as f64).ceil() as usize).clamp(1, self.latencies_us.len());
        self.latencies_us[rank - 1] as f64 / 1000.0
    }

    /// One line of figures.
    pub fn summary(&self) -> String {
        format!(
            "{} answers in {:.1} s = {:.0} answers/s; answer latency p50 {:.2} ms, p99 {:.2} ms; errors: {} transport, {} 4xx, {} 5xx",
            self.latencies_us.len(),
            self.elapsed.as_secs_f64(),
            self.answers_per_second(),
            self.latency_ms(0.5),
            self.latency_ms(0.99),
            self.errors.transport,
            self.errors.client,
            self.errors.server
        )
    }
}

/// What one simulated player reports back.
#[derive(Default)]
struct PlayerLog {
    acknowledged: Vec<String>,
    latencies_us: Vec<u64>,
    errors: Errors,
}

/// Runs `plan.annotators` players against `target` until `plan.duration` is over.
pub async fn run(plan: &Plan, target: Target) -> Outcome {
    let started = Instant::now();
    let deadline = started + plan.duration;
    let players: Vec<_> = (0..plan.annotators)
        .map(|_| {
            let plan = plan.clone();
            tokio::spawn(async move {
                match target {
                    Target::Gapwise => player::play_gapwise(&plan, deadline).await,
                    Target::Bare => player::play_bare(&plan, deadline).await,
                }
            })
        })
        .collect();
    let mut outcome = Outcome::default();
    for player in players {
        // a player task only ends by returning its log
        let Ok(log) = player.await else { continue };
        outcome.acknowledged.extend(log.acknowledged);
        outcome.latencies_us.extend(log.latencies_us);
        outcome.errors.add(log.errors);
    }
    outcome.elapsed = started.elapsed();
    outcome.latencies_us.sort_unstable();
    outcome
}
