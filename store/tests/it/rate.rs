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

/// A sentence a player read whole in a rating is never blanked for them in the main
/// game: the choice items holding it count as served to them.
#[tokio::test]
async fn a_sentence_rated_whole_is_not_blanked_for_the_same_player() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        seed_likert(store, 0).await;
        let player = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("player");
        let likert = store.rate().unmet_item(&player.id, gapwise_model::Language::En, 1).await.expect("item").expect("a Likert item");
        store.rate().insert_serving(&player.id, likert, true).await.expect("serving");
        let sentence: i64 = sqlx::query_scalar("SELECT sentence_id FROM item_contexts WHERE item_id = $1")
            .bind(likert)
            .fetch_one(store.pool())
            .await
            .expect("its sentence");
        let holding: Vec<gapwise_model::ItemId> = sqlx::query_scalar(
            "SELECT c.item_id FROM item_contexts c JOIN items i ON i.id = c.item_id WHERE i.kind = 'choice' AND c.sentence_id = $1",
        )
        .bind(sentence)
        .fetch_all(store.pool())
        .await
        .expect("choice items");
        assert!(!holding.is_empty(), "{:?}: the seed's Likert items share sentences with choice items", db.backend());
        let seen = store.game().served_and_friends(&player.id).await.expect("served");
        assert!(holding.iter().all(|i| seen.served.contains(i)), "{:?}: {holding:?} not in {:?}", db.backend(), seen.served);
        let stranger = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("player");
        assert!(store.game().served_and_friends(&stranger.id).await.expect("served").served.is_empty(), "another player is unaffected");
    }
}
