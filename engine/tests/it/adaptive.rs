//! A study with adaptive serving gives each participant the item with the most
//! information at their ability; a study with the game's own policy spreads its
//! participants over the least held items instead.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_engine::Engine;
use gapwise_model::K;
use gapwise_model::{ItemCard, ItemPolicy, Platform, PlayState, Reported, StudySettings};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::{Store, CONSENT_VERSION};

async fn item(engine: &Engine, token: &str) -> Option<ItemCard> {
    let session = engine.store().players().session(token).await.expect("lookup").expect("session");
    match engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("play") {
        PlayState::Item { card, .. } => Some(card),
        _ => None,
    }
}

/// Twelve players answer every English item with one context: the "two" items
/// always right, the "red" items right one time in three; so the "two" items are
/// easy (at the estimates' bound) and the "red" items near the players' ability.
async fn answered_by_twelve(engine: &Engine) {
    let store = engine.store();
    for p in 0..12 {
        let annotator = store.players().create_player(CONSENT_VERSION).await.expect("annotator");
        let token = store.players().create_session(&annotator.id).await.expect("session");
        let mut reds = 0;
        while let Some(card) = item(engine, &token).await {
            let easy = card.options.iter().any(|o| o == "two");
            let right = easy || (p + reds) % 3 == 0;
            reds += usize::from(!easy);
            let target = card.options.iter().position(|o| o == "two" || o == "red").expect("the target is shown");
            let choice = if right { target } else { 1 - target };
            let session = store.players().session(&token).await.expect("lookup").expect("session");
            engine.game().answer(&session, &card.answer_id, choice, Reported::ms(Some(1500))).await.expect("answer");
            engine.game().next_item(&session).await.expect("next");
        }
    }
}

/// The first item of each of `participants` new participants of a study with
/// `policy`: whether it is a "red" item.
async fn first_items_red(store: &Store, engine: &Engine, policy: ItemPolicy, participants: usize) -> Vec<bool> {
    let settings = StudySettings {
        platform: Platform::Prolific,
        name: format!("{policy:?}"),
        k: K::ONE,
        language: gapwise_model::Language::En,
        items_target: 5,
        max_minutes: 60,
        completion_code: String::new(),
        policy,
    };
    let study = store.crowd().create_study("tester", &settings).await.expect("study");
    let mut red = Vec::new();
    for n in 0..participants {
        let gapwise_store::StudyEntry::Session(token) =
            store.crowd().enter_study(&study, &format!("{policy:?}{n}"), &format!("session{n}"), None).await.expect("enter")
        else {
            panic!("participant {n} entered a completed study")
        };
        let session = store.players().session(&token).await.expect("lookup").expect("session");
        // the study decides k and language
        let PlayState::Item { card, .. } = engine.game().play(&session, K::FIVE, gapwise_model::Language::Fr, None).await.expect("play")
        else {
            panic!("no item for participant {n}")
        };
        red.push(card.options.iter().any(|o| o == "red"));
    }
    red
}

#[tokio::test]
async fn an_adaptive_study_serves_the_most_informative_item_and_the_fewest_policy_does_not() {
    for db in each_backend().await {
        let store = &db.store;
        let engine = &Engine::new(store.clone());
        seed_small(store).await;
        store.admin().set_answers_per_item("tester", 100).await.expect("cap");
        answered_by_twelve(engine).await;
        let (reds,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE p.target = 'red' AND i.k = 1")
                .fetch_one(store.pool())
                .await
                .expect("count");
        // one participant more than there are red items: the least held items are
        // all of them in turn, so someone gets a "two" item
        let n = usize::try_from(reds).expect("count") + 1;
        let adaptive = first_items_red(store, engine, ItemPolicy::MostInformation, n).await;
        assert!(adaptive.iter().all(|&red| red), "{:?}: every participant of ability 0 gets a red item: {adaptive:?}", db.backend());
        let fewest = first_items_red(store, engine, ItemPolicy::FewestHolders, n).await;
        assert!(fewest.iter().any(|&red| !red), "{:?}: {fewest:?}", db.backend());
    }
}
