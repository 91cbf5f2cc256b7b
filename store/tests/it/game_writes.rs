//! The game's write path on both backends: the jobs handed over together (as
//! concurrent requests hand them) go as one batch, and each is told its own result:
//! a conflict is `false` for the job that lost it, a failing row fails only its
//! job, and what a batch stores is what reads after it see.

use std::sync::Arc;

use futures_util::future::join_all;
use gapwise_model::{ItemId, PairId, PlayerId, ServingId, Trial};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::{AnswerRow, ServingRow, Store, StoreError, Write};

fn player(id: &str, pseudonym: &str) -> Write {
    Write::NewPlayer { id: PlayerId::new(id), pseudonym: pseudonym.into(), consent_version: "v".into(), created_at: 1 }
}

fn serve(id: &str, item_id: i64, session: &str) -> Write {
    let serving = ServingRow {
        id: ServingId::new(id),
        player: PlayerId::new("a"),
        item: ItemId(item_id),
        k: gapwise_model::K::THREE,
        target_first: true,
        served_at: 2,
    };
    Write::Serve { serving: Arc::new(serving), session: session.into() }
}

fn answer(id: &str, item_id: i64) -> Write {
    Write::Answer(AnswerRow {
        id: ServingId::new(id),
        player: PlayerId::new("a"),
        item: ItemId(item_id),
        k: gapwise_model::K::THREE,
        chosen: "two".into(),
        correct: true,
        client_ms: Some(900),
        server_ms: 950,
        option_order: "two|three".into(),
        created_at: 3,
        client_ms_reported: None,
        trial: Trial::default(),
    })
}

fn move_on(session: &str) -> Write {
    Write::MoveOn { session: session.into(), player: PlayerId::new("a") }
}

/// Two player ids whose hashes agree modulo every lane count (2 to 8), so that their
/// jobs go to one lane (see `GameWriter::lane`).
fn same_lane() -> (String, String) {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let lane = |id: &str| {
        let mut h = DefaultHasher::new();
        id.hash(&mut h);
        h.finish() % 840
    };
    let mut seen = std::collections::HashMap::new();
    for i in 0.. {
        let id = format!("p{i}");
        if let Some(first) = seen.insert(lane(&id), id.clone()) {
            return (first, id);
        }
    }
    unreachable!("the loop returns once two ids share a remainder")
}

/// Hands `writes` over together (each before any is answered, so that they wait
/// for one batch), then waits for what each was told.
async fn together(store: &Store, writes: Vec<Write>) -> Vec<Result<bool, StoreError>> {
    let mut pending = Vec::new();
    for write in writes {
        pending.push(store.send(write).await);
    }
    join_all(pending.into_iter().map(|p| p.result())).await
}

/// `told` as `Some(stored)` per job, `None` for a failed one.
fn outcomes(told: &[Result<bool, StoreError>]) -> Vec<Option<bool>> {
    told.iter().map(|r| r.as_ref().ok().copied()).collect()
}

#[tokio::test]
async fn each_job_of_a_batch_is_told_its_own_result() {
    for db in each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        seed_small(store).await;
        let items: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM items WHERE k = 3 ORDER BY id LIMIT 2").fetch_all(store.pool()).await.expect("items");
        let [first, second] = items[..] else { panic!("{backend:?}: two items of k = 3") };

        // a taken id is an error, its own (one player's jobs keep their order: they
        // share a lane); a taken pseudonym is a refusal (false)
        let told = together(store, vec![player("a", "pa"), player("a", "pb")]).await;
        assert_eq!(outcomes(&told), [Some(true), None], "{backend:?}: players {told:?}");
        let told = together(store, vec![player("b", "pa"), player("c", "pc")]).await;
        assert_eq!(outcomes(&told), [Some(false), Some(true)], "{backend:?}: players {told:?}");
        // two players whose jobs share a lane whatever the lanes' number (2 to 8) claim one
        // pseudonym in one batch: the first handed over gets it
        let (one, other) = same_lane();
        let told = together(store, vec![player(&one, "pd"), player(&other, "pd")]).await;
        assert_eq!(outcomes(&told), [Some(true), Some(false)], "{backend:?}: players {told:?}");

        let (a, nobody) = (PlayerId::new("a"), PlayerId::new("nobody"));
        let (one, two, nobody) =
            tokio::join!(store.players().create_session(&a), store.players().create_session(&a), store.players().create_session(&nobody));
        assert!(nobody.is_err(), "{backend:?}: a session of no player");
        let (one, two) = (one.expect("session"), two.expect("session"));
        let hash = |token: &str| {
            let token = token.to_owned();
            async move { store.players().session(&token).await.expect("read").expect("the session").token_hash }
        };
        let (h1, h2) = (hash(&one).await, hash(&two).await);

        // the same item twice to one player: stored once; each session moves to its own serving
        let told = together(store, vec![serve("s1", first, &h1), serve("s2", first, &h2), serve("s3", second, &h2)]).await;
        assert_eq!(outcomes(&told), [Some(true), Some(false), Some(true)], "{backend:?}: servings {told:?}");

        // an answer given twice is stored once; one of no serving fails alone
        let told = together(store, vec![answer("s1", first), answer("s1", first), answer("ghost", second)]).await;
        assert_eq!(outcomes(&told), [Some(true), Some(false), None], "{backend:?}: answers {told:?}");

        // only the session on an answered serving moves on
        let told = together(store, vec![move_on(&h1), move_on(&h2), move_on("no such session")]).await;
        assert_eq!(outcomes(&told), [Some(true), Some(false), Some(false)], "{backend:?}: moves {told:?}");

        let read =
            join_all([one.as_str(), two.as_str(), "no such token"].map(|token| async move { store.players().session(token).await })).await;
        let read: Vec<Option<(Option<ServingId>, i64)>> =
            read.into_iter().map(|s| s.expect("read").map(|s| (s.serving, s.score.answered))).collect();
        assert_eq!(read, [Some((None, 1)), Some((Some(ServingId::new("s3")), 1)), None], "{backend:?}: sessions read together");
        for (table, rows) in [("annotators", 3), ("sessions", 2), ("servings", 2), ("answers", 1)] {
            assert_eq!(store.count_rows(table).await.expect("count"), rows, "{backend:?}: {table}");
        }
    }
}

