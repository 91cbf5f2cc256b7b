//! Levels, quality control, friends' challenges and crowd studies over HTTP, on
//! SQLite and PostgreSQL: locked k, per-item redundancy, gold items and the flags
//! they raise (admin page and export), a challenge compared item by item, and a
//! Prolific-style study from its entry to the completion redirect, with returned
//! and abandoned assignments freeing their items; refusals in the player's language.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::{call, client, staff_client, started, App};
use gapwise_model::ItemPolicy;
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::testing::each_backend;
use gapwise_store::{Role, Store};
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// The targets of the seed's pairs: choosing one answers right.
const TARGETS: [&str; 2] = ["two", "red"];

/// Two English pairs with sentences enough for eight items of every k (four a pair,
/// no sentence in two items of its pair).
async fn seed(store: &Store) {
    let mut sentences = String::from("lang\ttext\tsource\tgenre\n");
    for i in 0..36 {
        sentences.push_str(&format!("en\tThere were two cats in box {i}.\ttest\tfiction\n"));
        sentences.push_str(&format!("en\tShe painted wall {i} red today.\ttest\tnews\n"));
    }
    store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &sentences).await.expect("sentences");
    let pairs = "lang\ttarget\tdistractor\tstrategy\nen\ttwo\tthree\ta-priori\nen\tred\tgreen\tdistributional\n";
    store.material().import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await.expect("pairs");
    store.material().build_items(4).await.expect("items");
}

async fn admin(app: &App, store: &Store) -> Client {
    store.staff().create("root", Role::Admin, "admin passphrase").await.expect("admin");
    staff_client(app, "root", "admin passphrase").await
}

/// Plays the item `play` serves with `form`, answering right or wrong; when the game
/// has no item, returns the state it showed instead.
async fn play_one(c: &Client, app: &App, form: &[(&str, &str)], right: bool) -> Result<(), Value> {
    let (status, state) = call(c, app, "play", form).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    let Some(card) = state.get("Item").map(|i| &i["card"]) else { return Err(state) };
    let options: Vec<&str> = card["options"].as_array().expect("options").iter().map(|o| o.as_str().expect("word")).collect();
    let hit = options.iter().position(|o| TARGETS.contains(o)).expect("a target among the options");
    let choice = if right { hit } else { 1 - hit };
    let id = card["answer_id"].as_str().expect("id");
    let (status, feedback) = call(c, app, "answer", &[("answer_id", id), ("choice", &choice.to_string()), ("client_ms", "1200")]).await;
    assert_eq!((status, feedback["correct"].as_bool()), (StatusCode::OK, Some(right)), "{feedback}");
    assert_eq!(call(c, app, "next", &[]).await.0, StatusCode::OK);
    Ok(())
}

