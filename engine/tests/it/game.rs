//! The game's rules on both backends: idempotent answers, refusal of unserved
//! items, never serving an item twice, least-answered items first.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::HashSet;

use gapwise_engine::Engine;
use gapwise_model::K;
use gapwise_model::{Achievement, PlayState, Reported};
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::{Session, Store, CONSENT_VERSION};

async fn player(store: &Store) -> (Session, String) {
    let annotator = store.players().create_player(CONSENT_VERSION).await.expect("annotator");
    let token = store.players().create_session(&annotator.id).await.expect("session");
    (store.players().session(&token).await.expect("lookup").expect("session exists"), token)
}

async fn refreshed(store: &Store, token: &str) -> Session {
    store.players().session(token).await.expect("lookup").expect("session exists")
}

fn item_of(state: PlayState) -> gapwise_model::ItemCard {
    match state {
        PlayState::Item { card, .. } => card,
        other => panic!("expected an item, got {other:?}"),
    }
}

/// Plays English items as `plan` says: (k, answer right?) in order. The seeded
/// pairs' targets are "two" and "red".
async fn play_plan(engine: &Engine, token: &str, plan: &[(K, bool)]) {
    let store = engine.store();
    for &(k, right) in plan {
        let session = refreshed(store, token).await;
        let item = item_of(engine.game().play_state(&session, k, gapwise_model::Language::En).await.expect("state"));
        let target_at = item.options.iter().position(|o| o == "two" || o == "red").expect("a target among the options");
        let choice = if right { target_at } else { 1 - target_at };
        let session = refreshed(store, token).await;
        assert_eq!(engine.game().answer(&session, &item.answer_id, choice, Reported::ms(Some(2000))).await.expect("answer").correct, right);
        engine.game().next_item(&session).await.expect("next");
    }
}

#[tokio::test]
async fn a_retried_answer_is_stored_once() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let item = item_of(engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("state"));
        let session = refreshed(store, &token).await;
        let first = engine.game().answer(&session, &item.answer_id, 0, Reported::ms(Some(1234))).await.expect("answer");
        // the retry even says "1" (a double click on the other button): the first answer
        // stands; a retry is a request of its own, which reads its session again
        let retry =
            engine.game().answer(&refreshed(store, &token).await, &item.answer_id, 1, Reported::ms(Some(999))).await.expect("retry");
        assert_eq!(first, retry, "{:?}", db.backend());
        assert_eq!(store.count_rows("answers").await.expect("count"), 1, "{:?}", db.backend());
        assert_eq!(first.score.answered, 1);
        assert_eq!(first.chosen, item.options[0]);
    }
}

#[tokio::test]
async fn answers_for_items_not_served_to_the_session_are_refused() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (alice, _) = player(store).await;
        let (bob, _) = player(store).await;
        let item = item_of(engine.game().play_state(&alice, K::THREE, gapwise_model::Language::En).await.expect("state"));
        let err = engine.game().answer(&bob, &item.answer_id, 0, Reported::ms(None)).await.expect_err("bob was not served it");
        assert!(matches!(err, gapwise_engine::EngineError::NotServed(_)), "{err:?}");
        let err = engine
            .game()
            .answer(&alice, &gapwise_model::ServingId::new("no-such-id"), 0, Reported::ms(None))
            .await
            .expect_err("unknown id");
        assert!(err.to_string().contains("not belong to an item served to you"), "{err}");
        let err = engine.game().answer(&alice, &item.answer_id, 2, Reported::ms(None)).await.expect_err("bad choice");
        assert!(matches!(err, gapwise_engine::EngineError::Invalid(_)), "{err:?}");
        assert_eq!(store.count_rows("answers").await.expect("count"), 0);
    }
}

