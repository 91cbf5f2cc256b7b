//! Sessions and accounts from the outside (OWASP ASVS level 1), on SQLite and
//! PostgreSQL: sessions end on the server whatever their cookies say (a row made
//! older in the database is refused), API tokens expire and are revoked at once,
//! a removed staff account's sessions and tokens stop working, common and short
//! passwords are refused (also by `gapwise add-staff`), changing a password needs
//! the current one and signs the other devices out, and new players and feedback
//! are limited per address.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::{call, cli, cli_with, client, staff_client, started};
use gapwise_store::testing::{each_backend, seed_small, TestStore};
use gapwise_store::{Role, Store};
use reqwest::{header, Client, StatusCode};
use serde_json::Value;
use sha2::Digest;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// A staff password every rule takes.
const STAFF_PASSWORD: &str = "a passphrase for the accounts test";

/// The app served on a seeded `db`, with a researcher "ada" and an admin "root".
async fn spawn(db: &TestStore) -> common::App {
    seed_small(&db.store).await;
    db.store.staff().create("ada", Role::Researcher, STAFF_PASSWORD).await.expect("researcher");
    db.store.staff().create("root", Role::Admin, STAFF_PASSWORD).await.expect("admin");
    common::serve(&db.store).await
}

/// The status of `GET path` for client `c`, with `bearer` as its API token if given.
async fn status_of(c: &Client, app: &common::App, path: &str, bearer: Option<&str>) -> StatusCode {
    let mut request = c.get(format!("{}{path}", app.base));
    if let Some(token) = bearer {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    request.send().await.expect("request").status()
}

/// Makes every row of `table` older by `ms` in `columns`, as time passing would.
async fn age(store: &Store, table: &str, columns: &[&str], ms: i64) {
    let set: Vec<String> = columns.iter().map(|c| format!("{c} = {c} - $1")).collect();
    sqlx::query(&format!("UPDATE {table} SET {}", set.join(", "))).bind(ms).execute(store.pool()).await.expect("age rows");
}

/// The pseudonym the player signed in on `c` plays as, if any.
async fn whoami(c: &Client, app: &common::App) -> Value {
    let (status, me) = call(c, app, "whoami", &[]).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    me
}

/// A staff session made 30 days older no longer opens the admin page or the export,
/// nor does one idle for 3 hours or one signed in 13 hours ago; a session in use
/// stays open, and the clean-up removes the ended ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn staff_sessions_end_on_the_server_when_idle_or_old() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let store = &db.store;
        let admin = staff_client(&app, "root", STAFF_PASSWORD).await;
        assert_eq!(status_of(&admin, &app, "/admin", None).await, StatusCode::OK);
        assert_eq!(status_of(&admin, &app, "/api/export/csv", None).await, StatusCode::OK);
        age(store, "staff_sessions", &["created_at", "last_seen_at"], 30 * DAY_MS).await;
        assert_eq!(status_of(&admin, &app, "/admin", None).await, StatusCode::UNAUTHORIZED, "30 days old, on {:?}", db.backend());
        assert_eq!(status_of(&admin, &app, "/api/export/csv", None).await, StatusCode::UNAUTHORIZED);
        let (status, _) = call(&admin, &app, "admin-overview", &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "the admin's server functions too");

        // idle for 3 hours: ended; idle for 1 hour: a request keeps it going
        let idle = staff_client(&app, "root", STAFF_PASSWORD).await;
        age(store, "staff_sessions", &["created_at", "last_seen_at"], 3 * HOUR_MS).await;
        assert_eq!(status_of(&idle, &app, "/admin", None).await, StatusCode::UNAUTHORIZED, "idle for 3 hours");
        let busy = staff_client(&app, "root", STAFF_PASSWORD).await;
        age(store, "staff_sessions", &["created_at", "last_seen_at"], HOUR_MS).await;
        assert_eq!(status_of(&busy, &app, "/admin", None).await, StatusCode::OK, "idle for an hour");
        let seen: i64 =
            sqlx::query_scalar("SELECT MAX(last_seen_at) FROM staff_sessions").fetch_one(store.pool()).await.expect("last seen");
        assert!(seen > gapwise_store::now_ms() - 60_000, "the request was seen");
        // in use all along, but signed in 13 hours ago: ended
        age(store, "staff_sessions", &["created_at"], 13 * HOUR_MS).await;
        assert_eq!(status_of(&busy, &app, "/research", None).await, StatusCode::UNAUTHORIZED, "13 hours after sign-in");

        let live = staff_client(&app, "ada", STAFF_PASSWORD).await;
        let ended = store.end_expired().await.expect("clean up");
        assert_eq!(ended.staff_sessions, 3, "{ended:?}");
        assert_eq!(store.count_rows("staff_sessions").await.expect("count"), 1);
        assert_eq!(status_of(&live, &app, "/research", None).await, StatusCode::OK, "the live session is kept");
    }
}

