//! `gapwise score --model ORG/NAME` as a Python user has it: the model in the Hugging
//! Face cache (`$HF_HOME/hub/models--ORG--NAME/snapshots/REV/`, `refs/main` naming
//! REV), laid out here by the test; the convention its scores follow stored with the
//! model and shown in the report and the dataset card; another convention under the
//! same model id refused.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;
use std::process::Command;

use gapwise_store::testing::{seed_small, sqlite};

/// A Hugging Face cache holding the tiny BERT fixture as `test-org/tiny-bert`.
fn hub_cache(home: &Path) {
    let repo = home.join("hub/models--test-org--tiny-bert");
    let snapshot = repo.join("snapshots/0123abcd");
    std::fs::create_dir_all(&snapshot).expect("snapshot");
    std::fs::create_dir_all(repo.join("refs")).expect("refs");
    std::fs::write(repo.join("refs/main"), "0123abcd").expect("ref");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scorer/fixtures/mlm/bert");
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::fs::copy(fixture.join(file), snapshot.join(file)).expect("copy");
    }
}

fn gapwise(url: &str, home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gapwise"))
        .args(args)
        .env("DATABASE_URL", url)
        .env("HF_HOME", home)
        .env("HF_HUB_OFFLINE", "1")
        .env_remove("HF_HUB_CACHE")
        .env_remove("HUGGINGFACE_HUB_CACHE")
        .output()
        .expect("run gapwise")
}

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[tokio::test]
async fn a_model_is_found_by_hub_id_and_scored_under_one_recorded_convention() {
    let db = sqlite().await;
    seed_small(&db.store).await;
    let home = tempfile::tempdir().expect("HF_HOME");
    hub_cache(home.path());

    let out = gapwise(&db.url, home.path(), &["score", "--model", "test-org/tiny-bert"]);
    assert!(out.status.success(), "{}", text(&out));
    let scored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM item_scores WHERE model_id = 'tiny-bert'")
        .fetch_one(db.store.pool())
        .await
        .expect("count");
    assert_eq!(scored, db.store.count_rows("items").await.expect("items"));
    let info = db.store.scores().models_info(&[gapwise_model::ModelId::new("tiny-bert")]).await.expect("info");
    assert_eq!(info[0].source, "test-org/tiny-bert");
    assert!(info[0].convention.starts_with("masked, mask:"), "{:?}", info[0]);

    // PLL under the same id would mix two conventions: refused, nothing scored
    let out = gapwise(
        &db.url,
        home.path(),
        &["score", "--model", "test-org/tiny-bert", "--model-id", "tiny-bert", "--mlm-scoring", "pll-original"],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("--model-id"), "{}", text(&out));
    // its own id by default
    let out = gapwise(&db.url, home.path(), &["score", "--model", "test-org/tiny-bert", "--mlm-scoring", "pll-original"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(db.store.scores().models_info(&[gapwise_model::ModelId::new("tiny-bert-pll-original")]).await.expect("info").len(), 1);

    // the report and the dataset card say how each model's scores were made
    let report = tempfile::tempdir().expect("report");
    let out = gapwise(&db.url, home.path(), &["report", "--out", &report.path().display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    let index = std::fs::read_to_string(report.path().join("README.md")).expect("index");
    assert!(index.contains("| tiny-bert | masked | masked, mask:"), "{index}");
    assert!(index.contains("| tiny-bert-pll-original | masked | masked, pll-original:"), "{index}");
    let export = tempfile::tempdir().expect("export");
    let out = gapwise(&db.url, home.path(), &["export", "--out", &export.path().display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    let card = std::fs::read_to_string(export.path().join("README.md")).expect("card");
    assert!(card.contains("- `tiny-bert` (masked): masked, mask:"), "{card}");

    // a model neither on disk nor in the cache, with downloads off, is named with the cache searched
    let out = gapwise(&db.url, home.path(), &["score", "--model", "test-org/absent"]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(said.contains("test-org/absent") && said.contains(&home.path().join("hub").display().to_string()), "{said}");
}
