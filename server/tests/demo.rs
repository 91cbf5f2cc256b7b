//! The shipped demo data makes every language playable: sentences, pairs and items in
//! en, es, fr, it and ru, and every item's contexts hold the target, never the distractor.

use gapwise_model::words::occurrences;
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_server::demo::seed_if_empty;
use sqlx::Row;

#[tokio::test]
async fn every_language_has_items_from_the_demo_data() {
    let db = gapwise_store::testing::sqlite().await;
    let store = &db.store;
    let report = seed_if_empty(store, false).await.expect("seed").expect("an empty database is seeded");
    assert!(seed_if_empty(store, false).await.expect("again").is_none(), "a seeded database is left alone");
    let per_language =
        sqlx::query("SELECT p.lang, COUNT(*) FROM items i JOIN word_pairs p ON p.id = i.pair_id GROUP BY p.lang ORDER BY p.lang")
            .fetch_all(store.pool())
            .await
            .expect("items");
    let languages: Vec<String> = per_language.iter().map(|r| r.get(0)).collect();
    assert_eq!(languages, ["en", "es", "fr", "it", "ru"]);
    assert!(per_language.iter().all(|r| r.get::<i64, _>(1) >= 100), "at least 100 items per language");
    assert_eq!(per_language.iter().map(|r| r.get::<i64, _>(1)).sum::<i64>() as u64, report.items);

    let contexts = sqlx::query(
        "SELECT s.text, p.target, p.distractor FROM item_contexts c JOIN items i ON i.id = c.item_id \
         JOIN word_pairs p ON p.id = i.pair_id JOIN sentences s ON s.id = c.sentence_id",
    )
    .fetch_all(store.pool())
    .await
    .expect("contexts");
    for r in &contexts {
        let (text, target, distractor): (String, String, String) = (r.get(0), r.get(1), r.get(2));
        assert_eq!(occurrences(&text, &target).len(), 1, "{target} once in {text:?}");
        assert!(occurrences(&text, &distractor).is_empty(), "no {distractor} in {text:?}");
    }
}

/// A first start cut short (some sentences in, no items) is finished by the next start,
/// which a database with data but no mark is not; replicas starting together on
/// PostgreSQL load one at a time.
#[tokio::test]
async fn a_first_start_cut_short_is_finished_and_replicas_load_one_at_a_time() {
    for db in gapwise_store::testing::each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        store.mark_first_start(1).await.expect("mark");
        let english = include_str!("../../data/demo/en_sentences.tsv");
        store.import(ImportKind::Sentences, ImportFormat::Tsv, english).await.expect("some sentences");
        let pairs = include_str!("../../data/demo/en_pairs.tsv");
        store.import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await.expect("the English pairs");
        assert_eq!(store.first_start_unfinished().await.expect("read"), Some(1), "{backend:?}");
        assert!(seed_if_empty(store, false).await.expect("seed").is_none(), "{backend:?}: data without the mark is left alone");
        let report = seed_if_empty(store, true).await.expect("resume").expect("finished");
        assert!(report.items > 0 && store.count_rows("items").await.expect("count") > 0, "{backend:?}");
        store.first_start_done().await.expect("unmark");
        assert_eq!(store.first_start_unfinished().await.expect("read"), None, "{backend:?}");

        let held = store.first_start_lock().await.expect("lock");
        if let Some(held) = held {
            let other = tokio::time::timeout(std::time::Duration::from_millis(300), store.first_start_lock()).await;
            assert!(other.is_err(), "{backend:?}: a second server waits while the first loads");
            drop(held);
            let other = tokio::time::timeout(std::time::Duration::from_secs(5), store.first_start_lock()).await;
            assert!(matches!(other, Ok(Ok(Some(_)))), "{backend:?}: and goes on once it is done");
        }
    }
}
