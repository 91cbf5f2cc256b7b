//! Word pairs from players (suggestions and their moderation, audited) and from the
//! a-priori word lists, on both backends.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_engine::Engine;
use gapwise_model::K;
use gapwise_model::{Reported, SuggestionStatus};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::{StoreError, CONSENT_VERSION};

fn invalid(result: Result<impl std::fmt::Debug, StoreError>) -> String {
    match result {
        Err(StoreError::Invalid(m)) => m,
        Err(StoreError::Refused(r)) => {
            assert!(!r.key.code().is_empty(), "a refusal with its code: {r:?}");
            r.english
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn suggestions_are_checked_moderated_and_audited() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await; // pairs two/three and red/green; sentences with two, red, cats, wall...
        let player = store.players().create_player(CONSENT_VERSION).await.expect("player");
        let suggest = |t: &'static str, d: &'static str| store.suggestions().suggest_pair(&player.id, gapwise_model::Language::En, t, d);

        assert!(invalid(suggest("red", "RED").await).contains("same word"));
        assert!(invalid(suggest("red", "two words").await).contains("single word"));
        assert!(invalid(suggest("three", "two").await).contains("already in the game"), "reversed pair");
        assert!(invalid(suggest("red", "zebra").await).contains("does not occur"), "unknown word");
        // (a language the game lacks is refused where a request names it: `Language::parse`)
        assert_eq!(gapwise_model::Language::parse("xx"), None);

        let first = suggest("cats", "painted").await.expect("a fine proposal");
        assert_eq!(first.status, SuggestionStatus::Pending);
        assert!(invalid(suggest("Painted", "cats").await).contains("already been proposed"), "reversed suggestion");
        let second = suggest("wall", "box").await.expect("another");
        assert_eq!(store.suggestions().queue().await.expect("queue").len(), 2);

        // approve with an edit; reject without a reason is refused, with one it sticks
        let pair = store.suggestions().approve("ada", first.id, "cats", "wall").await.expect("approve");
        assert!(store.suggestions().approve("ada", first.id, "cats", "wall").await.is_err(), "decided once");
        assert!(invalid(store.suggestions().reject("ada", second.id, "  ").await).contains("reason"));
        store.suggestions().reject("ada", second.id, "too easy to tell apart").await.expect("reject");

        let (strategy, creator): (String, Option<String>) = sqlx::query_as("SELECT strategy, creator_id FROM word_pairs WHERE id = $1")
            .bind(pair)
            .fetch_one(store.pool())
            .await
            .expect("pair");
        assert_eq!((strategy.as_str(), creator.as_deref()), ("suggested", Some(player.id.as_str())));
        let mine = store.suggestions().of(&player.id).await.expect("mine");
        assert_eq!(mine[0].status, SuggestionStatus::Rejected);
        assert_eq!(mine[0].reason.as_deref(), Some("too easy to tell apart"));
        assert_eq!(mine[1].status, SuggestionStatus::Approved);
        assert_eq!(mine[1].reason.as_deref(), Some("edited from cats / painted"));
        assert!(store.suggestions().queue().await.expect("queue").is_empty());

        let report = store.admin().build_items_as("ada").await.expect("build");
        assert!(report.items > 0, "the approved pair gets items");
        let log = store.staff().audit_log(10).await.expect("audit");
        let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
        assert_eq!(actions, ["build items", "reject suggestion", "approve suggestion"], "newest first");
        assert!(log.iter().all(|e| e.staff == "ada" && e.at.ends_with("UTC")));
        assert!(log[2].detail.contains("edited from cats / painted"), "{}", log[2].detail);
    }
}

#[tokio::test]
async fn a_priori_pairs_are_added_once() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        let first = store.material().add_a_priori_pairs(gapwise_model::Language::It).await.expect("Italian lists");
        assert_eq!((first.inserted, first.duplicates), (192, 0));
        let again = store.material().add_a_priori_pairs(gapwise_model::Language::It).await.expect("rerun");
        assert_eq!((again.inserted, again.duplicates), (0, 192));
        let strategies: Vec<String> =
            sqlx::query_scalar("SELECT DISTINCT strategy FROM word_pairs").fetch_all(store.pool()).await.expect("pairs");
        assert_eq!(strategies, ["a-priori"]);
    }
}

#[tokio::test]
async fn retired_pairs_are_not_served_and_pairs_export_round_trips() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let rows = store.admin().pair_rows(gapwise_model::Language::En, 0).await.expect("pairs");
        assert_eq!(rows.len(), 2);
        let red = rows.iter().find(|r| r.target == "red").expect("red/green");
        assert!(red.active && red.items > 0 && red.answers == 0);
        store.admin().set_pair_active("root", red.id, false).await.expect("retire");
        assert!(
            !store
                .admin()
                .pair_rows(gapwise_model::Language::En, 0)
                .await
                .expect("pairs")
                .iter()
                .find(|r| r.id == red.id)
                .expect("row")
                .active
        );
        assert_eq!(store.staff().audit_log(1).await.expect("audit")[0].action, "retire pair");
        assert!(store.admin().set_pair_active("root", gapwise_model::PairId(999_999), true).await.is_err(), "unknown pair");

        // a player now only meets two/three
        let player = store.players().create_player(CONSENT_VERSION).await.expect("player");
        let token = store.players().create_session(&player.id).await.expect("session");
        for _ in 0..3 {
            let session = store.players().session(&token).await.expect("session").expect("live");
            let gapwise_model::PlayState::Item { card, .. } =
                engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("play")
            else {
                break;
            };
            assert!(card.options.contains(&"two".to_owned()), "{:?}", card.options);
            engine.game().answer(&session, &card.answer_id, 0, Reported::ms(Some(900))).await.expect("answer");
            engine.game().next_item(&session).await.expect("next");
        }

        let tsv = store.admin().export_pairs(Some(gapwise_model::Language::En)).await.expect("export");
        assert_eq!(tsv.lines().count(), 3, "{tsv}");
        let fresh = gapwise_store::testing::sqlite().await;
        let report = fresh
            .store
            .material()
            .import(gapwise_prepare::import::ImportKind::Pairs, gapwise_prepare::import::ImportFormat::Tsv, &tsv)
            .await
            .expect("import back");
        assert_eq!(report.inserted, 2);
    }
}
