//! The game over HTTP, as a browser or a script meets it, on SQLite and PostgreSQL:
//! consent and the session cookie, idempotent answers, refusals with clear 4xx
//! statuses, the CSRF guard and the body limit; a player's pair suggestion through
//! moderation to being played, with the admin's rights checked from the outside.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::{call, client, staff_client, started};
use gapwise_store::testing::{each_backend, seed_small, TestStore};
use gapwise_store::Role;
use reqwest::{header, Client, StatusCode};
use serde_json::Value;
use sqlx::Row;

/// The served app and the database behind it.
struct App {
    web: common::App,
    db: TestStore,
}

impl std::ops::Deref for App {
    type Target = common::App;

    fn deref(&self) -> &common::App {
        &self.web
    }
}

async fn spawn(db: TestStore) -> App {
    seed_small(&db.store).await;
    App { web: common::serve(&db.store).await, db }
}

fn item(state: &Value) -> (String, Vec<String>) {
    let card = &state["Item"]["card"];
    let id = card["answer_id"].as_str().unwrap_or_else(|| panic!("no item in {state}")).to_owned();
    let options = card["options"].as_array().expect("options").iter().map(|o| o.as_str().expect("word").to_owned()).collect();
    (id, options)
}

/// A refused plain form post goes back to its page with the error in the page's
/// query, for the page to show; one with no page to go back to keeps its status.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_refused_plain_post_goes_back_to_its_page_with_the_error() {
    let app = spawn(gapwise_store::testing::sqlite().await).await;
    let post = |referer: Option<String>| {
        let mut req = client().post(format!("{}/api/start", app.base)).header(header::ACCEPT, "text/html").form(&[("agree", "no")]);
        if let Some(referer) = referer {
            req = req.header(header::REFERER, referer);
        }
        req.send()
    };
    let res = post(Some(format!("{}/?lang=fr", app.base))).await.expect("start");
    assert_eq!(res.status(), StatusCode::FOUND);
    let back = res.headers()[header::LOCATION].to_str().expect("ascii").to_owned();
    assert!(back.contains("/?lang=fr&__path=") && back.contains("&__err="), "{back}");
    let page = client().get(&back).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("role=\"alert\""), "the page says why: {page}");
    assert_eq!(post(None).await.expect("start").status(), StatusCode::UNPROCESSABLE_ENTITY, "no page to go back to");
    assert_eq!(app.db.store.count_rows("annotators").await.expect("count"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn consent_sets_a_safe_session_cookie() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = client();
        let (status, body) = call(&c, &app, "start", &[]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body.to_string().contains("consent"), "{body}");
        assert_eq!(app.db.store.count_rows("annotators").await.expect("count"), 0);

        let res = c
            .post(format!("{}/api/start", app.base))
            .header(header::ACCEPT, "text/html")
            .header(header::REFERER, format!("{}/", app.base))
            .form(&[("consent", "yes")])
            .send()
            .await
            .expect("start");
        assert_eq!(res.status(), StatusCode::FOUND);
        assert_eq!(res.headers()[header::LOCATION], "/play");
        let cookie = res.headers()[header::SET_COOKIE].to_str().expect("ascii");
        assert!(cookie.starts_with("gapwise_session="), "{cookie}");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
        assert!(!cookie.contains("Secure"), "plain-HTTP test server: {cookie}");
        assert_eq!(app.db.store.count_rows("annotators").await.expect("count"), 1);

        // signing out ends the session here and clears the cookie; the player stays
        let (status, me) = call(&c, &app, "whoami", &[]).await;
        assert!(status.is_success() && me.is_string(), "{status} {me}");
        let (status, _) = call(&c, &app, "logout", &[]).await;
        assert!(status.is_success() || status.is_redirection(), "{status}");
        assert_eq!(call(&c, &app, "whoami", &[]).await.1, Value::Null, "signed out");
        assert_eq!(app.db.store.count_rows("sessions").await.expect("count"), 0);
        assert_eq!(app.db.store.count_rows("annotators").await.expect("count"), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn play_answer_and_retry_over_http() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = started(&app).await;
        let (status, state) = call(&c, &app, "play", &[("k", "5")]).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        let (id, options) = item(&state);
        assert_eq!(state["Item"]["card"]["contexts"].as_array().expect("contexts").len(), 5);

        let form = [("answer_id", id.as_str()), ("choice", "1"), ("client_ms", "1530.4")];
        let (status, first) = call(&c, &app, "answer", &form).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["chosen"], options[1].as_str());
        let (status, again) = call(&c, &app, "answer", &form).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(first, again);
        assert_eq!(app.db.store.count_rows("answers").await.expect("count"), 1, "{:?}", app.db.backend());
        let ms: Option<i64> = sqlx::query_scalar("SELECT client_ms FROM answers").fetch_one(app.db.store.pool()).await.expect("row");
        assert_eq!(ms, Some(1530));

        // answer-next answers and serves the next item in the same request
        let (status, round) = call(&c, &app, "play", &[("k", "5")]).await;
        assert_eq!((status, round["Feedback"]["feedback"].clone()), (StatusCode::OK, first.clone()), "the answer's feedback until next");
        assert_eq!(call(&c, &app, "next", &[]).await, (StatusCode::OK, Value::Null));
        let (status, shown) = call(&c, &app, "play", &[("k", "5")]).await;
        assert_eq!(status, StatusCode::OK);
        let (second, _) = item(&shown);
        assert_ne!(second, id);
        let form = [("answer_id", second.as_str()), ("choice", "0"), ("client_ms", ""), ("k", "5"), ("language", "en")];
        let (status, round) = call(&c, &app, "answer-next", &form).await;
        assert_eq!(status, StatusCode::OK, "{round}");
        assert_eq!(round["feedback"]["score"]["answered"], 2, "{round}");
        assert_eq!(round["next"]["Item"]["score"], round["feedback"]["score"]);
        let (third, _) = item(&round["next"]);
        assert!(third != id && third != second, "{round}");
        let (_, shown) = call(&c, &app, "play", &[("k", "5")]).await;
        assert_eq!(item(&shown).0, third, "play shows the item that answer-next served");
        let (status, again) = call(&c, &app, "answer-next", &form).await;
        assert_eq!((status, &again["feedback"]), (StatusCode::OK, &round["feedback"]), "a retry gets the first answer's feedback");
        assert_eq!(app.db.store.count_rows("answers").await.expect("count"), 2);
        let mut bad_k = form;
        bad_k[3] = ("k", "4");
        let (status, body) = call(&c, &app, "answer-next", &bad_k).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

        // answer-round: the game page's whole round, with the progress after the answer
        // with what the browser saw of the trial; one it cannot have seen is refused by name
        let trial = "input=touch&hidden=1&clock_us=100&frame_us=16667";
        let mut form = [
            ("answer_id", third.as_str()),
            ("choice", "1"),
            ("client_ms", "900"),
            ("trial", "input=voice"),
            ("k", "5"),
            ("language", "en"),
        ];
        let (status, body) = call(&c, &app, "answer-round", &form).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body.to_string().contains("trial input"), "{body}");
        form[3] = ("trial", trial);
        let (status, page) = call(&c, &app, "answer-round", &form).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let stored: (Option<String>, Option<i64>, Option<i64>, Option<i64>) =
            sqlx::query_as("SELECT input_device, hidden_changes, clock_us, frame_us FROM answers WHERE id = $1")
                .bind(&third)
                .fetch_one(app.db.store.pool())
                .await
                .expect("row");
        assert_eq!(stored, (Some("touch".into()), Some(1), Some(100), Some(16_667)));
        assert_eq!(page["round"]["feedback"]["score"]["answered"], 3, "{page}");
        assert_eq!(page["progress"]["today"], 3, "{page}");
        let (_, progress) = call(&c, &app, "progress", &[]).await;
        assert_eq!(page["progress"], progress, "the round's progress is the one the progress bar reads");
        assert_eq!(page["crowd"], Value::Null, "not a crowd participant");
        let (_, shown) = call(&c, &app, "play", &[("k", "5")]).await;
        match page["round"]["next"].get("Item") {
            Some(_) => assert_eq!(shown, page["round"]["next"], "play shows the item that answer-round served"),
            None => assert!(page["round"]["next"].get("Exhausted").is_some(), "{page}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bad_requests_get_clear_4xx_answers() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let anonymous = client();
        let (status, body) = call(&anonymous, &app, "play", &[("k", "5")]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        // a refusal carries its stable code beside the words, for clients to act on
        assert_eq!(body["Refused"]["code"], "no_session", "{body}");

        let c = started(&app).await;
        // a k is read once, where the request is (gapwise_model::K): any other number
        // is as malformed as a word, and says what k may be
        let (status, body) = call(&c, &app, "play", &[("k", "4")]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body.to_string().contains("k must be 1, 3 or 5, not 4"), "{body}");

        for malformed in [&[("k", "many")][..], &[("k", "99999")], &[]] {
            let (status, body) = call(&c, &app, "play", malformed).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{malformed:?}: {body}");
            assert!(body.to_string().contains("malformed request"), "{body}");
        }
        let (status, _) = call(&c, &app, "answer", &[("answer_id", "x"), ("choice", "first")]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        let (status, body) = call(&c, &app, "answer", &[("answer_id", "made-up"), ("choice", "0")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert!(body.to_string().contains("not belong to an item served to you"), "{body}");

        // another player's item is as unknown as a made-up one
        let other = started(&app).await;
        let (_, state) = call(&other, &app, "play", &[("k", "5")]).await;
        let (theirs, _) = item(&state);
        let (status, _) = call(&c, &app, "answer", &[("answer_id", theirs.as_str()), ("choice", "0")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let (_, state) = call(&c, &app, "play", &[("k", "5")]).await;
        let (mine, _) = item(&state);
        let (status, body) = call(&c, &app, "answer", &[("answer_id", mine.as_str()), ("choice", "0"), ("client_ms", "soon")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let (status, body) = call(&c, &app, "answer", &[("answer_id", mine.as_str()), ("choice", "7")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(app.db.store.count_rows("answers").await.expect("count"), 0);
    }
}

/// SQL metacharacters, Unicode oddities and markup are refused with a 4xx where a
/// field has rules, stored exactly as sent where it is free text, and never reach a
/// query as SQL; a NUL character and a body that is not a form are refused at the
/// door; a response time that cannot be true is kept apart and not trusted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_input_is_refused_or_stored_verbatim() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let c = started(&app).await;
        let sql = "x'); DROP TABLE answers; --";
        let garbage = "\u{202E}\u{1D54F}\u{FEFF}w\u{0301} <img src=x onerror=alert(1)>";
        for message in [sql, garbage] {
            assert_eq!(call(&c, &app, "feedback", &[("message", message)]).await.0, StatusCode::OK);
        }
        let kept: Vec<String> =
            sqlx::query_scalar("SELECT message FROM feedback ORDER BY id").fetch_all(store.pool()).await.expect("feedback");
        assert_eq!(kept, [sql, garbage], "on {:?}", app.db.backend());
        let (status, body) = call(&c, &app, "feedback", &[("message", "a\u{0}b")]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

        let hostile = [
            ("login", vec![("pseudonym", sql), ("password", sql)]),
            ("add-friend", vec![("pseudonym", sql)]),
            ("suggest", vec![("target", sql), ("distractor", "three")]),
            ("suggest", vec![("target", garbage), ("distractor", "three")]),
            ("play", vec![("k", "5"), ("language", "en' OR '1'='1")]),
            ("answer", vec![("answer_id", sql), ("choice", "0")]),
            ("challenge", vec![("pseudonym", sql), ("k", "5")]),
        ];
        for (endpoint, form) in &hostile {
            let (status, body) = call(&c, &app, endpoint, form).await;
            assert!(status.is_client_error(), "{endpoint} {form:?}: {status} {body}");
        }
        assert!(store.count_rows("word_pairs").await.expect("pairs") > 0, "no statement was injected");
        assert_eq!(store.count_rows("answers").await.expect("answers"), 0);

        let res = client()
            .post(format!("{}/api/answer", app.base))
            .header(header::CONTENT_TYPE, "application/json")
            .body("{\"answer_id\": ")
            .send()
            .await
            .expect("request");
        assert!(res.status().is_client_error(), "a truncated JSON body: {}", res.status());

        for reported in ["-250", "1e12"] {
            let (_, state) = call(&c, &app, "play", &[("k", "5")]).await;
            let (id, _) = item(&state);
            let (status, body) = call(&c, &app, "answer", &[("answer_id", id.as_str()), ("choice", "0"), ("client_ms", reported)]).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            let row = sqlx::query("SELECT client_ms, client_ms_reported FROM answers WHERE id = $1")
                .bind(&id)
                .fetch_one(store.pool())
                .await
                .expect("answer");
            let (client_ms, kept): (Option<i64>, Option<i64>) = (row.get(0), row.get(1));
            assert_eq!((client_ms, kept), (None, Some(reported.parse::<f64>().expect("number") as i64)), "{reported}");
            assert_eq!(call(&c, &app, "next", &[]).await.0, StatusCode::OK);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cross_site_posts_and_oversized_bodies_are_refused() {
    let app = spawn(each_backend().await.remove(0)).await;
    let c = client();
    let res = c
        .post(format!("{}/api/start", app.base))
        .header(header::ORIGIN, "https://evil.example")
        .form(&[("consent", "yes")])
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.db.store.count_rows("annotators").await.expect("count"), 0);

    let same_site = c
        .post(format!("{}/api/start", app.base))
        .header(header::ORIGIN, app.base.clone())
        .header(header::ACCEPT, "application/json")
        .form(&[("consent", "yes")])
        .send()
        .await
        .expect("request");
    assert!(same_site.status().is_success() || same_site.status().is_redirection(), "{}", same_site.status());

    let huge = "x".repeat(gapwise_server::BODY_LIMIT_BYTES + 1);
    let res =
        c.post(format!("{}/api/answer", app.base)).form(&[("answer_id", huge.as_str()), ("choice", "0")]).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pages_carry_security_headers_and_unknown_pages_404() {
    let app = spawn(each_backend().await.remove(0)).await;
    let res = client().get(format!("{}/", app.base)).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    // cross-origin isolated: the browser's clock steps finely (the browser test reads it)
    assert_eq!(res.headers()["cross-origin-opener-policy"], "same-origin");
    assert_eq!(res.headers()["cross-origin-embedder-policy"], "require-corp");
    let policy = res.headers()["content-security-policy"].to_str().expect("ascii").to_owned();
    assert!(policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"), "{policy}");
    let body = res.text().await.expect("body");
    assert!(body.contains("name=\"consent\""), "the consent form is server-rendered");
    // every script carries this response's nonce, which the policy names, and no other runs
    let nonce = policy.split("'nonce-").nth(1).and_then(|rest| rest.split('\'').next()).expect("a nonce in the policy");
    assert!(nonce.len() >= 16, "{nonce}");
    let scripts = body.matches("<script").count();
    assert!(scripts > 0 && body.matches(&format!("nonce=\"{nonce}\"")).count() >= scripts, "{scripts} scripts: {body}");
    let again = client().get(format!("{}/", app.base)).send().await.expect("request");
    let other = again.headers()["content-security-policy"].to_str().expect("ascii").to_owned();
    assert!(!other.contains(nonce), "a new nonce for each response");
    // compressed when the client asks (the browser's wasm bundle, pages, JSON)
    let zipped = client().get(format!("{}/", app.base)).header(header::ACCEPT_ENCODING, "br, gzip").send().await.expect("request");
    assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "br");
    let api = client().get(format!("{}/healthz", app.base)).send().await.expect("probe");
    assert_eq!(api.headers()["content-security-policy"], "frame-ancestors 'none'");
    let res = client().get(format!("{}/no/such/page", app.base)).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    // every mode has its page at its address, linked from the menu of every page
    let home = client().get(format!("{}/", app.base)).send().await.expect("home").text().await.expect("html");
    for mode in gapwise_model::Mode::ALL {
        // (the main game asks a visitor without a session to start one: 401)
        let page = client().get(format!("{}{}", app.base, mode.path())).send().await.expect("mode page");
        assert!(page.status() != StatusCode::NOT_FOUND && !page.status().is_server_error(), "{mode}: {}", page.status());
        assert!(home.contains(&format!("href=\"{}\"", mode.path())), "{mode} in the menu");
    }
}

/// Without JavaScript: plain form posts, redirects back, and the server time.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_game_plays_without_javascript() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = started(&app).await;
        let play = format!("{}/play?k=5", app.base);
        let page = c.get(&play).send().await.expect("page").text().await.expect("html");
        let id = page
            .split("name=\"answer_id\" value=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("no answer id in the page: {page}"))
            .to_owned();
        let res = c
            .post(format!("{}/api/answer", app.base))
            .header(header::ACCEPT, "text/html")
            .header(header::REFERER, &play)
            .form(&[("answer_id", id.as_str()), ("choice", "0"), ("client_ms", "")])
            .send()
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::FOUND);
        let page = c.get(&play).send().await.expect("page").text().await.expect("html");
        assert!(page.contains("class=\"feedback\""), "feedback after the answer: {page}");
        let (client_ms, server_ms): (Option<i64>, i64) =
            sqlx::query_as("SELECT client_ms, server_ms FROM answers").fetch_one(app.db.store.pool()).await.expect("row");
        assert_eq!(client_ms, None);
        assert!(server_ms >= 0);
    }
}

/// Clients of an admin ("root") and a researcher ("ada"), both signed in.
async fn staff_clients(app: &App) -> (Client, Client) {
    app.db.store.staff().create("root", Role::Admin, "admin passphrase").await.expect("admin");
    app.db.store.staff().create("ada", Role::Researcher, "researcher passphrase").await.expect("researcher");
    (staff_client(app, "root", "admin passphrase").await, staff_client(app, "ada", "researcher passphrase").await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_suggested_pair_is_moderated_built_and_played() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let (admin, researcher) = staff_clients(&app).await;
        let player = started(&app).await;
        let (status, body) = call(&player, &app, "suggest", &[("target", "cats"), ("distractor", "painted")]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "Pending");
        let id = body["id"].as_i64().expect("id").to_string();
        let (status, _) = call(&player, &app, "suggest", &[("target", "cats"), ("distractor", "wall"), ("language", "xx")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "an unknown language");
        let (status, body) = call(&player, &app, "suggest", &[("target", "painted"), ("distractor", "cats")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a reversed duplicate: {body}");

        // who may see and change what
        for (who, c, want) in [
            ("anonymous", client(), 401),
            ("player", player.clone(), 403),
            ("researcher", researcher.clone(), 403),
            ("admin", admin.clone(), 200),
        ] {
            let page = c.get(format!("{}/admin", app.base)).send().await.expect("page");
            assert_eq!(page.status().as_u16(), want, "{who} on /admin");
            let (status, _) = call(&c, &app, "admin-overview", &[]).await;
            assert_eq!(status.as_u16(), want, "{who} on the overview");
        }
        let approve = [("id", id.as_str()), ("target", "cats"), ("distractor", "wall")];
        assert_eq!(call(&researcher, &app, "approve-suggestion", &approve).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&player, &app, "build-items", &[]).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&researcher, &app, "set-pair-active", &[("id", "1"), ("active", "false")]).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&admin, &app, "set-pair-active", &[("id", "1"), ("active", "false")]).await.0, StatusCode::OK);
        assert_eq!(call(&admin, &app, "set-pair-active", &[("id", "1"), ("active", "true")]).await.0, StatusCode::OK);
        let (status, pairs) = call(&admin, &app, "admin-pairs", &[("language", "en"), ("page", "0")]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(pairs.as_array().is_some_and(|p| p.len() == 2 && p.iter().all(|r| r["active"] == true)), "{pairs}");

        let (_, overview) = call(&admin, &app, "admin-overview", &[]).await;
        assert_eq!(overview["pending"][0]["target"], "cats", "{overview}");
        assert_eq!(call(&admin, &app, "approve-suggestion", &approve).await.0, StatusCode::OK);
        let (status, built) = call(&admin, &app, "build-items", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(built.as_u64().is_some_and(|n| n > 0), "items built: {built}");
        let (_, mine) = call(&player, &app, "my-suggestions", &[]).await;
        assert_eq!(mine[0]["status"], "Approved", "{mine}");
        let (_, overview) = call(&admin, &app, "admin-overview", &[]).await;
        let actions: Vec<&str> = overview["audit"].as_array().expect("audit").iter().filter_map(|e| e["action"].as_str()).collect();
        assert_eq!(actions, ["build items", "approve suggestion", "activate pair", "retire pair"]);

        // the new pair's items, as the admin's item list shows them
        let (_, pairs) = call(&admin, &app, "admin-pairs", &[("language", "en"), ("page", "0")]).await;
        let new_pair = pairs.as_array().and_then(|p| p.iter().find(|r| r["target"] == "cats")).expect("the approved pair");
        let pair_id = new_pair["id"].as_i64().expect("pair id").to_string();
        let (status, listed) = call(&admin, &app, "admin-pair-items", &[("pair", pair_id.as_str())]).await;
        assert_eq!(status, StatusCode::OK, "{listed}");
        let listed_items = listed["items"].as_array().expect("items");
        assert_eq!(i64::try_from(listed_items.len()).ok(), new_pair["items"].as_i64(), "every item of the pair: {listed}");
        for item in listed_items {
            let contexts = item["contexts"].as_array().expect("contexts");
            assert_eq!(Some(contexts.len() as u64), item["k"].as_u64(), "{item}");
            for c in contexts {
                let sentence = format!("{}cats{}", c["before"].as_str().expect("before"), c["after"].as_str().expect("after"));
                assert!(gapwise_model::words::blank_for(&sentence, "cats", "wall").is_some(), "{sentence}");
            }
        }
        assert_eq!(call(&admin, &app, "admin-pair-items", &[("pair", "999999")]).await.0, StatusCode::NOT_FOUND);
        for _ in 0..5 {
            let page = admin.get(format!("{}/admin/items?pair=999999", app.base)).send().await.expect("page");
            assert_eq!(page.status(), StatusCode::NOT_FOUND, "the page of an unknown pair, every time");
        }
        for (who, c, want) in [
            ("anonymous", client(), 401),
            ("player", player.clone(), 403),
            ("researcher", researcher.clone(), 403),
            ("admin", admin.clone(), 200),
        ] {
            assert_eq!(call(&c, &app, "admin-pair-items", &[("pair", pair_id.as_str())]).await.0.as_u16(), want, "{who} on a pair's items");
            let page = c.get(format!("{}/admin/items?pair={pair_id}", app.base)).send().await.expect("page");
            assert_eq!(page.status().as_u16(), want, "{who} on /admin/items");
            if want == 200 {
                let html = page.text().await.expect("html");
                assert!(html.contains("cats / wall") && html.contains("<mark class=\"filled\">cats"), "{html}");
            }
        }

        // languages: an unknown one is refused, one without items says so
        assert_eq!(call(&player, &app, "play", &[("k", "5"), ("language", "de")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, state) = call(&player, &app, "play", &[("k", "5"), ("language", "ru")]).await;
        assert!(status == StatusCode::OK && state.get("Exhausted").is_some(), "{state}");

        // another player meets the new pair
        let other = started(&app).await;
        let mut seen = false;
        for _ in 0..store.count_rows("items").await.expect("items") {
            let (_, state) = call(&other, &app, "play", &[("k", "5")]).await;
            if state.get("Exhausted").is_some() {
                break;
            }
            let (answer_id, options) = item(&state);
            if options.contains(&"cats".to_owned()) && options.contains(&"wall".to_owned()) {
                seen = true;
                break;
            }
            call(&other, &app, "answer", &[("answer_id", answer_id.as_str()), ("choice", "0")]).await;
            call(&other, &app, "next", &[]).await;
        }
        assert!(seen, "the approved pair is served");
    }
}

/// Posts a file to the admin page's import, as its form does.
async fn upload(c: &Client, app: &App, kind: &str, name: &str, body: &str) -> reqwest::Response {
    let form = reqwest::multipart::Form::new()
        .text("kind", kind.to_owned())
        .part("file", reqwest::multipart::Part::text(body.to_owned()).file_name(name.to_owned()));
    c.post(format!("{}/api/admin/import", app.base)).multipart(form).send().await.expect("upload")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admins_import_small_files_from_the_admin_page() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let (admin, researcher) = staff_clients(&app).await;
        let good =
            "lang\ttext\tsource\tgenre\nfr\tLe chat dort sur le canapé.\tupload\tfiction\nes\tEl perro duerme en casa.\tupload\tfiction\n";
        assert_eq!(upload(&client(), &app, "sentences", "s.tsv", good).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(upload(&started(&app).await, &app, "sentences", "s.tsv", good).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(upload(&researcher, &app, "sentences", "s.tsv", good).await.status(), StatusCode::FORBIDDEN);

        let before = store.count_rows("sentences").await.expect("count");
        let res = upload(&admin, &app, "sentences", "s.tsv", good).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let location = res.headers()[header::LOCATION].to_str().expect("location").to_owned();
        assert_eq!(location, "/admin?notice=imported.sentences.2.0");
        assert_eq!(store.count_rows("sentences").await.expect("count"), before + 2);
        assert_eq!(store.staff().audit_log(1).await.expect("audit")[0].action, "import sentences");

        let bad = "lang\ttext\tsource\tgenre\nfr\tUne phrase correcte ici.\tupload\tfiction\nxx\tUnknown.\tupload\tfiction\n";
        let page = admin.get(format!("{}{location}", app.base)).send().await.expect("page").text().await.expect("html");
        assert!(page.contains("2 sentences imported, 0 already present."), "the page shows the notice");
        // a refused file gets its problems as the answer, not in an address
        let res = upload(&admin, &app, "sentences", "bad.tsv", bad).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let said = res.text().await.expect("problems");
        assert!(said.contains("bad.tsv was not imported") && said.contains("line 3"), "{said}");
        assert_eq!(store.count_rows("sentences").await.expect("count"), before + 2, "nothing of a bad file");
        assert_eq!(upload(&admin, &app, "sentences", "s.csv", good).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(upload(&admin, &app, "rows", "s.tsv", good).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
}

/// `(table, column)` of every column that names a player (a foreign key to
/// `annotators`), found in the live schema, so that a table added later without
/// erasure support fails this test.
async fn columns_naming_players(store: &gapwise_store::Store) -> Vec<(String, String)> {
    let sql = match store.backend() {
        gapwise_store::Backend::Sqlite => {
            "SELECT m.name, f.\"from\" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f \
             WHERE m.type = 'table' AND f.\"table\" = 'annotators' ORDER BY 1, 2"
        }
        gapwise_store::Backend::Postgres => {
            "SELECT CAST(k.table_name AS TEXT), CAST(k.column_name AS TEXT) FROM information_schema.referential_constraints r \
             JOIN information_schema.key_column_usage k ON k.constraint_name = r.constraint_name \
             JOIN information_schema.constraint_column_usage u ON u.constraint_name = r.unique_constraint_name \
             WHERE u.table_name = 'annotators' ORDER BY 1, 2"
        }
    };
    sqlx::query_as(sql).fetch_all(store.pool()).await.expect("schema")
}

async fn rows_naming(store: &gapwise_store::Store, id: &str) -> Vec<(String, i64)> {
    let mut found = Vec::new();
    for (table, column) in columns_naming_players(store).await {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {column} = $1"))
            .bind(id)
            .fetch_one(store.pool())
            .await
            .expect("count");
        found.push((table, n));
    }
    let own: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM annotators WHERE id = $1").bind(id).fetch_one(store.pool()).await.expect("count");
    found.push(("annotators".into(), own));
    found
}

/// Pages that load data finish while other routers are built in the same process
/// (as the tests do): Leptos lists an app's pages with a process-wide switch on that
/// stalls every resource created meanwhile, so the list is made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pages_finish_while_other_routers_are_built() {
    use std::sync::atomic::{AtomicBool, Ordering};
    /// Stops the builder when the test ends, also by a panic.
    struct Stop(std::sync::Arc<AtomicBool>);
    impl Drop for Stop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    let app = spawn(gapwise_store::testing::sqlite().await).await;
    let player = started(&app).await;
    let data = common::my_data(&player, &app).await;
    let pseudonym = data["pseudonym"].as_str().expect("pseudonym").to_owned();
    let stop = Stop(std::sync::Arc::default());
    let builder = tokio::task::spawn_blocking({
        let (store, stopped) = (app.db.store.clone(), stop.0.clone());
        move || {
            let mut built = 0;
            while !stopped.load(Ordering::Relaxed) {
                let options = leptos::prelude::LeptosOptions::builder().output_name("gapwise").build();
                drop(gapwise_server::router(store.clone(), options, false).expect("router"));
                built += 1;
            }
            built
        }
    });
    for round in 0..40 {
        let page = async { player.get(format!("{}/my-data", app.base)).send().await?.text().await };
        let page = tokio::time::timeout(std::time::Duration::from_secs(10), page).await;
        let page = page.unwrap_or_else(|_| panic!("page {round} stalled")).expect("page");
        let main = page.split_once("<main").map_or("", |(_, main)| main);
        assert!(main.contains(pseudonym.as_str()), "page {round} shows the player's data: {page}");
    }
    drop(stop);
    assert!(builder.await.expect("builder") > 0, "routers were built meanwhile");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_sees_downloads_and_erases_everything_of_theirs() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let (me, other) = (started(&app).await, started(&app).await);
        for c in [&me, &other] {
            for _ in 0..3 {
                let (_, state) = call(c, &app, "play", &[("k", "5")]).await;
                let (answer_id, _) = item(&state);
                call(c, &app, "answer", &[("answer_id", answer_id.as_str()), ("choice", "0"), ("client_ms", "900")]).await;
                call(c, &app, "next", &[]).await;
            }
        }
        let (_, pseudonym) = call(&me, &app, "whoami", &[]).await;
        let id: gapwise_model::PlayerId = sqlx::query_scalar("SELECT id FROM annotators WHERE pseudonym = $1")
            .bind(pseudonym.as_str().expect("pseudonym"))
            .fetch_one(store.pool())
            .await
            .expect("id");
        assert_eq!(call(&me, &app, "suggest", &[("target", "cats"), ("distractor", "painted")]).await.0, StatusCode::OK);
        store.suggestions().approve("root", 1, "cats", "painted").await.expect("approve");
        let message = "<script>alert('hi')</script> Nice game; \"quotes\" & ёж";
        assert_eq!(call(&me, &app, "feedback", &[("message", message)]).await.0, StatusCode::OK);
        assert_eq!(call(&me, &app, "feedback", &[("message", "   ")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(call(&client(), &app, "feedback", &[("message", "hi")]).await.0, StatusCode::UNAUTHORIZED);
        let other_name = call(&other, &app, "whoami", &[]).await.1;
        let my_name = pseudonym.as_str().expect("pseudonym");
        // pseudonyms carry no look-alike letters, and are found in any case
        let other_name_text = other_name.as_str().expect("name");
        assert!(other_name_text.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()), "{other_name_text}");
        assert!(!other_name_text.contains(['i', 'l', 'o', 'u']), "{other_name_text}");
        let shouted = format!("  {}  ", other_name_text.to_uppercase());
        assert_eq!(call(&me, &app, "add-friend", &[("pseudonym", shouted.as_str())]).await.0, StatusCode::OK);
        assert_eq!(call(&other, &app, "add-friend", &[("pseudonym", my_name)]).await.0, StatusCode::OK);
        let (status, body) = call(&other, &app, "challenge", &[("pseudonym", my_name), ("k", "3")]).await;
        assert!(status.is_success() || status.is_redirection(), "{status} {body}");
        let context = store.material().find_contexts(gapwise_model::Language::En, "two", "three", 1).await.expect("context");
        let likert =
            store.rate().publish_items(gapwise_model::PairId(1), &[(context[0].sentence_id, context[0].blank)]).await.expect("likert item");
        store
            .rate()
            .record(
                &id,
                (likert[0], 2),
                gapwise_model::Timing { client_ms: Some(1500), client_ms_reported: None, server_ms: 1600 },
                gapwise_model::Trial::default(),
            )
            .await
            .expect("rating");

        // everything, on the page and as a download
        let res = me
            .get(format!("{}/api/my-data?download=true", app.base))
            .header(header::ACCEPT, "application/json")
            .send()
            .await
            .expect("download");
        assert_eq!(res.status(), StatusCode::OK);
        let disposition = res.headers().get(header::CONTENT_DISPOSITION).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        assert!(disposition.starts_with("attachment"), "{disposition}");
        let data: Value = res.json().await.expect("json");
        assert_eq!(data["pseudonym"], pseudonym);
        assert_eq!(data["answers"].as_array().map(Vec::len), Some(3), "{data}");
        assert!(data["answers"].as_array().expect("answers").iter().all(|a| a["client_ms"] == 900), "{data}");
        assert_eq!(data["ratings"][0]["rating"], 2, "{data}");
        assert_eq!((data["suggestions"].as_array().map(Vec::len), data["pairs_created"].as_i64()), (Some(1), Some(1)), "{data}");
        assert_eq!(data["feedback"][0]["message"], message);
        assert_eq!(data["consent_version"], gapwise_store::CONSENT_VERSION);
        assert_eq!((data["friends"][0].as_str(), data["challenges"].as_i64()), (other_name.as_str(), Some(1)), "{data}");
        // the data lists every table holding players' rows, with at least the rows
        // that name this player in any column
        let listed: std::collections::HashMap<&str, i64> = data["rows"]
            .as_array()
            .expect("rows per table")
            .iter()
            .map(|r| (r[0].as_str().expect("table"), r[1].as_i64().expect("count")))
            .collect();
        for (table, n) in
            rows_naming(store, id.as_str()).await.into_iter().filter(|(table, _)| table != "annotators" && table != "word_pairs")
        {
            assert!(listed.get(table.as_str()).is_some_and(|&shown| shown >= n), "{table}: {n} rows name the player; shown {listed:?}");
        }
        assert!(listed["define_picks"] == 0 && listed["answers"] == 3 && listed["friends"] == 2, "{listed:?}");
        let anonymous = client().get(format!("{}/api/my-data", app.base)).send().await.expect("anonymous");
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
        let refusal: serde_json::Value = anonymous.json().await.expect("a JSON error");
        assert_eq!(refusal["Refused"]["code"], "no_session", "{refusal}");
        let page = me.get(format!("{}/my-data", app.base)).send().await.expect("page").text().await.expect("html");
        assert!(page.contains(pseudonym.as_str().expect("pseudonym")) && page.contains("&lt;script&gt;alert"), "messages are escaped");
        assert!(!page.contains("<script>alert"), "no script from a message reaches the page");

        // erasure: a confirmation is needed; then nothing of the player is left
        assert_eq!(call(&me, &app, "erase-me", &[("confirm", "yes")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(rows_naming(store, id.as_str()).await.iter().any(|(_, n)| *n > 0), "nothing erased yet");
        let res = me.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection(), "{}", res.status());
        let cleared = res
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|c| c.starts_with("gapwise_session=;") && c.contains("Max-Age=0"));
        assert!(cleared, "the session cookie is removed");
        let left = rows_naming(store, id.as_str()).await;
        assert!(left.len() >= 15 && left.iter().all(|(_, n)| *n == 0), "rows left: {left:?}");
        for table in ["friends", "challenges", "challenge_items"] {
            assert_eq!(store.count_rows(table).await.expect(table), 0, "{table}: the friendship and challenge named the erased player");
        }
        assert_eq!(store.count_rows("word_pairs").await.expect("pairs"), 3, "the approved pair stays, without its proposer");
        assert_eq!(store.count_rows("answers").await.expect("answers"), 3, "the other player's answers stay");
        assert_eq!(call(&me, &app, "whoami", &[]).await.1, Value::Null, "signed out");
        assert_eq!(other.get(format!("{}/api/my-data", app.base)).send().await.expect("other").status(), StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn likert_rounds_store_the_papers_scale_and_retire_items_after_two_raters() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let contexts = store.material().find_contexts(gapwise_model::Language::En, "two", "three", 3).await.expect("contexts");
        let published: Vec<(i64, (usize, usize))> = contexts.iter().map(|f| (f.sentence_id, f.blank)).collect();
        let items = store.rate().publish_items(gapwise_model::PairId(1), &published).await.expect("likert items");
        let (target, distractor) = ("two", "three");

        let players = [started(&app).await, started(&app).await, started(&app).await];
        for (p, player) in players.iter().enumerate().take(2) {
            for round in 0..items.len() {
                let (status, card) = call(player, &app, "rate-round", &[("language", "en")]).await;
                assert_eq!(status, StatusCode::OK, "{card}");
                let left = card["left"].as_str().expect("left word");
                assert!([target, distractor].contains(&left) && card["right"] != card["left"], "{card}");
                assert_eq!(card["rated"].as_i64(), Some(round as i64));
                let serving = card["serving_id"].as_str().expect("serving").to_owned();
                // the same card again until it is rated
                assert_eq!(call(player, &app, "rate-round", &[("language", "en")]).await.1["serving_id"], serving.as_str());
                assert_eq!(
                    call(player, &app, "answer", &[("answer_id", serving.as_str()), ("choice", "0")]).await.0,
                    StatusCode::NOT_FOUND,
                    "not a game item"
                );
                assert_eq!(
                    call(player, &app, "rate", &[("serving_id", serving.as_str()), ("position", "6")]).await.0,
                    StatusCode::UNPROCESSABLE_ENTITY
                );
                let position = 1 + (p + round) % 5;
                let (status, body) = call(
                    player,
                    &app,
                    "rate",
                    &[("serving_id", serving.as_str()), ("position", &position.to_string()), ("client_ms", "1234")],
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{body}");
                assert_eq!(body, call(player, &app, "rate-round", &[("language", "en")]).await.1, "a rating brings the next item");
                let stored: i64 = sqlx::query_scalar("SELECT CAST(r.rating AS BIGINT) FROM rate_ratings r JOIN servings s ON s.item_id = r.item_id AND s.annotator_id = r.annotator_id WHERE s.id = $1")
                    .bind(&serving)
                    .fetch_one(store.pool())
                    .await
                    .expect("rating");
                let want = if left == target { position } else { 6 - position };
                assert_eq!(stored, want as i64, "position {position} with {left} at the left, on {:?}", app.db.backend());
            }
            assert!(call(player, &app, "rate-round", &[("language", "en")]).await.1.is_null(), "every item rated once by this player");
        }
        let (_, card) = call(&players[2], &app, "rate-round", &[("language", "en")]).await;
        assert!(card.is_null(), "two raters each: every item retired: {card}");
        let (_, card) = call(&players[2], &app, "rate-round", &[("language", "ru")]).await;
        assert!(card.is_null());
        assert_eq!(store.count_rows("rate_ratings").await.expect("ratings"), 2 * items.len() as i64);
        assert_eq!(store.count_rows("answers").await.expect("answers"), 0, "ratings are not game answers");
        assert_eq!(call(&client(), &app, "rate-round", &[]).await.0, StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn health_and_readiness_probes() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = client();
        for path in ["healthz", "readyz"] {
            let res = c.get(format!("{}/{path}", app.base)).send().await.expect("probe");
            assert_eq!(res.status(), StatusCode::OK, "{path}");
        }
        // the database goes away: the process is alive but not ready
        app.db.store.close().await;
        assert_eq!(c.get(format!("{}/healthz", app.base)).send().await.expect("probe").status(), StatusCode::OK);
        assert_eq!(c.get(format!("{}/readyz", app.base)).send().await.expect("probe").status(), StatusCode::SERVICE_UNAVAILABLE);
    }
}

/// Server-function endpoints declared in one of the app's API files.
fn endpoints_in(source: &str) -> Vec<String> {
    source.split("endpoint = \"").skip(1).filter_map(|rest| rest.split('"').next()).map(|e| format!("/api/{e}")).collect()
}

/// Every page and every server function, walked from the outside as a stranger, a
/// player, a researcher and an admin, with junk input: nothing gets a server error.
/// Admin pages and functions refuse everyone but the admin (401 for the stranger,
/// 403 for the others, or 400 when the junk does not even parse, which is refused
/// before the role check); research ones refuse the stranger and the player.
/// Well-formed staff calls are refused in the tests above.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_route_refuses_or_answers_without_a_server_error() {
    let app = spawn(each_backend().await.remove(0)).await;
    let pages: Vec<String> = leptos_axum::generate_route_list(gapwise_app::App).iter().map(|r| r.path().to_owned()).collect();
    let mut functions: Vec<(&str, reqwest::Method)> = leptos::server_fn::axum::server_fn_paths().collect();
    // a fixed order, with the calls that end a walker's session last
    let ends_session = |path: &str| ["/api/staff-logout", "/api/logout", "/api/erase-me"].contains(&path);
    functions.sort_by_key(|&(path, _)| (ends_session(path), path));
    assert!(pages.len() >= 10 && functions.len() >= 25, "{} pages, {} functions", pages.len(), functions.len());
    let admin_only = endpoints_in(include_str!("../../../app/src/api/admin.rs"));
    assert!(admin_only.len() >= 7, "{admin_only:?}");
    let (admin, researcher) = staff_clients(&app).await;
    let player = started(&app).await;
    let (unauthorized, forbidden, ok) = (Some(StatusCode::UNAUTHORIZED), Some(StatusCode::FORBIDDEN), None);
    // who, client, refusal of admin routes, refusal of research routes (None: served)
    let walkers = [
        ("stranger", client(), unauthorized, unauthorized),
        ("player", player, forbidden, forbidden),
        ("researcher", researcher, forbidden, ok),
        ("admin", admin, ok, ok),
    ];
    let mut reached_role_check = 0;
    for (who, c, admin_refusal, research_refusal) in &walkers {
        let refusal_of = |path: &str| {
            if path.starts_with("/admin") || admin_only.iter().any(|a| a == path) {
                Some(*admin_refusal)
            } else if path == "/research" || path == "/api/research-report" {
                Some(*research_refusal)
            } else {
                None
            }
        };
        for page in &pages {
            let status = c.get(format!("{}{page}", app.base)).send().await.expect("page").status();
            assert!(!status.is_server_error(), "{who}: GET {page} {status}");
            match refusal_of(page) {
                Some(Some(refusal)) => assert_eq!(status, refusal, "{who}: GET {page}"),
                // served: /admin/items without ?pair= is a 404 of its own
                Some(None) => assert!(![StatusCode::UNAUTHORIZED, StatusCode::FORBIDDEN].contains(&status), "{who}: GET {page} {status}"),
                None => {}
            }
        }
        for (path, method) in &functions {
            let junk = [("k", "nine"), ("choice", "-1"), ("answer_id", "no-such"), ("position", "x"), ("language", "xx")];
            let request = c.request(method.clone(), format!("{}{path}", app.base)).header(header::ACCEPT, "application/json");
            let request = if *method == reqwest::Method::GET { request.query(&junk) } else { request.form(&junk) };
            let res = request.send().await.expect("server function");
            let status = res.status();
            let body = res.text().await.unwrap_or_default();
            assert!(!status.is_server_error(), "{who}: {method} {path} {status} {body}");
            if let Some(Some(refusal)) = refusal_of(path) {
                assert!(status == refusal || status == StatusCode::BAD_REQUEST, "{who}: {method} {path} {status} {body}");
                reached_role_check += usize::from(status == refusal);
            }
        }
    }
    // those whose junk still parses (no arguments, or optional ones) reach the role check
    assert!(reached_role_check >= 8, "{reached_role_check}");
}

/// Guessing passwords and flooding the moderation queue hit a limit per address:
/// 429 with Retry-After and a readable error, while other requests go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_in_attempts_and_proposals_are_rate_limited() {
    let app = spawn(each_backend().await.remove(0)).await;
    let guesser = client();
    let mut statuses = Vec::new();
    for i in 0..20 {
        let res = guesser
            .post(format!("{}/api/login", app.base))
            .header(header::ACCEPT, "application/json")
            .form(&[("pseudonym", "nobody"), ("password", &format!("guess-{i}"))])
            .send()
            .await
            .expect("login");
        statuses.push(res.status());
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            assert!(res.headers().contains_key(header::RETRY_AFTER));
            let body: Value = res.json().await.expect("an app error");
            assert_eq!(body["Refused"]["code"], "too_many_requests", "{body}");
            assert!(body["Refused"]["message"].as_str().is_some_and(|m| m.contains("too many requests")), "{body}");
        }
    }
    // a burst of 10; a slow password check may let one more refill in (one every 6 s),
    // but the refused ones come back at once, so the last are all refused
    assert!(statuses[..10].iter().all(|s| *s == StatusCode::UNAUTHORIZED), "{statuses:?}");
    assert!(statuses[15..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    let player = started(&app).await;
    assert_eq!(call(&player, &app, "progress", &[]).await.0, StatusCode::OK, "other routes go on");
    let mut proposals = Vec::new();
    for i in 0..26 {
        let word = format!("w{i}");
        proposals.push(call(&player, &app, "suggest", &[("target", word.as_str()), ("distractor", "three")]).await.0);
    }
    assert!(proposals[..20].iter().all(|s| *s != StatusCode::TOO_MANY_REQUESTS), "{proposals:?}");
    assert!(proposals[22..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{proposals:?}");
}

/// My data names every table of players' data in the player's language, offers its
/// feedback and erasure forms only with a session, and signing out says so; a
/// sign-in refused for its password comes back with the pseudonym still typed.
#[tokio::test]
async fn my_data_speaks_every_language_and_signing_in_and_out_say_what_happened() {
    let app = spawn(gapwise_store::testing::sqlite().await).await;
    let main = |page: String| page.split_once("<main").map_or(String::new(), |(_, main)| main.to_owned());
    let stranger = client();
    let page = main(stranger.get(format!("{}/my-data", app.base)).send().await.expect("page").text().await.expect("html"));
    for form in ["feedback-form", "erase-form"] {
        assert!(!page.contains(form), "someone with no session is offered the {form}: {page}");
    }
    let player = started(&app).await;
    let data = common::my_data(&player, &app).await;
    let tables: Vec<String> = data["rows"].as_array().expect("rows").iter().filter_map(|r| r[0].as_str().map(str::to_owned)).collect();
    assert!(tables.len() >= 10, "{tables:?}");
    for (code, _) in gapwise_model::LANGUAGES {
        let switched = player.get(format!("{}/language?to={code}", app.base)).send().await.expect("switch");
        assert!(switched.status().is_redirection(), "{code}: {}", switched.status());
        let page = main(player.get(format!("{}/my-data", app.base)).send().await.expect("page").text().await.expect("html"));
        assert!(page.contains("feedback-form") && page.contains("erase-form"), "{code}: {page}");
        for table in &tables {
            let label = gapwise_app::i18n::I18n(code).table(table);
            assert!(!label.contains("Unknown") && label != *table, "{code}: no message for table {table}: {label}");
            assert!(page.contains(&format!("data-table=\"{table}\">{label}")), "{code}: {table} as {label}: {page}");
        }
    }
    let _ = player.get(format!("{}/language?to=en", app.base)).send().await.expect("switch");

    // signing out says so on the page it lands on
    let (status, location) = html_post(&player, &app, "logout", &[], "/account").await;
    assert_eq!(status, StatusCode::FOUND);
    assert_eq!(location, "/?done=signed-out");
    let home = main(player.get(format!("{}{location}", app.base)).send().await.expect("home").text().await.expect("html"));
    assert!(home.contains("You are signed out on this device."), "{home}");

    // a wrong password keeps the pseudonym in the form
    let pseudonym = data["pseudonym"].as_str().expect("pseudonym");
    let (status, location) = html_post(&player, &app, "login", &[("pseudonym", pseudonym), ("password", "not the one")], "/account").await;
    assert_eq!(status, StatusCode::FOUND);
    assert!(location.contains("__err=") && location.contains(&format!("pseudonym={pseudonym}")), "{location}");
    let account = main(player.get(format!("{}{location}", app.base)).send().await.expect("account").text().await.expect("html"));
    assert!(account.contains(&format!("value=\"{pseudonym}\"")), "{account}");
    assert!(account.contains("class=\"error\""), "the refusal is shown: {account}");
}

/// A plain form post of server function `endpoint` from page `from` (as a browser
/// without JavaScript sends it): the status and the `Location` it is sent to.
async fn html_post(c: &Client, app: &common::App, endpoint: &str, form: &[(&str, &str)], from: &str) -> (StatusCode, String) {
    let res = c
        .post(format!("{}/api/{endpoint}", app.base))
        .header(header::ACCEPT, "text/html")
        .header(header::REFERER, format!("{}{from}", app.base))
        .form(form)
        .send()
        .await
        .expect("post");
    let location = res.headers().get(header::LOCATION).and_then(|l| l.to_str().ok()).unwrap_or_default().to_owned();
    (res.status(), location)
}
