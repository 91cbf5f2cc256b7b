//! The bare reference endpoint, served by a process of its own on SQLite and on
//! PostgreSQL, stores what it acknowledges, and its audit finds it.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;
use std::time::Duration;

use gapwise_load::bare::Bare;
use gapwise_load::{run, take_turns, Plan, Target};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bare_endpoint_stores_every_answer_it_acknowledges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = dir.path().join("bare.db").display().to_string();
    for target in [sqlite, gapwise_store::testing::empty_postgres_database().await] {
        stores_and_stops(&target).await;
    }
}

fn plan(base: &str, duration: Duration) -> Plan {
    Plan { base: base.to_owned(), annotators: 4, duration, think: Duration::ZERO, k: 5, language: "en".into(), lean: false }
}

async fn start(target: &str) -> Bare {
    Bare::start(Path::new(env!("CARGO_BIN_EXE_gapwise-load")), target).await.expect("bare endpoint")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_taking_turns_add_up_their_slices() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (first, second) =
        (start(&dir.path().join("first.db").display().to_string()).await, start(&dir.path().join("second.db").display().to_string()).await);
    let runs =
        [(plan(&first.base, Duration::from_millis(900)), Target::Bare), (plan(&second.base, Duration::from_millis(600)), Target::Bare)];
    let outcomes = take_turns(&runs, 3).await;
    assert_eq!(outcomes.len(), 2);
    for ((bare, (plan, _)), outcome) in [&first, &second].into_iter().zip(&runs).zip(&outcomes) {
        // three slices of a third each: the run's whole duration, plus the last request of each
        assert!(
            outcome.elapsed >= plan.duration && outcome.elapsed < plan.duration + Duration::from_millis(500),
            "{:?} for {:?}",
            outcome.elapsed,
            plan.duration
        );
        assert_eq!(outcome.errors.total(), 0, "{}", outcome.summary());
        assert!(outcome.latencies_us.is_sorted(), "latencies of the slices are kept sorted");
        assert_eq!(outcome.latencies_us.len(), outcome.acknowledged.len(), "every answer once, from every slice");
        // the machine's CPU over the run, summed over the slices: some busy (this test plays)
        let (idle, total) = outcome.cpu_ticks.expect("Linux's /proc/stat");
        assert!(idle < total, "{idle} idle of {total} ticks");
        assert!(outcome.summary().contains("CPU idle"), "{}", outcome.summary());
        let audit = bare.audit(&outcome.acknowledged).await.expect("audit");
        assert!(audit.passed() && audit.stored == outcome.acknowledged.len(), "{}", audit.summary());
    }
}

async fn stores_and_stops(target: &str) {
    let bare = start(target).await;
    let plan = plan(&bare.base, Duration::from_millis(500));
    let outcome = run(&plan, Target::Bare).await;
    assert_eq!(outcome.errors.total(), 0, "{target}: {}", outcome.summary());
    assert!(!outcome.acknowledged.is_empty(), "{target}: {}", outcome.summary());
    let audit = bare.audit(&outcome.acknowledged).await.expect("audit");
    assert!(audit.passed(), "{target}: {}", audit.summary());
    drop(bare);
    // the server process is killed with its handle
    let client = reqwest::Client::new();
    let mut gone = false;
    for _ in 0..40 {
        let sent = client.post(format!("{}/answer", plan.base)).form(&[("answer_id", "x"), ("choice", "0")]).send().await;
        if sent.is_err() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone, "{target}: the bare endpoint still answers after it was dropped");
}