/// The writes rounds bring (answers, servings) go in one batch, on PostgreSQL as one
/// statement (with the session reads of the batch's lane): each is told its own
/// result, and when one of them fails, the others still get theirs. An answer handed
/// over with its serving is stored only when they go together (on SQLite in order, in
/// one transaction; on PostgreSQL in one statement, whose keys are checked at its
/// end): run alone, as after a failed statement, the answer would fail first.
#[tokio::test]
async fn the_jobs_of_rounds_are_told_their_own_results_together() {
    for db in each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        seed_small(store).await;
        let items: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM items WHERE k = 3 ORDER BY id LIMIT 3").fetch_all(store.pool()).await.expect("items");
        let [first, second, third] = items[..] else { panic!("{backend:?}: three items of k = 3") };
        assert!(store.write(player("a", "pa")).await.expect("player"));
        let token = store.players().create_session(&PlayerId::new("a")).await.expect("session");
        let read = || async { store.players().session(&token).await.expect("read").expect("the session") };
        let hash = read().await.token_hash;
        assert!(store.write(serve("s1", first, &hash)).await.expect("serve"));

        // answers and servings together, each given twice: the first of each is stored
        let round =
            vec![answer("s1", first), serve("s2", second, &hash), answer("s1", first), serve("s2b", second, &hash), answer("s2", second)];
        let (told, session) = tokio::join!(together(store, round), read());
        assert_eq!(outcomes(&told), [Some(true), Some(true), Some(false), Some(false), Some(true)], "{backend:?}: a round {told:?}");
        assert_eq!(session.player.pseudonym, "pa", "{backend:?}");

        // an answer of no serving fails alone: the round's other jobs are done
        let round = vec![answer("ghost", third), serve("s3", third, &hash), answer("s1", first)];
        let (told, session) = tokio::join!(together(store, round), read());
        assert_eq!(outcomes(&told), [None, Some(true), Some(false)], "{backend:?}: a round with a failing answer {told:?}");
        assert_eq!(session.player.pseudonym, "pa", "{backend:?}");

        let session = read().await;
        assert_eq!((session.serving.as_ref().map(ServingId::as_str), session.score.answered), (Some("s3"), 2), "{backend:?}");
        for (table, rows) in [("servings", 3), ("answers", 2)] {
            assert_eq!(store.count_rows(table).await.expect("count"), rows, "{backend:?}: {table}");
        }
    }
}

#[tokio::test]
async fn a_closed_writer_finishes_what_it_was_given_and_refuses_the_rest() {
    for db in each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        let pending = store.send(player("a", "pa")).await;
        store.close().await;
        assert!(matches!(pending.result().await, Ok(true)), "{backend:?}");
        let refused = store.write(player("b", "pb")).await;
        assert!(matches!(&refused, Err(e) if e.is_unavailable()), "{backend:?}: {refused:?}");
        let reopened = Store::open(&db.url).await.expect("reopen");
        assert_eq!(reopened.count_rows("annotators").await.expect("count"), 1, "{backend:?}");
    }
}

/// The pairs a player met come in the order of their servings, also when
/// several servings share a millisecond (a fast player, or a test): the ids, made
/// in increasing order, break the tie, not the pairs' ids.
#[tokio::test]
async fn servings_of_one_millisecond_keep_their_order() {
    for db in each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        seed_small(store).await;
        // one item of each pair, the pair of the larger id first
        let items: Vec<(i64, i64)> =
            sqlx::query_as("SELECT MIN(id), pair_id FROM items WHERE k = 1 GROUP BY pair_id ORDER BY pair_id DESC")
                .fetch_all(store.pool())
                .await
                .expect("items");
        assert_eq!(items.len(), 2, "{backend:?}: the small seed has two pairs");
        assert!(store.write(player("a", "pa")).await.expect("player"));
        let session = store.players().create_session(&PlayerId::new("a")).await.expect("session");
        let hash = store.players().session(&session).await.expect("read").expect("the session").token_hash;
        for &(item, _) in &items {
            assert!(store.write(serve(&uuid::Uuid::now_v7().to_string(), item, &hash)).await.expect("serve"));
        }
        let seen = store.game().served_and_friends(&PlayerId::new("a")).await.expect("read");
        let served_in_order: Vec<PairId> = items.iter().map(|&(_, pair)| PairId(pair)).collect();
        assert_eq!(seen.pairs_served, served_in_order, "{backend:?}");
    }
}
