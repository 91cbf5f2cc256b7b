//! What a run is asked to do, and what it and each player count.

use std::collections::HashSet;
use std::time::Duration;

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
    /// Only serve and answer: `answer-next` answers and returns the next item.
    /// Otherwise a round is the game page's request, `answer-round`, which also
    /// brings the player's progress and crowd study.
    pub lean: bool,
}

/// Which server the players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Gapwise's own game API: `start`, `play`, then a request a round (`answer-round`, or
    /// `answer-next` when lean).
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

    pub(crate) fn add(&mut self, other: Errors) {
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
    /// The machine's CPU time while it ran, all cores: (idle, total) in clock ticks
    /// (Linux's /proc/stat; none elsewhere).
    pub cpu_ticks: Option<(u64, u64)>,
}

/// The machine's (idle, total) CPU clock ticks since boot, all cores together: idle
/// counts waiting for I/O too.
pub(crate) fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    // user nice system idle iowait irq softirq steal; guest time is counted in user already
    let ticks: Vec<u64> = stat.lines().next()?.split_whitespace().skip(1).take(8).map_while(|t| t.parse().ok()).collect();
    let idle = ticks.get(3)? + ticks.get(4).copied().unwrap_or(0);
    Some((idle, ticks.iter().sum()))
}

impl Outcome {
    /// Adds `other`, a later slice of the same run: its answers, errors and time.
    pub(crate) fn merge(&mut self, other: Outcome) {
        self.acknowledged.extend(other.acknowledged);
        self.latencies_us.extend(other.latencies_us);
        self.latencies_us.sort_unstable();
        self.errors.add(other.errors);
        self.elapsed += other.elapsed;
        self.cpu_ticks = match (self.cpu_ticks, other.cpu_ticks) {
            (Some((i, t)), Some((j, u))) => Some((i + j, t + u)),
            (mine, theirs) => mine.or(theirs),
        };
    }

    /// The share of the machine's CPU time that was idle while it ran, in percent.
    pub fn cpu_idle_percent(&self) -> Option<f64> {
        self.cpu_ticks.filter(|&(_, total)| total > 0).map(|(idle, total)| 100.0 * idle as f64 / total as f64)
    }

    pub fn answers_per_second(&self) -> f64 {
        self.latencies_us.len() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q`-quantile of answer latency (nearest rank), in milliseconds.
    pub fn latency_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return f64::NAN;
        }
        let rank = ((q * self.latencies_us.len() as f64).ceil() as usize).clamp(1, self.latencies_us.len());
        self.latencies_us.get(rank - 1).map_or(f64::NAN, |&us| us as f64 / 1000.0)
    }

    /// One line of figures.
    pub fn summary(&self) -> String {
        format!(
            "{} answers in {:.1} s = {:.0} answers/s; answer latency p50 {:.2} ms, p99 {:.2} ms; errors: {} transport, {} 4xx, {} 5xx{}",
            self.latencies_us.len(),
            self.elapsed.as_secs_f64(),
            self.answers_per_second(),
            self.latency_ms(0.5),
            self.latency_ms(0.99),
            self.errors.transport,
            self.errors.client,
            self.errors.server,
            self.cpu_idle_percent().map_or(String::new(), |idle| format!("; CPU idle {idle:.1} %"))
        )
    }
}

/// What one simulated player reports back.
#[derive(Default)]
pub(crate) struct PlayerLog {
    pub acknowledged: Vec<String>,
    pub latencies_us: Vec<u64>,
    pub errors: Errors,
}
