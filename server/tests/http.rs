//! The game over HTTP, as a browser or a script meets it, on SQLite and PostgreSQL:
//! consent and the session cookie, idempotent answers, refusals with clear 4xx
//! statuses, the CSRF guard and the body limit; a player's pair suggestion through
//! moderation to being played, with the admin's rights checked from the outside.

use gapwise_store::testing::{each_backend, seed_small, TestStore};
use gapwise_store::Role;
use leptos::prelude::LeptosOptions;
use reqwest::{header, Client, StatusCode};
use serde_json::Value;

struct App {
    base: String,
    db: TestStore,
}

async fn spawn(db: TestStore) -> App {
    seed_small(&db.store).await;
    let options = LeptosOptions::builder().output_name("gapwise").build();
    let app = gapwise_server::router(db.store.clone(), options, false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(gapwise_server::serve(listener, app));
    App { base, db }
}

fn client() -> Client {
    Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// Calls a server function the way the hydrated page does (form body, JSON back).
async fn call(c: &Client, app: &App, endpoint: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let res = c
        .post(format!("{}/api/{endpoint}", app.base))
        .header(header::ACCEPT, "application/json")
        .form(form)
        .send()
        .await
        .expect("request");
    let status = res.status();
    let text = res.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

async fn started(app: &App) -> Client {
    let c = client();
    let (status, _) = call(&c, app, "start", &[("consent", "yes")]).await;
    assert!(status.is_success() || status.is_redirection(), "start: {status}");
    c
}

fn item(state: &Value) -> (String, Vec<String>) {
    let card = &state["Item"]["card"];
    let id = card["answer_id"].as_str().unwrap_or_else(|| panic!("no item in {state}")).to_owned();
    let options = card["options"].as_array().expect("options").iter().map(|o| o.as_str().expect("word").to_owned()).collect();
    (id, options)
}

#[tokio::test]
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
    }
}

#[tokio::test]
async fn play_answer_and_retry_over_http() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = started(&app).await;
        let (status, state) = call(&c, &app, "play", &[("k", "3")]).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        let (id, options) = item(&state);
        assert_eq!(state["Item"]["card"]["contexts"].as_array().expect("contexts").len(), 3);

        let form = [("answer_id", id.as_str()), ("choice", "1"), ("client_ms", "1530.4")];
        let (status, first) = call(&c, &app, "answer", &form).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["chosen"], options[1].as_str());
        let (status, again) = call(&c, &app, "answer", &form).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(first, again);
        assert_eq!(app.db.store.count_rows("answers").await.expect("count"), 1, "{:?}", app.db.backend());
        let ms: Option<i64> = sqlx::query_scalar("SELECT client_ms FROM answers")
            .fetch_one(app.db.store.pool())
            .await
            .expect("row");
        assert_eq!(ms, Some(1530));
    }
}