/// A player session ends a year after it was opened, as its cookie: one 364 days
/// old still plays, one 366 days old is signed out and is cleaned up.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn player_sessions_end_a_year_after_they_were_opened() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let store = &db.store;
        let player = started(&app).await;
        assert!(whoami(&player, &app).await.is_string());
        age(store, "sessions", &["created_at"], 364 * DAY_MS).await;
        assert!(whoami(&player, &app).await.is_string(), "364 days old, on {:?}", db.backend());
        age(store, "sessions", &["created_at"], 2 * DAY_MS).await;
        assert_eq!(whoami(&player, &app).await, Value::Null, "366 days old");
        let (status, body) = call(&player, &app, "play", &[("k", "5")]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert_eq!(body["Refused"]["code"], "no_session", "{body}");
        let other = started(&app).await;
        assert_eq!(store.end_expired().await.expect("clean up").player_sessions, 1);
        assert_eq!(store.count_rows("sessions").await.expect("count"), 1);
        assert!(whoami(&other, &app).await.is_string(), "a new session is kept");
    }
}

/// The API token printed by `gapwise` in `said`.
fn token_in(said: &str) -> String {
    let is_token = |line: &&str| line.len() == 43 && line.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    said.lines().map(str::trim).find(is_token).unwrap_or_else(|| panic!("no token in {said}")).to_owned()
}

/// The id `gapwise token --list` shows for `token`: the start of its SHA-256.
fn token_id(token: &str) -> String {
    format!("{:x}", sha2::Sha256::digest(token.as_bytes()))[..gapwise_store::TOKEN_ID_CHARS].to_owned()
}

/// How long the token hashing to `token`'s hash was made to last, in days.
async fn lifetime_days(store: &Store, token: &str) -> i64 {
    let hash = format!("{:x}", sha2::Sha256::digest(token.as_bytes()));
    let ms: i64 = sqlx::query_scalar("SELECT expires_at - created_at FROM api_tokens WHERE token_hash = $1")
        .bind(hash)
        .fetch_one(store.pool())
        .await
        .expect("token row");
    ms / DAY_MS
}