/// Plays until the game has no item; returns how many were played and the last state.
async fn play_all(c: &Client, app: &App, form: &[(&str, &str)], right: bool) -> (usize, Value) {
    let mut n = 0;
    loop {
        match play_one(c, app, form, right).await {
            Ok(()) => n += 1,
            Err(state) => return (n, state),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fewer_sentences_unlock_with_levels() {
    for db in each_backend().await {
        seed(&db.store).await;
        let app = common::serve(&db.store).await;
        let c = started(&app).await;
        for (k, level) in [("1", 3), ("3", 2)] {
            let (_, state) = call(&c, &app, "play", &[("k", k)]).await;
            assert_eq!(state["Locked"]["level"], level, "k = {k}: {state}");
        }
        // five right answers with five sentences are 10 points: level 2
        for _ in 0..5 {
            play_one(&c, &app, &[("k", "5")], true).await.expect("an item");
        }
        let (_, progress) = call(&c, &app, "progress", &[]).await;
        assert_eq!((progress["points"].as_i64(), progress["level"].as_i64()), (Some(10), Some(2)), "{progress}");
        assert!(call(&c, &app, "play", &[("k", "3")]).await.1.get("Item").is_some(), "k = 3 is open at level 2");
        assert_eq!(call(&c, &app, "play", &[("k", "1")]).await.1["Locked"]["level"], 3);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn items_retire_after_n_answers_except_gold_which_flags_players() {
    for db in each_backend().await {
        seed(&db.store).await;
        let store = &db.store;
        let app = common::serve(store).await;
        let admin = admin(&app, store).await;
        let a = started(&app).await;
        for (who, want) in [(&client(), StatusCode::UNAUTHORIZED), (&a, StatusCode::FORBIDDEN)] {
            assert_eq!(call(who, &app, "set-answers-per-item", &[("n", "1")]).await.0, want, "players cannot change settings");
        }
        assert_eq!(call(&admin, &app, "set-answers-per-item", &[("n", "0")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(call(&admin, &app, "set-answers-per-item", &[("n", "1")]).await.0, StatusCode::OK);

        // one answer retires an item: a second player finds none left
        let (played, _) = play_all(&a, &app, &[("k", "5")], true).await;
        assert_eq!(played, 8, "the eight items with five sentences");
        let b = started(&app).await;
        assert!(call(&b, &app, "play", &[("k", "5")]).await.1.get("Exhausted").is_some());

        // gold items go to everyone
        let items: Vec<i64> = sqlx::query_scalar("SELECT id FROM items WHERE k = 5 AND kind = 'choice' ORDER BY id")
            .fetch_all(store.pool())
            .await
            .expect("items");
        assert_eq!(call(&a, &app, "set-item-gold", &[("id", &items[0].to_string()), ("gold", "true")]).await.0, StatusCode::FORBIDDEN);
        for item in &items {
            assert_eq!(call(&admin, &app, "set-item-gold", &[("id", &item.to_string()), ("gold", "true")]).await.0, StatusCode::OK);
        }
        assert_eq!(call(&admin, &app, "set-item-gold", &[("id", "999999"), ("gold", "true")]).await.0, StatusCode::NOT_FOUND);
        let (missed, _) = play_all(&b, &app, &[("k", "5")], false).await;
        assert_eq!(missed, 8, "every gold item, though each was answered once already");

        // missing gold items again and again flags the player, for admins and in exports
        let (_, b_name) = call(&b, &app, "whoami", &[]).await;
        let (_, overview) = call(&admin, &app, "admin-overview", &[]).await;
        let flagged = overview["flagged"].as_array().expect("flagged");
        let b_flags = flagged.iter().find(|p| p["pseudonym"] == b_name).unwrap_or_else(|| panic!("{b_name} is flagged: {overview}"));
        assert_eq!((b_flags["reasons"][0].as_str(), b_flags["gold_missed"].as_i64()), (Some("gold_failing"), Some(8)));
        let a_name = call(&a, &app, "whoami", &[]).await.1;
        assert!(!flagged.iter().any(|p| p["pseudonym"] == a_name), "a is not flagged");
        assert_eq!((overview["answers_per_item"].as_i64(), overview["gold_items"].as_i64()), (Some(1), Some(8)));
        let export = admin.get(format!("{}/api/export/jsonl", app.base)).send().await.expect("export").text().await.expect("jsonl");
        let rows: Vec<Value> = export.lines().map(|l| serde_json::from_str(l).expect("row")).collect();
        assert_eq!(rows.len(), 16);
        let failing = rows.iter().filter(|r| r["player_flag"] == "gold_failing").count();
        assert_eq!(failing, 8, "b's eight answers carry the flag");
        assert!(rows.iter().all(|r| r["gold"] == true), "every item was marked gold");
        assert!(!export.contains(b_name.as_str().expect("name")), "no pseudonym in the export");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_challenge_is_compared_item_by_item() {
    for db in each_backend().await {
        seed(&db.store).await;
        let app = common::serve(&db.store).await;
        let (a, b, stranger) = (started(&app).await, started(&app).await, started(&app).await);
        let b_name = call(&b, &app, "whoami", &[]).await.1.as_str().expect("name").to_owned();
        assert_eq!(call(&a, &app, "add-friend", &[("pseudonym", "nobody")]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            call(&a, &app, "challenge", &[("pseudonym", &b_name), ("k", "3")]).await.0,
            StatusCode::UNPROCESSABLE_ENTITY,
            "friends first"
        );
        assert_eq!(call(&a, &app, "add-friend", &[("pseudonym", &b_name)]).await.0, StatusCode::OK);
        let (status, _) = call(&a, &app, "challenge", &[("pseudonym", &b_name), ("k", "3")]).await;
        assert!(status.is_success() || status.is_redirection(), "{status}");
        let (_, lists) = call(&a, &app, "friends", &[]).await;
        assert_eq!(lists[0][0]["pseudonym"], b_name.as_str());
        let id = lists[1][0]["id"].as_str().expect("challenge id").to_owned();
        let in_challenge = [("k", "5"), ("challenge", id.as_str())];

        let (played, end) = play_all(&a, &app, &in_challenge, true).await;
        assert_eq!(played, 8, "the seed has eight items with three sentences, fewer than ten");
        assert!(end.get("Exhausted").is_some(), "{end}");
        for _ in 0..2 {
            play_one(&b, &app, &in_challenge, false).await.expect("b plays the same items");
        }
        let (_, lists) = call(&a, &app, "friends", &[]).await;
        let seen_by_a = &lists[1][0];
        assert_eq!(
            (seen_by_a["me"]["correct"].as_i64(), seen_by_a["them"]["answered"].as_i64(), seen_by_a["them"]["correct"].as_i64()),
            (Some(8), Some(2), Some(0))
        );
        let (_, lists) = call(&b, &app, "friends", &[]).await;
        let seen_by_b = lists[1][0]["results"].as_array().expect("results");
        let shown = seen_by_b.iter().filter(|r| !r[1].is_null()).count();
        assert_eq!(shown, 2, "b sees a's result only for the items b answered: {seen_by_b:?}");
        assert_eq!(call(&stranger, &app, "play", &in_challenge).await.0, StatusCode::NOT_FOUND, "not their challenge");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crowd_study_runs_from_entry_to_completion_and_frees_returned_items() {
    for db in each_backend().await {
        seed(&db.store).await;
        let store = &db.store;
        let app = common::serve(store).await;
        let admin = admin(&app, store).await;
        store.admin().set_answers_per_item("root", 1).await.expect("redundancy");
        let study = [
            ("platform", "prolific"),
            ("name", "Pilot"),
            ("k", "5"),
            ("language", "en"),
            ("items_target", "3"),
            ("max_minutes", "60"),
            ("completion_code", "C0DE42"),
        ];
        assert_eq!(call(&started(&app).await, &app, "create-study", &study).await.0, StatusCode::FORBIDDEN);
        let (status, id) = call(&admin, &app, "create-study", &study).await;
        assert_eq!(status, StatusCode::OK, "{id}");
        let id = id.as_str().expect("study id").to_owned();
        // a study's items are served by the game's own rule unless it asks for the adaptive one
        let mut adaptive = study.to_vec();
        adaptive.push(("item_policy", "information"));
        let (status, _) = call(&admin, &app, "create-study", &adaptive).await;
        assert_eq!(status, StatusCode::OK);
        adaptive.push(("item_policy", "guesswork"));
        adaptive.remove(adaptive.len() - 2);
        assert_eq!(call(&admin, &app, "create-study", &adaptive).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let policies: Vec<ItemPolicy> = store.crowd().studies().await.expect("studies").into_iter().map(|s| s.settings.policy).collect();
        assert_eq!(policies.len(), 2);
        assert!(policies.contains(&ItemPolicy::FewestHolders) && policies.contains(&ItemPolicy::MostInformation), "{policies:?}");
        let page = client().get(format!("{}/crowd/{id}?PROLIFIC_PID=P1&STUDY_ID=x&SESSION_ID=S1", app.base)).send().await.expect("entry");
        let html = page.text().await.expect("html");
        assert!(html.contains("Pilot") && html.contains("value=\"P1\"") && html.contains("value=\"S1\""), "{html}");

        let enter = |participant: &'static str| {
            let (app, id) = (&app, id.clone());
            async move {
                let c = client();
                let form = [("study", id.as_str()), ("participant", participant), ("platform_session", "S"), ("consent", "yes")];
                let (status, body) = call(&c, app, "crowd-start", &form).await;
                assert!(status.is_success() || status.is_redirection(), "{participant}: {status} {body}");
                c
            }
        };
        let refused = [("study", id.as_str()), ("participant", "P9"), ("platform_session", "S")];
        assert_eq!(call(&client(), &app, "crowd-start", &refused).await.0, StatusCode::UNPROCESSABLE_ENTITY, "no consent");
        let no_ids = [("study", id.as_str()), ("participant", ""), ("platform_session", "S"), ("consent", "yes")];
        assert_eq!(call(&client(), &app, "crowd-start", &no_ids).await.0, StatusCode::UNPROCESSABLE_ENTITY, "no participant id");
        let unknown = [("study", "nope"), ("participant", "P9"), ("platform_session", "S"), ("consent", "yes")];
        assert_eq!(call(&client(), &app, "crowd-start", &unknown).await.0, StatusCode::NOT_FOUND);

        // the study's k and items whatever the page asks, then the completion redirect
        let p1 = enter("P1").await;
        for _ in 0..2 {
            play_one(&p1, &app, &[("k", "1")], true).await.expect("a study item");
        }
        // the last item as a browser without JavaScript plays it: the page after the
        // answer shows its feedback first, and "next" leads to the end of the study
        let (_, state) = call(&p1, &app, "play", &[("k", "5")]).await;
        let last = state["Item"]["card"]["answer_id"].as_str().expect("the last item");
        assert_eq!(call(&p1, &app, "answer", &[("answer_id", last), ("choice", "0")]).await.0, StatusCode::OK);
        let (_, state) = call(&p1, &app, "play", &[("k", "5")]).await;
        assert!(state["Feedback"]["feedback"]["score"]["answered"] == 3, "the last answer's feedback: {state}");
        assert_eq!(call(&p1, &app, "next", &[]).await.0, StatusCode::OK);
        let (_, state) = call(&p1, &app, "play", &[("k", "5")]).await;
        assert_eq!(state["Completed"]["redirect"], "https://app.prolific.com/submissions/complete?cc=C0DE42", "{state}");

        // a returned and an abandoned assignment hold nothing
        let (p2, p4) = (enter("P2").await, enter("P4").await);
        for p in [&p2, &p4] {
            play_one(p, &app, &[("k", "5")], true).await.expect("one answer");
            assert!(call(p, &app, "play", &[("k", "5")]).await.1.get("Item").is_some(), "a second item held");
        }
        assert_eq!(call(&p2, &app, "crowd-return", &[]).await.0, StatusCode::OK);
        let (status, state) = call(&p2, &app, "play", &[("k", "5")]).await;
        assert_eq!((status, &state["Returned"]["platform"]), (StatusCode::OK, &serde_json::json!("Prolific")), "returned: {state}");
        sqlx::query("UPDATE crowd_assignments SET last_seen_at = last_seen_at - 7200000 WHERE participant_id = 'P4'")
            .execute(store.pool())
            .await
            .expect("idle");
        // the game's requests sweep at most once a second: sweep now
        assert_eq!(store.crowd().reclaim_abandoned().await.expect("sweep"), 1);
        let p3 = started(&app).await;
        let (played, _) = play_all(&p3, &app, &[("k", "5")], true).await;
        assert_eq!(played, 5, "all but p1's three items, p2's and p4's free again");
        let (status, state) = call(&p4, &app, "play", &[("k", "5")]).await;
        assert_eq!((status, state.get("Returned").is_some()), (StatusCode::OK, true), "timed out: {state}");
        let studies = store.crowd().studies().await.expect("studies");
        let pilot = studies.iter().find(|s| s.id.as_str() == id).expect("the pilot study");
        assert_eq!(pilot.assignments, [0, 1, 1, 1], "active, completed, returned, abandoned");
        let reasons: Vec<Vec<String>> = store.admin().player_flags().await.expect("flags").into_values().map(|p| p.reasons).collect();
        assert!(
            reasons.contains(&vec!["assignment_returned".to_owned()]) && reasons.contains(&vec!["assignment_abandoned".to_owned()]),
            "{reasons:?}"
        );
        // the participant id is theirs to see, and never exported
        let mine = common::my_data(&p1, &app).await;
        assert_eq!(mine["crowd"][1], "P1", "{mine}");
        let export = admin.get(format!("{}/api/export/csv", app.base)).send().await.expect("export").text().await.expect("csv");
        assert!(!export.contains("P1") && !export.contains("C0DE42"), "{export}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn refusals_come_in_the_players_language() {
    let db = gapwise_store::testing::sqlite().await;
    seed(&db.store).await;
    let app = common::serve(&db.store).await;
    let player = started(&app).await;
    let ask = |c: &Client, endpoint: &str, form: &[(&str, &str)], lang: &str| {
        c.post(format!("{}/api/{endpoint}", app.base))
            .header(reqwest::header::ACCEPT, "application/json")
            .header(reqwest::header::ACCEPT_LANGUAGE, lang)
            .form(form)
            .send()
    };
    for (lang, unknown, no_session) in [
        ("ru", "игрока с псевдонимом «nobody» нет", "нет игровой сессии: начните с главной страницы"),
        ("fr", "aucun joueur ne s’appelle «\u{a0}nobody\u{a0}»", "pas de session de jeu : commencez sur la page d’accueil"),
        ("en", "no player is called \"nobody\"", "no game session: start on the home page"),
    ] {
        let res = ask(&player, "add-friend", &[("pseudonym", "nobody")], lang).await.expect("add friend");
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        let refusal = res.json::<Value>().await.expect("json");
        assert_eq!((&refusal["Refused"]["message"], &refusal["Refused"]["code"]), (&unknown.into(), &"no_player".into()), "{lang}");
        let res = ask(&client(), "friends", &[], lang).await.expect("friends");
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        let refusal = res.json::<Value>().await.expect("json");
        assert_eq!((&refusal["Refused"]["message"], &refusal["Refused"]["code"]), (&no_session.into(), &"no_session".into()), "{lang}");
    }
    let res = ask(&player, "suggest", &[("target", "two"), ("distractor", "three")], "es").await.expect("suggest");
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refusal = res.json::<Value>().await.expect("json");
    assert_eq!(
        (&refusal["Refused"]["message"], &refusal["Refused"]["code"]),
        (&"two / three ya está en el juego".into(), &"pair_in_game".into())
    );
}