#[tokio::test]
async fn an_annotator_never_gets_the_same_item_twice() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (_, token) = player(store).await;
        let mut seen = HashSet::new();
        loop {
            let session = refreshed(store, &token).await;
            match engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("state") {
                PlayState::Item { card, .. } => {
                    assert!(seen.insert(card.contexts.clone()), "served twice: {card:?}");
                    // reloading the page shows the same serving, not a new one
                    let again = item_of(
                        engine
                            .game()
                            .play_state(&refreshed(store, &token).await, K::ONE, gapwise_model::Language::En)
                            .await
                            .expect("state"),
                    );
                    assert_eq!(again.answer_id, card.answer_id);
                    engine.game().answer(&session, &card.answer_id, 1, Reported::ms(Some(500))).await.expect("answer");
                    engine.game().next_item(&refreshed(store, &token).await).await.expect("next");
                }
                PlayState::Exhausted { score, .. } => {
                    assert_eq!(score.answered as usize, seen.len());
                    break;
                }
                other => panic!("after next: {other:?}"),
            }
        }
        // two pairs, four k=1 items each in the small seed
        assert_eq!(seen.len(), 8, "{:?}", db.backend());
    }
}

/// A pair's items are spaced apart: with two pairs of four items each, a player gets
/// them in turns, also from a second process that reads the player's latest pairs
/// from the database (without the spacing, a pair comes twice in a row almost surely).
#[tokio::test]
async fn a_pairs_items_are_spaced_apart() {
    for db in each_backend().await {
        seed_small(&db.store).await;
        let (_, token) = player(&db.store).await;
        let mut pairs = Vec::new();
        for engine in [Engine::new(db.store.clone()), Engine::new(db.store.clone())] {
            for _ in 0..4 {
                let card = item_of(
                    engine
                        .game()
                        .play_state(&refreshed(&db.store, &token).await, K::ONE, gapwise_model::Language::En)
                        .await
                        .expect("state"),
                );
                pairs.push(if card.options.iter().any(|o| o == "two") { "two" } else { "red" });
                engine
                    .game()
                    .answer(&refreshed(&db.store, &token).await, &card.answer_id, 0, Reported::ms(Some(800)))
                    .await
                    .expect("answer");
                engine.game().next_item(&refreshed(&db.store, &token).await).await.expect("next");
            }
        }
        assert!(pairs.windows(2).all(|w| w[0] != w[1]), "{:?}: {pairs:?}", db.backend());
    }
}

#[tokio::test]
async fn feedback_stays_until_the_player_moves_on_and_tells_the_truth() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let item = item_of(engine.game().play_state(&session, K::FIVE, gapwise_model::Language::En).await.expect("state"));
        assert_eq!(item.contexts.len(), 5);
        let session = refreshed(store, &token).await;
        let feedback = engine.game().answer(&session, &item.answer_id, 1, Reported::ms(Some(2000))).await.expect("answer");
        let state = engine.game().play_state(&refreshed(store, &token).await, K::FIVE, gapwise_model::Language::En).await.expect("state");
        let PlayState::Feedback { feedback: shown, .. } = state else { panic!("expected feedback") };
        assert_eq!(shown, feedback);
        assert_eq!(feedback.correct, item.options[1] == feedback.target);
        assert_eq!(feedback.score.correct, i64::from(feedback.correct));
        engine.game().next_item(&refreshed(store, &token).await).await.expect("next");
        let next =
            item_of(engine.game().play_state(&refreshed(store, &token).await, K::FIVE, gapwise_model::Language::En).await.expect("state"));
        assert_ne!(next.answer_id, item.answer_id);
    }
}

#[tokio::test]
async fn items_with_fewer_answers_come_first() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        // a first player answers one k=3 item
        let (first, token) = player(store).await;
        let played = item_of(engine.game().play_state(&first, K::THREE, gapwise_model::Language::En).await.expect("state"));
        engine.game().answer(&refreshed(store, &token).await, &played.answer_id, 0, Reported::ms(None)).await.expect("answer");
        // every later player is served the other items before that one
        let k3_items = 2 * 3; // two pairs, 12 sentences each -> min(4, 12 / 3) items
        let (_, token2) = player(store).await;
        let mut served = Vec::new();
        for _ in 0..k3_items - 1 {
            let session = refreshed(store, &token2).await;
            let c = item_of(engine.game().play_state(&session, K::THREE, gapwise_model::Language::En).await.expect("state"));
            served.push(c.contexts.clone());
            engine.game().answer(&session, &c.answer_id, 0, Reported::ms(None)).await.expect("answer");
            engine.game().next_item(&refreshed(store, &token2).await).await.expect("next");
        }
        assert!(!served.contains(&played.contexts), "{:?}: an answered item came early", db.backend());
    }
}