/// `gapwise token` makes tokens that expire (90 days by default, `--expires DAYS`),
/// lists them without their secret, and revokes one by its id: a revoked or expired
/// token gets 401 at once. `gapwise remove-staff` ends the account's sessions and
/// tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn api_tokens_expire_and_are_revoked_and_staff_are_removed_from_the_command_line() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let (store, url) = (&db.store, db.url.as_str());
        let anyone = client();
        let (ok, said) = cli(url, &["token", "ada", "--label", "nightly export"]);
        assert!(ok, "{said}");
        let nightly = token_in(&said);
        assert_eq!(lifetime_days(store, &nightly).await, i64::from(gapwise_store::DEFAULT_TOKEN_DAYS));
        assert_eq!(status_of(&anyone, &app, "/api/export/card", Some(nightly.as_str())).await, StatusCode::OK);

        let (ok, listed) = cli(url, &["token", "--list"]);
        assert!(ok, "{listed}");
        assert!(listed.lines().any(|l| l.starts_with(&format!("{}\tada\tnightly export\t", token_id(&nightly)))), "{listed}");
        assert!(!listed.contains(&nightly), "the list never shows a token: {listed}");
        let (ok, said) = cli(url, &["token", "--revoke", &token_id(&nightly)]);
        assert!(ok, "{said}");
        assert_eq!(status_of(&anyone, &app, "/api/export/card", Some(nightly.as_str())).await, StatusCode::UNAUTHORIZED, "revoked");
        assert!(!cli(url, &["token", "--revoke", &token_id(&nightly)]).0, "revoked once");

        let (ok, said) = cli(url, &["token", "ada", "--expires", "1"]);
        assert!(ok, "{said}");
        let daily = token_in(&said);
        assert_eq!(lifetime_days(store, &daily).await, 1);
        assert_eq!(status_of(&anyone, &app, "/api/export/card", Some(daily.as_str())).await, StatusCode::OK);
        age(store, "api_tokens", &["created_at", "expires_at"], 2 * DAY_MS).await;
        assert_eq!(status_of(&anyone, &app, "/api/export/card", Some(daily.as_str())).await, StatusCode::UNAUTHORIZED, "expired");
        for days in ["0", "3651", "soon"] {
            let (ok, said) = cli(url, &["token", "ada", "--expires", days]);
            assert!(!ok, "--expires {days}: {said}");
        }

        // removing the account ends its tokens and sessions at once
        let (ok, said) = cli(url, &["token", "ada"]);
        assert!(ok, "{said}");
        let kept = token_in(&said);
        let signed_in = staff_client(&app, "ada", STAFF_PASSWORD).await;
        assert_eq!(status_of(&signed_in, &app, "/research", None).await, StatusCode::OK);
        let (ok, said) = cli(url, &["remove-staff", "ada"]);
        assert!(ok, "{said}");
        assert_eq!(status_of(&anyone, &app, "/api/export/card", Some(kept.as_str())).await, StatusCode::UNAUTHORIZED);
        assert_eq!(status_of(&signed_in, &app, "/research", None).await, StatusCode::UNAUTHORIZED);
        for table in ["api_tokens", "staff_sessions"] {
            let left: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE staff_name = 'ada'"))
                .fetch_one(store.pool())
                .await
                .expect("count");
            assert_eq!(left, 0, "{table} on {:?}", db.backend());
        }
        let (ok, said) = cli(url, &["remove-staff", "ada"]);
        assert!(!ok && said.contains("no staff account"), "{said}");
        let (status, _) = call(&client(), &app, "staff-login", &[("name", "ada"), ("password", STAFF_PASSWORD)]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "a removed account cannot sign in");
    }
}

