//! A few rounds played, for the tests of other crates that need answers stored.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_model::{PlayState, Reported};
use gapwise_store::{Session, CONSENT_VERSION};

use crate::engine::Engine;

/// `players` annotators each answer `items` items with k = 1, 3 and 5 in turn,
/// alternating the button they press; returns their sessions.
pub async fn play(engine: &Engine, players: usize, items: usize) -> Vec<Session> {
    let store = engine.store();
    let mut sessions = Vec::new();
    for p in 0..players {
        let annotator = store.players().create_player(CONSENT_VERSION).await.expect("annotator");
        let token = store.players().create_session(&annotator.id).await.expect("session");
        for i in 0..items {
            let session = store.players().session(&token).await.expect("session").expect("live");
            let k = gapwise_model::K::ALL[i % 3];
            let PlayState::Item { card, .. } = engine.game().play_state(&session, k, gapwise_model::Language::En).await.expect("play")
            else {
                panic!("no item left for player {p} at k = {k}");
            };
            engine.game().answer(&session, &card.answer_id, (p + i) % 2, Reported::ms(Some(800 + 100 * i as i64))).await.expect("answer");
            engine.game().next_item(&session).await.expect("next");
        }
        sessions.push(store.players().session(&token).await.expect("session").expect("live"));
    }
    sessions
}