#[tokio::test]
async fn a_client_time_out_of_range_is_not_trusted() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let item = item_of(engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("state"));
        engine.game().answer(&refreshed(store, &token).await, &item.answer_id, 0, Reported::ms(Some(-5))).await.expect("answer");
        let stored: Option<i64> = sqlx::query_scalar("SELECT client_ms FROM answers").fetch_one(store.pool()).await.expect("row");
        assert_eq!(stored, None);
    }
}

#[tokio::test]
async fn the_chosen_language_decides_which_items_come() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let sentences = "lang\ttext\tsource\tgenre\nfr\tIl y a deux chats ici.\ttest\tnews\nfr\tElle a deux livres.\ttest\tnews\n";
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, sentences).await.expect("sentences");
        store
            .material()
            .import(ImportKind::Pairs, ImportFormat::Tsv, "lang\ttarget\tdistractor\tstrategy\nfr\tdeux\ttrois\ta-priori\n")
            .await
            .expect("pair");
        store.material().build_items(4).await.expect("build");
        let annotator = store.players().create_player(CONSENT_VERSION).await.expect("annotator");
        let token = store.players().create_session(&annotator.id).await.expect("session");
        let session = store.players().session(&token).await.expect("session").expect("live");
        let PlayState::Item { card, .. } = engine.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("en")
        else {
            panic!("an English item")
        };
        assert!(!card.options.contains(&"deux".to_owned()));
        // switching language while an English item is shown serves a French one
        let session = store.players().session(&token).await.expect("session").expect("live");
        let PlayState::Item { card, .. } = engine.game().play_state(&session, K::ONE, gapwise_model::Language::Fr).await.expect("fr")
        else {
            panic!("a French item")
        };
        let mut options = card.options.to_vec();
        options.sort();
        assert_eq!(options, ["deux", "trois"]);
        let session = store.players().session(&token).await.expect("session").expect("live");
        assert!(
            matches!(
                engine.game().play_state(&session, K::ONE, gapwise_model::Language::Ru).await.expect("ru"),
                PlayState::Exhausted { .. }
            ),
            "no Russian items"
        );
    }
}

#[tokio::test]
async fn points_levels_and_streaks_follow_the_answers() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (_, token) = player(store).await;
        play_plan(engine, &token, &[(K::ONE, true), (K::ONE, true), (K::THREE, false), (K::FIVE, true), (K::FIVE, true), (K::FIVE, true)])
            .await;
        let session = refreshed(store, &token).await;
        let progress = engine.game().progress(&session.player.id).await.expect("progress");
        // by hand: 5 + 5 (right at k=1) + 1 (wrong at k=3) + 3 x 2 (right at k=5) = 17 points
        assert_eq!((progress.points, progress.level, progress.next_level_at), (17, 2, 30), "{:?}", db.backend());
        assert_eq!((progress.streak, progress.best_streak, progress.today), (3, 3, 6));
        assert_eq!(progress.achievements, [Achievement::FirstAnswer, Achievement::EveryK], "one language, all three k");
    }
}

#[tokio::test]
async fn the_progress_after_a_round_is_the_progress_of_all_the_answers() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let other_process = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let id = session.player.id.clone();
        // they proposed a pair, which the session read counts
        sqlx::query("UPDATE word_pairs SET creator_id = $1 WHERE target = 'red'").bind(&id).execute(store.pool()).await.expect("creator");
        engine.game().progress(&id).await.expect("the fold is kept from here on");
        // the seeded pairs make four items of five sentences
        for n in 0..3 {
            if n == 1 {
                // an answer stored by another process: the counts tell the fold is behind
                play_plan(other_process, &token, &[(K::FIVE, false)]).await;
            }
            let session = refreshed(store, &token).await;
            assert_eq!(session.proposed, 1);
            // five sentences: open to every level, so the round reads no progress itself
            let item = item_of(engine.game().play_state(&session, K::FIVE, gapwise_model::Language::En).await.expect("state"));
            let session = refreshed(store, &token).await;
            let round = engine
                .game()
                .answer_and_play(&session, (&item.answer_id, 0, Reported::ms(Some(1500))), K::FIVE, gapwise_model::Language::En, None)
                .await
                .expect("round");
            let after = engine.game().progress_after(&session, round.feedback.score.answered).await.expect("progress after");
            let counted = Engine::new(store.clone()).game().progress(&id).await.expect("counted afresh");
            assert_eq!(after, counted, "round {n}, {:?}", db.backend());
            assert!(counted.achievements.contains(&Achievement::PairInGame));
        }
        assert_eq!(engine.game().progress(&id).await.expect("progress").today, 4);
    }
}