#[tokio::test]
async fn bad_requests_get_clear_4xx_answers() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let anonymous = client();
        let (status, body) = call(&anonymous, &app, "play", &[("k", "5")]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

        let c = started(&app).await;
        let (status, body) = call(&c, &app, "play", &[("k", "4")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body.to_string().contains("k must be 1, 3 or 5"), "{body}");

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
        let (_, state) = call(&other, &app, "play", &[("k", "1")]).await;
        let (theirs, _) = item(&state);
        let (status, _) = call(&c, &app, "answer", &[("answer_id", theirs.as_str()), ("choice", "0")]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let (_, state) = call(&c, &app, "play", &[("k", "1")]).await;
        let (mine, _) = item(&state);
        let (status, body) =
            call(&c, &app, "answer", &[("answer_id", mine.as_str()), ("choice", "0"), ("client_ms", "soon")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        let (status, body) = call(&c, &app, "answer", &[("answer_id", mine.as_str()), ("choice", "7")]).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(app.db.store.count_rows("answers").await.expect("count"), 0);
    }
}

#[tokio::test]
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
    let res = c
        .post(format!("{}/api/answer", app.base))
        .form(&[("answer_id", huge.as_str()), ("choice", "0")])
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn pages_carry_security_headers_and_unknown_pages_404() {
    let app = spawn(each_backend().await.remove(0)).await;
    let res = client().get(format!("{}/", app.base)).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert!(res.headers()["content-security-policy"].to_str().expect("ascii").contains("frame-ancestors 'none'"));
    let body = res.text().await.expect("body");
    assert!(body.contains("name=\"consent\""), "the consent form is server-rendered");
    let res = client().get(format!("{}/no/such/page", app.base)).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}

/// Without JavaScript: plain form posts, redirects back, and the server time.
#[tokio::test]
async fn the_game_plays_without_javascript() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let c = started(&app).await;
        let play = format!("{}/play?k=1", app.base);
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
    app.db.store.create_staff("root", Role::Admin, "admin passphrase").await.expect("admin");
    app.db.store.create_staff("ada", Role::Researcher, "researcher passphrase").await.expect("researcher");
    (staff_client(app, "root", "admin passphrase").await, staff_client(app, "ada", "researcher passphrase").await)
}

/// A client signed in on the staff sign-in page.
async fn staff_client(app: &App, name: &str, password: &str) -> Client {
    let c = client();
    let (status, body) = call(&c, app, "staff-login", &[("name", name), ("password", password)]).await;
    assert!(status.is_success(), "{name} signs in: {status} {body}");
    c
}

#[tokio::test]
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
        for (who, c, want) in [("anonymous", client(), 401), ("player", player.clone(), 403), ("researcher", researcher.clone(), 403), ("admin", admin.clone(), 200)] {
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

        // languages: an unknown one is refused, one without items says so
        assert_eq!(call(&player, &app, "play", &[("k", "1"), ("language", "de")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let (status, state) = call(&player, &app, "play", &[("k", "1"), ("language", "ru")]).await;
        assert!(status == StatusCode::OK && state.get("Exhausted").is_some(), "{state}");

        // another player meets the new pair
        let other = started(&app).await;
        let mut seen = false;
        for _ in 0..store.count_rows("items").await.expect("items") {
            let (_, state) = call(&other, &app, "play", &[("k", "1")]).await;
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

#[tokio::test]
async fn admins_import_small_files_from_the_admin_page() {
    for db in each_backend().await {
        let app = spawn(db).await;
        let store = &app.db.store;
        let (admin, researcher) = staff_clients(&app).await;
        let good = "lang\ttext\tsource\tgenre\nfr\tLe chat dort sur le canapé.\tupload\tfiction\nes\tEl perro duerme en casa.\tupload\tfiction\n";
        assert_eq!(upload(&client(), &app, "sentences", "s.tsv", good).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(upload(&started(&app).await, &app, "sentences", "s.tsv", good).await.status(), StatusCode::FORBIDDEN);
        assert_eq!(upload(&researcher, &app, "sentences", "s.tsv", good).await.status(), StatusCode::FORBIDDEN);

        let before = store.count_rows("sentences").await.expect("count");
        let res = upload(&admin, &app, "sentences", "s.tsv", good).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let location = res.headers()[header::LOCATION].to_str().expect("location").to_owned();
        assert!(location.starts_with("/admin?notice=s.tsv%3A+2+sentences+imported"), "{location}");
        assert_eq!(store.count_rows("sentences").await.expect("count"), before + 2);
        assert_eq!(store.audit_log(1).await.expect("audit")[0].action, "import sentences");

        let bad = "lang\ttext\tsource\tgenre\nfr\tUne phrase correcte ici.\tupload\tfiction\nxx\tUnknown.\tupload\tfiction\n";
        let res = upload(&admin, &app, "sentences", "bad.tsv", bad).await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let location = res.headers()[header::LOCATION].to_str().expect("location").to_owned();
        assert!(location.contains("was+not+imported") && location.contains("line+3"), "{location}");
        assert_eq!(store.count_rows("sentences").await.expect("count"), before + 2, "nothing of a bad file");
        assert_eq!(upload(&admin, &app, "sentences", "s.csv", good).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(upload(&admin, &app, "rows", "s.tsv", good).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let page = admin.get(format!("{}{location}", app.base)).send().await.expect("page").text().await.expect("html");
        assert!(page.contains("bad.tsv was not imported"), "the page shows the notice");
    }
}