/// `gapwise add-staff` refuses short, common and blank passwords; a player's
/// password is refused when common or blank, the account page says what makes a
/// good one, and changing it needs the current one and signs the other devices out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn common_passwords_are_refused_and_a_change_needs_the_current_one() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let url = db.url.as_str();
        for weak in ["password", "12345678", "            ", "passwordpassword", "ravel-oak-9"] {
            let (ok, said) = cli_with(url, &["add-staff", "eve", "--role", "admin"], &[("GAPWISE_PASSWORD", weak)]);
            assert!(!ok && said.contains("password"), "{weak:?}: {said}");
        }
        let (ok, said) = cli_with(url, &["add-staff", "eve", "--role", "admin"], &[("GAPWISE_PASSWORD", STAFF_PASSWORD)]);
        assert!(ok, "{said}");
        assert_eq!(db.store.count_rows("staff").await.expect("count"), 3, "eve joined ada and root");

        let player = started(&app).await;
        let account = player.get(format!("{}/account", app.base)).send().await.expect("page").text().await.expect("html");
        assert!(account.contains("name=\"current\"") && account.contains("A few unrelated words make a strong password"), "{account}");
        for weak in ["password", "12345678", "        "] {
            let (status, body) = call(&player, &app, "set-password", &[("password", weak)]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{weak:?}: {body}");
            assert_eq!(body["Refused"]["code"], "password_weak", "{weak:?}: {body}");
        }
        let first = "correct horse battery staple";
        assert_eq!(call(&player, &app, "set-password", &[("password", first)]).await.0, StatusCode::OK);
        let pseudonym = whoami(&player, &app).await.as_str().expect("pseudonym").to_owned();
        let elsewhere = client();
        let (status, body) = call(&elsewhere, &app, "login", &[("pseudonym", pseudonym.as_str()), ("password", first)]).await;
        assert!(status.is_success() || status.is_redirection(), "{status} {body}");
        assert_eq!(whoami(&elsewhere, &app).await, pseudonym.as_str());

        let second = "violet kettle under the stairs";
        for current in [None, Some("not the password")] {
            let mut form = vec![("password", second)];
            form.extend(current.map(|c| ("current", c)));
            let (status, body) = call(&player, &app, "set-password", &form).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{current:?}: {body}");
            assert_eq!(body["Refused"]["code"], "password_current", "{current:?}: {body}");
        }
        assert_eq!(call(&player, &app, "set-password", &[("password", second), ("current", first)]).await.0, StatusCode::OK);
        assert_eq!(whoami(&elsewhere, &app).await, Value::Null, "the other device is signed out, on {:?}", db.backend());
        assert_eq!(whoami(&player, &app).await, pseudonym.as_str(), "this one goes on");
        let (status, body) = call(&client(), &app, "login", &[("pseudonym", pseudonym.as_str()), ("password", second)]).await;
        assert!(status.is_success() || status.is_redirection(), "the new password signs in: {status} {body}");
    }
}

/// A 429 of the rate limits: its Retry-After and its refusal, in the words asked for.
async fn assert_too_many(res: reqwest::Response, words: &str) {
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = res.headers()[header::RETRY_AFTER].to_str().expect("ascii").parse().expect("seconds");
    assert!(wait >= 1, "{wait}");
    let body: Value = res.json().await.expect("an app error");
    assert_eq!(body["Refused"]["code"], "too_many_requests", "{body}");
    assert_eq!(body["Refused"]["status"], 429, "{body}");
    assert!(body["Refused"]["message"].as_str().is_some_and(|m| m.contains(words)), "{body}");
}

/// Feedback and new players from one address are limited as sign-in is: 429 with
/// Retry-After and a refusal that says what happened, in the visitor's language.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn new_players_and_feedback_are_rate_limited_per_address() {
    let db = each_backend().await.remove(0);
    let app = spawn(&db).await;
    let player = started(&app).await;
    let mut feedback = Vec::new();
    for i in 0..15 {
        feedback.push(call(&player, &app, "feedback", &[("message", format!("note {i}").as_str())]).await.0);
    }
    // a burst of 10, then one every 6 s
    assert!(feedback[..10].iter().all(|s| *s == StatusCode::OK), "{feedback:?}");
    assert!(feedback[12..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{feedback:?}");
    let one_more = player
        .post(format!("{}/api/feedback", app.base))
        .header(header::ACCEPT, "application/json")
        .form(&[("message", "one more")])
        .send()
        .await
        .expect("feedback");
    assert_too_many(one_more, "too many requests").await;

    // new players: a burst of 60 (one went above), then one a second
    let mut starts = Vec::new();
    for _ in 0..75 {
        starts.push(call(&client(), &app, "start", &[("consent", "yes")]).await.0);
    }
    assert!(starts[..55].iter().all(|s| s.is_success() || s.is_redirection()), "{starts:?}");
    assert!(starts[70..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{starts:?}");
    let annotators = db.store.count_rows("annotators").await.expect("count");
    assert!(annotators < 70, "{annotators} players made");
    let french = client()
        .post(format!("{}/api/start", app.base))
        .header(header::ACCEPT, "application/json")
        .header(header::ACCEPT_LANGUAGE, "fr-FR,fr;q=0.9")
        .form(&[("consent", "yes")])
        .send()
        .await
        .expect("start");
    assert_too_many(french, "trop de requêtes").await;
    assert_eq!(call(&player, &app, "progress", &[]).await.0, StatusCode::OK, "other routes go on");
}