#[tokio::test]
async fn an_answer_another_process_stored_in_the_same_millisecond_is_folded_in_the_databases_order() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let id = session.player.id.clone();
        engine.game().progress(&id).await.expect("the fold is kept from here on");
        // another process stores a wrong answer; this one then a right one
        play_plan(&Engine::new(store.clone()), &token, &[(K::FIVE, false)]).await;
        let session = refreshed(store, &token).await;
        let item = item_of(engine.game().play_state(&session, K::FIVE, gapwise_model::Language::En).await.expect("state"));
        let right = item.options.iter().position(|o| o == "two" || o == "red").expect("a target among the options");
        let session = refreshed(store, &token).await;
        let round = engine
            .game()
            .answer_and_play(&session, (&item.answer_id, right, Reported::ms(Some(1500))), K::FIVE, gapwise_model::Language::En, None)
            .await
            .expect("round");
        assert!(round.feedback.correct);
        // ... in the same millisecond: the serving ids are UUIDv7, made in order
        // (one process here), so the wrong answer sorts first and the right one last
        sqlx::query("UPDATE answers SET created_at = (SELECT created_at FROM answers WHERE id = $1) WHERE id <> $1")
            .bind(&item.answer_id)
            .execute(store.pool())
            .await
            .expect("one millisecond");
        let after = engine.game().progress_after(&session, round.feedback.score.answered).await.expect("progress after");
        assert_eq!((after.streak, after.best_streak), (1, 1), "{:?}", db.backend());
        assert_eq!(after, Engine::new(store.clone()).game().progress(&id).await.expect("counted afresh"));
    }
}

#[tokio::test]
async fn blankers_earn_points_when_others_play_their_pairs() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (blanker, _) = player(store).await;
        sqlx::query("UPDATE word_pairs SET creator_id = $1").bind(&blanker.player.id).execute(store.pool()).await.expect("creator");
        let (_, token) = player(store).await;
        // another player: wrong twice with five sentences, right once at k = 1, wrong once at k = 3
        play_plan(engine, &token, &[(K::FIVE, false), (K::FIVE, false), (K::ONE, true), (K::THREE, false)]).await;
        let progress = engine.game().progress(&blanker.player.id).await.expect("blanker");
        // 4 answers on their pairs x 1, and 2 of them wrong at k = 5 x 3 more
        assert_eq!((progress.from_pairs, progress.points, progress.level), (10, 10, 2), "{:?}", db.backend());
        assert_eq!(progress.achievements, [Achievement::PairInGame, Achievement::Unsolvable]);
        let player = refreshed(store, &token).await;
        let theirs = engine.game().progress(&player.player.id).await.expect("player");
        assert_eq!((theirs.from_pairs, theirs.points), (0, 1 + 1 + 5 + 1), "the player's own points only");
    }
}

#[tokio::test]
async fn a_second_process_counts_the_first_ones_servings() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        store.admin().set_answers_per_item("test", 1).await.expect("one holder retires an item");
        let item_served = |s: &Store, state: PlayState| {
            let pool = s.pool().clone();
            async move {
                let PlayState::Item { card, .. } = state else { return None };
                Some(
                    sqlx::query_scalar::<_, i64>("SELECT item_id FROM servings WHERE id = $1")
                        .bind(card.answer_id)
                        .fetch_one(&pool)
                        .await
                        .expect("serving"),
                )
            }
        };
        let (first, _) = player(store).await;
        let held = item_served(store, engine.game().play_state(&first, K::ONE, gapwise_model::Language::En).await.expect("state"))
            .await
            .expect("an item");
        // another server on the same database (a replica) loads its table after that serving
        let other = Engine::new(Store::open(&db.url).await.expect("a second process"));
        let mut served = HashSet::new();
        loop {
            let (session, _) = player(other.store()).await;
            let Some(item) =
                item_served(other.store(), other.game().play_state(&session, K::ONE, gapwise_model::Language::En).await.expect("state"))
                    .await
            else {
                break;
            };
            assert!(served.insert(item), "{item} served twice");
        }
        assert!(!served.contains(&held), "{:?}: the first process's reservation counts", db.backend());
        let items: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM items WHERE k = 1 AND kind = 'choice'").fetch_one(store.pool()).await.expect("items");
        assert_eq!(served.len() as i64, items - 1, "{:?}", db.backend());
    }
}

