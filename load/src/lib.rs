//! Load and audit for Gapwise. Simulated annotators play a served Gapwise over HTTP
//! for a bounded time (serve an item, think, answer, move on), as a browser's
//! hydrated page does; every answer the server acknowledges with a 2xx is kept, and
//! the audit then looks each one up in the database: stored exactly once, none lost.
//!
//! The same players can drive a bare axum + sqlx endpoint that does one INSERT per
//! request ([`bare`]), measured in the same run, so Gapwise's throughput is reported
//! as a ratio to what the stack itself allows on this machine. The two take turns
//! ([`take_turns`]): on a shared host whose speed drifts by a fifth within minutes
//! (seen on the machines these figures come from), a ratio of two runs made one
//! after the other measures the drift as well.
//!
//! Transport errors (a server killed and restarted, a replica gone) are counted and
//! the player retries the same answer, which Gapwise stores once (answers are
//! idempotent), so a fault run audits the promise "no acknowledged answer lost".

#![forbid(unsafe_code)]

pub mod audit;
pub mod bare;
mod plan;
mod player;

pub use plan::{Errors, Outcome, Plan, Target};

use std::time::Instant;

/// Runs each of `runs` (a plan and the server it plays) for its plan's duration,
/// cut into `slices` turns taken one run after the other, so that each run meets
/// the host as it is through the whole time; returns each run's outcome, its
/// slices added up, in the order of `runs`.
pub async fn take_turns(runs: &[(Plan, Target)], slices: u32) -> Vec<Outcome> {
    let slices = slices.max(1);
    let mut outcomes: Vec<Outcome> = runs.iter().map(|_| Outcome::default()).collect();
    for _ in 0..slices {
        for ((plan, target), outcome) in runs.iter().zip(&mut outcomes) {
            let slice = Plan { duration: plan.duration / slices, ..plan.clone() };
            outcome.merge(run(&slice, *target).await);
        }
    }
    outcomes
}

/// Runs `plan.annotators` players against `target` until `plan.duration` is over.
pub async fn run(plan: &Plan, target: Target) -> Outcome {
    let started = Instant::now();
    let ticks = plan::cpu_ticks();
    let deadline = started + plan.duration;
    let players: Vec<_> = (0..plan.annotators)
        .map(|n| {
            let plan = plan.clone();
            tokio::spawn(async move {
                match target {
                    Target::Gapwise => player::play_gapwise(&plan, deadline, n).await,
                    Target::Bare => player::play_bare(&plan, deadline, n).await,
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
    outcome.cpu_ticks = ticks.zip(plan::cpu_ticks()).map(|((i0, t0), (i1, t1))| (i1.saturating_sub(i0), t1.saturating_sub(t0)));
    outcome.latencies_us.sort_unstable();
    outcome
}
