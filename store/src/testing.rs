//! Fresh databases for tests: a SQLite file in a temporary folder, and a new
//! database on the PostgreSQL server named by `GAPWISE_TEST_POSTGRES_URL` (the test
//! command starts one). Without that variable the PostgreSQL half fails loudly
//! rather than being skipped.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::store::{Backend, Store};

/// A store for one test; the SQLite file lives as long as this value.
pub struct TestStore {
    pub store: Store,
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestStore {
    pub fn backend(&self) -> Backend {
        self.store.backend()
    }
}

pub async fn sqlite() -> TestStore {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = format!("sqlite://{}/gapwise.db", dir.path().display());
    let store = Store::open(&url).await.expect("open SQLite");
    TestStore { store, url, _dir: Some(dir) }
}

pub async fn postgres() -> TestStore {
    let url = empty_postgres_database().await;
    let store = Store::open(&url).await.expect("open PostgreSQL");
    TestStore { store, url, _dir: None }
}

/// The URL of a new, empty database on the PostgreSQL test server.
pub async fn empty_postgres_database() -> String {
    let admin_url = std::env::var("GAPWISE_TEST_POSTGRES_URL")
        .expect("GAPWISE_TEST_POSTGRES_URL is not set: run the tests with scripts/test.sh, which starts PostgreSQL");
    sqlx::any::install_default_drivers();
    let name = format!("gw_test_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::AnyPool::connect(&admin_url).await.expect("connect to the PostgreSQL test server");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await.expect("create a test database");
    admin.close().await;
    let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
    format!("{base}/{name}")
}

/// One fresh store per backend: SQLite first, then PostgreSQL.
pub async fn each_backend() -> Vec<TestStore> {
    vec![sqlite().await, postgres().await]
}

/// A small English data set: two pairs and sentences enough for items of every k.
pub async fn seed_small(store: &Store) {
    use gapwise_prepare::import::{ImportFormat, ImportKind};
    let mut sentences = String::from("lang\ttext\tsource\tgenre\n");
    // 36 a pair: four items of each k, no sentence in two of its items
    for i in 0..36 {
        sentences.push_str(&format!("en\tThere were two cats in box {i}.\ttest\tfiction\n"));
        sentences.push_str(&format!("en\tShe painted wall {i} red today.\ttest\tnews\n"));
    }
    sentences.push_str("en\tTwo or three, who knows.\ttest\tnews\n");
    // for a pair players propose (cats / wall): the seeded pairs' sentences are theirs
    for i in 0..9 {
        sentences.push_str(&format!("en\tThe cats slept in the sun on day {i}.\ttest\tfiction\n"));
    }
    store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &sentences).await.expect("import sentences");
    let pairs = "lang\ttarget\tdistractor\tstrategy\nen\ttwo\tthree\ta-priori\nen\tred\tgreen\tdistributional\n";
    store.material().import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await.expect("import pairs");
    store.material().build_items(4).await.expect("build items");
}
/// Publishes a Likert item for every sentence that can stand for each active pair,
/// and has `raters` new annotators rate every one of them (ratings spread over the
/// whole scale); returns the number of Likert items.
pub async fn seed_likert(store: &Store, raters: usize) -> usize {
    use sqlx::Row;
    let pairs = sqlx::query("SELECT id, lang, target, distractor FROM word_pairs WHERE status = 'active' ORDER BY id")
        .fetch_all(store.pool())
        .await
        .expect("pairs");
    let mut items = Vec::new();
    for pair in pairs {
        let (id, lang): (gapwise_model::PairId, String) = (pair.get(0), pair.get(1));
        let (target, distractor): (String, String) = (pair.get(2), pair.get(3));
        let sentences = sqlx::query("SELECT id, text FROM sentences WHERE lang = $1 ORDER BY id")
            .bind(&lang)
            .fetch_all(store.pool())
            .await
            .expect("sentences");
        let contexts: Vec<(i64, (usize, usize))> = sentences
            .iter()
            .filter_map(|s| gapwise_model::words::blank_for(&s.get::<String, _>(1), &target, &distractor).map(|b| (s.get(0), b)))
            .collect();
        items.extend(store.rate().publish_items(id, &contexts).await.expect("publish"));
    }
    for r in 0..raters {
        let annotator = store.players().create_player(super::CONSENT_VERSION).await.expect("rater");
        for (i, &item) in items.iter().enumerate() {
            let rating = u8::try_from(1 + (i * 7 + r * 3) % 5).expect("1 to 5");
            store
                .rate()
                .record(
                    &annotator.id,
                    (item, rating),
                    gapwise_model::Timing { client_ms: Some(2000 + 10 * i as i64), client_ms_reported: None, server_ms: 2100 },
                    gapwise_model::Trial::default(),
                )
                .await
                .expect("rate");
        }
    }
    items.len()
}