/// On SQLite the game's writes are committed in batches: a write that fails (here
/// an answer of a player erased after being served) fails alone, and the other
/// answers, in its batch or not, are stored. (The writer thread takes the answers
/// as they come, so how they fall into batches varies; the unit tests of
/// `game_writes` run one batch by hand.)
#[tokio::test]
async fn a_failing_write_fails_alone_and_the_rest_of_its_batch_is_stored() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let mut served = Vec::new();
        for _ in 0..6 {
            let (session, token) = player(store).await;
            let item = item_of(engine.game().play_state(&session, K::FIVE, gapwise_model::Language::En).await.expect("state"));
            served.push((refreshed(store, &token).await, item.answer_id));
        }
        store.rights().erase(&served[0].0.player.id).await.expect("erase");
        let answers =
            futures_util::future::join_all(served.iter().map(|(session, id)| engine.game().answer(session, id, 0, Reported::ms(None))))
                .await;
        assert!(answers[0].is_err(), "{:?}: the erased player's answer was taken", db.backend());
        for answer in &answers[1..] {
            assert!(answer.is_ok(), "{:?}: {answer:?}", db.backend());
        }
        assert_eq!(store.count_rows("answers").await.expect("count"), 5, "{:?}", db.backend());
    }
}

/// Two processes serve one player in turn, each with its view of the player's
/// served items kept in memory: a process whose view misses the other's serving
/// gets its pick turned down, reads the view again and picks another item, so
/// the player meets every item once and none twice.
#[tokio::test]
async fn a_player_served_by_two_processes_in_turn_gets_every_item_once() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let other = Engine::new(Store::open(&db.url).await.expect("a second process"));
        let (_, token) = player(store).await;
        let mut served = HashSet::new();
        for turn in 0.. {
            let process = if turn % 2 == 0 { engine } else { &other };
            let session = refreshed(process.store(), &token).await;
            process.game().next_item(&session).await.expect("next");
            match process
                .game()
                .play_state(&refreshed(process.store(), &token).await, K::FIVE, gapwise_model::Language::En)
                .await
                .expect("state")
            {
                PlayState::Item { card, .. } => {
                    let answered = process
                        .game()
                        .answer(&refreshed(process.store(), &token).await, &card.answer_id, 0, Reported::ms(None))
                        .await
                        .expect("answer");
                    let item: i64 = sqlx::query_scalar("SELECT item_id FROM servings WHERE id = $1")
                        .bind(&card.answer_id)
                        .fetch_one(store.pool())
                        .await
                        .expect("serving");
                    assert!(served.insert(item), "{:?}: item {item} served twice", db.backend());
                    assert_eq!(answered.score.answered, served.len() as i64);
                }
                PlayState::Exhausted { .. } => break,
                other => panic!("{other:?}"),
            }
        }
        let items: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM items WHERE k = 5 AND kind = 'choice'").fetch_one(store.pool()).await.expect("items");
        assert_eq!(served.len() as i64, items, "{:?}", db.backend());
    }
}

/// A double click sends two answers to one serving at once (on SQLite they make one
/// batch): one is stored, and both get the word it chose.
#[tokio::test]
async fn two_answers_to_one_serving_at_once_store_the_first() {
    for db in each_backend().await {
        let engine = &Engine::new(db.store.clone());
        let store = engine.store();
        seed_small(store).await;
        let (session, token) = player(store).await;
        let item = item_of(engine.game().play_state(&session, K::FIVE, gapwise_model::Language::En).await.expect("state"));
        let session = refreshed(store, &token).await;
        let (a, b) = tokio::join!(
            engine.game().answer(&session, &item.answer_id, 0, Reported::ms(None)),
            engine.game().answer(&session, &item.answer_id, 1, Reported::ms(None))
        );
        let (a, b) = (a.expect("first"), b.expect("second"));
        assert_eq!(a.chosen, b.chosen, "{:?}", db.backend());
        assert_eq!(store.count_rows("answers").await.expect("count"), 1, "{:?}", db.backend());
    }
}
