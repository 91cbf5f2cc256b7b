//! The rate mode's ratings as the research side reads them, on both backends.

use gapwise_store::testing::{each_backend, seed_likert, seed_small};

#[tokio::test]
async fn every_rating_is_read_back_per_item_on_the_papers_scale() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        let items = seed_likert(store, 2).await;
        assert!(items > 0, "{:?}: Likert items", db.backend());
        let ratings = store.rate().item_ratings(None, (i64::MIN, i64::MAX)).await.expect("ratings");
        assert_eq!(ratings.len() as i64, store.count_rows("rate_ratings").await.expect("count"), "{:?}", db.backend());
        assert!(
            ratings.iter().all(|(lang, _, r)| *lang == gapwise_model::Language::En && (1..=5).contains(r)),
            "{:?}: {ratings:?}",
            db.backend()
        );
        assert!(ratings.windows(2).all(|w| w[0].1 <= w[1].1), "{:?}: by item", db.backend());
        assert!(store.rate().item_ratings(Some(gapwise_model::Language::Fr), (i64::MIN, i64::MAX)).await.expect("French").is_empty());
    }
}
