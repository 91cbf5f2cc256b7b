//! The bare reference endpoint, served by a process of its own on SQLite and on
//! PostgreSQL, stores what it acknowledges, and its audit finds it.

use std::path::Path;
use std::time::Duration;

use gapwise_load::bare::Bare;
use gapwise_load::{run, Plan, Target};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bare_endpoint_stores_every_answer_it_acknowledges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = dir.path().join("bare.db").display().to_string();
    for target in [sqlite, gapwise_store::testing::empty_postgres_database().await] {
        stores_and_stops(&target).await;
    }
}

async fn stores_and_stops(target: &str) {
    let bare = Bare::start(Path::new(env!("CARGO_BIN_EXE_gapwise-load")), target).await.expect("bare endpoint");
    let plan = Plan {
        base: bare.base.clone(),
        annotators: 4,
        duration: Duration::from_millis(500),
        think: Duration::ZERO,
        k: 5,
        language: "en".into(),
        lean: false,
    };
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
