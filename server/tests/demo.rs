//! The shipped demo data makes every language playable: sentences, pairs and items in
//! en, es, fr, it and ru, and every item's contexts hold the target, never the distractor.

use gapwise_model::words::occurrences;
use gapwise_server::demo::seed_if_empty;
use sqlx::Row;

#[tokio::test]
async fn every_language_has_items_from_the_demo_data() {
    let db = gapwise_store::testing::sqlite().await;
    let store = &db.store;
    let report = seed_if_empty(store).await.expect("seed").expect("an empty database is seeded");
    assert!(seed_if_empty(store).await.expect("again").is_none(), "a seeded database is left alone");
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
