//! The four modes beside the main game through the engine's shared answer routine,
//! on both backends: a serving of another player is refused, a repeated answer is
//! told as the first, and two tabs answering one round at once store one answer and
//! are told the same verdict.

#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;

use gapwise_engine::{Engine, EngineError};
use gapwise_model::{Input, PlayedWord, Reported, Trial};
use gapwise_store::testing::{each_backend, seed_likert, seed_small};
use gapwise_store::{NewWordsItemRecord, NewWordsVariant, Store, CONSENT_VERSION};

async fn player(store: &Store) -> gapwise_model::PlayerId {
    store.players().create_player(CONSENT_VERSION).await.expect("annotator").id
}

fn item(id: &str) -> NewWordsItemRecord {
    let variant = |lemma: &str| NewWordsVariant {
        lemma: lemma.into(),
        sentence: format!("The trophy does not fit in the suitcase because the _ is too {lemma}."),
        taught: format!("{lemma} means big."),
    };
    NewWordsItemRecord {
        id: id.into(),
        options: ["trophy".into(), "suitcase".into()],
        answer: 0,
        pos: "adj".into(),
        definition: "large".into(),
        source: "test".into(),
        variants: BTreeMap::from([
            (PlayedWord::Original, variant("big")),
            (PlayedWord::Invented, variant("plimsy")),
            (PlayedWord::Shifted, variant("tall")),
        ]),
    }
}

#[tokio::test]
async fn two_tabs_answering_one_new_words_item_store_one_answer_and_hear_the_same() {
    for db in each_backend().await {
        let (engine, backend) = (Engine::new(db.store.clone()), db.backend());
        db.store.new_words().import(&[item("w1"), item("w2")]).await.expect("import");
        let (alice, bob) = (player(&db.store).await, player(&db.store).await);
        let card = engine.new_words().round(&alice).await.expect("round").expect("an item");
        let err = engine.new_words().pick(&bob, &card.serving_id, 0, Reported::ms(None)).await.expect_err("not bob's");
        assert!(matches!(err, EngineError::NotServed(_)), "{backend:?}: {err:?}");
        // the right option and the wrong one at once: one is stored, both hear its verdict
        let (one, other) = tokio::join!(
            engine.new_words().pick(&alice, &card.serving_id, 0, Reported::ms(Some(900))),
            engine.new_words().pick(&alice, &card.serving_id, 1, Reported::ms(Some(900)))
        );
        let (one, other) = (one.expect("pick"), other.expect("pick"));
        assert_eq!(one, other, "{backend:?}");
        assert_eq!(one.answer, "trophy", "{backend:?}");
        let answered: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM new_words_servings WHERE choice IS NOT NULL")
            .fetch_one(db.store.pool())
            .await
            .expect("count");
        assert_eq!(answered, 1, "{backend:?}");
        // answered again later: told the same
        assert_eq!(engine.new_words().pick(&alice, &card.serving_id, 1, Reported::ms(None)).await.expect("again"), one, "{backend:?}");
        let next = engine.new_words().round(&alice).await.expect("round").expect("the second item");
        assert_ne!(next.serving_id, card.serving_id, "{backend:?}");
        assert_eq!(next.last.as_ref(), Some(&one), "{backend:?}: the last answer's outcome");
    }
}

/// A rating's response time, hidden changes, clock step and frame interval.
type Measured = (Option<i64>, Option<i64>, Option<i64>, Option<i64>);

#[tokio::test]
async fn a_rating_again_replaces_the_first_and_another_players_serving_is_refused() {
    for db in each_backend().await {
        let (engine, backend) = (Engine::new(db.store.clone()), db.backend());
        seed_small(&db.store).await;
        assert!(seed_likert(&db.store, 0).await > 0, "{backend:?}: Likert items");
        let (alice, bob) = (player(&db.store).await, player(&db.store).await);
        let card = engine.rate().round(&alice, gapwise_model::Language::En).await.expect("round").expect("an item");
        assert!(
            matches!(engine.rate().rate(&bob, &card.serving_id, 3, Reported::ms(None)).await, Err(EngineError::NotServed(_))),
            "{backend:?}"
        );
        assert!(
            matches!(engine.rate().rate(&alice, &card.serving_id, 6, Reported::ms(None)).await, Err(EngineError::Invalid(_))),
            "{backend:?}"
        );
        engine.rate().rate(&alice, &card.serving_id, 1, Reported::ms(Some(1200))).await.expect("rate");
        // the second rating's trial replaces the first's with it
        let trial = Trial { input: Some(Input::Touch), hidden: Some(1), clock_us: Some(5), frame_us: Some(16_667) };
        engine.rate().rate(&alice, &card.serving_id, 5, Reported { client_ms: Some(1300), trial }).await.expect("rate again");
        let pool = db.store.pool();
        let input: Option<String> = sqlx::query_scalar("SELECT input_device FROM rate_ratings").fetch_one(pool).await.expect("input");
        let measured: Measured =
            sqlx::query_as("SELECT client_ms, hidden_changes, clock_us, frame_us FROM rate_ratings").fetch_one(pool).await.expect("trial");
        assert_eq!((input.as_deref(), measured), (Some("touch"), (Some(1300), Some(1), Some(5), Some(16_667))), "{backend:?}");
        let ratings: Vec<(gapwise_model::PlayerId, i64)> =
            sqlx::query_as("SELECT annotator_id, rating FROM rate_ratings").fetch_all(db.store.pool()).await.expect("ratings");
        // 5 is "surely the right-hand word", stored as 1 (surely the target) when the
        // target stands there (the small seed's targets are "two" and "red")
        let expected = if ["two", "red"].contains(&card.right.as_str()) { 1 } else { 5 };
        assert_eq!(ratings, [(alice.clone(), expected)], "{backend:?}");
        let next = engine.rate().round(&alice, gapwise_model::Language::En).await.expect("round");
        assert!(next.is_none_or(|n| n.serving_id != card.serving_id), "{backend:?}: a rated item is not served again");
    }
}
