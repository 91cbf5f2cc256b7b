//! The edge against an attacker, from the outside (OWASP ASVS level 1): a crowd
//! participant's id alone resumes nothing; redirects stay on the site; a page shows
//! only the server's own messages, whatever its address carries; a NUL character is
//! refused in any body; a locked database answers 503 with Retry-After and is not
//! ready; admin inputs are bounded; private answers are not stored by caches, and
//! behind TLS cookies are `__Host-` and HSTS is sent; two `Host` headers are refused.
//! And the command line: no command writes to a file that is not a Gapwise database,
//! a file that cannot be written or read is named at once with the reason, an export
//! that fails leaves nothing partial, and a SQLite URL names the file as typed.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, call, client, sha256, side_files, staff_client, started, uid};
use gapwise_engine::testing::play;
use gapwise_engine::Engine;
use gapwise_model::{ItemPolicy, Language, Platform, StudySettings, K};
use gapwise_store::testing::{each_backend, seed_small, sqlite, TestStore};
use gapwise_store::{Role, Store};
use reqwest::{header, Client, StatusCode};
use serde_json::Value;

/// The app served on `db`, seeded with the small test data.
async fn spawn(db: &TestStore) -> common::App {
    seed_small(&db.store).await;
    common::serve(&db.store).await
}

/// `c` enters crowd study `study` as `participant`, with the platform's session id
/// `session`, consenting.
async fn enter(c: &Client, app: &common::App, study: &str, participant: &str, session: &str) -> (StatusCode, Value) {
    call(c, app, "crowd-start", &[("study", study), ("participant", participant), ("platform_session", session), ("consent", "yes")]).await
}

/// Whom `c` plays as: their pseudonym, or null without a session.
async fn whoami(c: &Client, app: &common::App) -> Value {
    call(c, app, "whoami", &[]).await.1
}

/// Item 1: a second browser with the same participant id gets no session of the
/// first participant; the platform's session id of the first entry, or the first
/// browser's own cookie, resume it; a completed assignment's re-entry gets its code
/// and no session.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crowd_participant_id_alone_resumes_nothing() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let store = &db.store;
        let settings = StudySettings {
            platform: Platform::Prolific,
            name: "Pilot".into(),
            k: K::FIVE,
            language: Language::En,
            items_target: 3,
            max_minutes: 60,
            completion_code: "C0DE42".into(),
            policy: ItemPolicy::default(),
        };
        let study = store.crowd().create_study("root", &settings).await.expect("study").to_string();

        let first = client();
        let (status, body) = enter(&first, &app, &study, "P1", "S1").await;
        assert!(status.is_success() || status.is_redirection(), "{status} {body}");
        let me = whoami(&first, &app).await;
        assert!(me.is_string(), "{me}");

        // an attacker who knows (or guesses) the participant id
        let attacker = client();
        let (status, body) = enter(&attacker, &app, &study, "P1", "S-guessed").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["Refused"]["code"], "study_elsewhere", "{body}");
        assert_eq!(whoami(&attacker, &app).await, Value::Null, "no session of the participant's");
        assert_eq!(store.count_rows("crowd_assignments").await.expect("assignments"), 1);

        // the browser that began it resumes it, whatever the link says now; so does the
        // platform's session id of the first entry
        let (status, body) = enter(&first, &app, &study, "P1", "S-other").await;
        assert!(status.is_success() || status.is_redirection(), "{status} {body}");
        assert_eq!(whoami(&first, &app).await, me);
        let relinked = client();
        let (status, body) = enter(&relinked, &app, &study, "P1", "S1").await;
        assert!(status.is_success() || status.is_redirection(), "{status} {body}");
        assert_eq!(whoami(&relinked, &app).await, me);

        // completed: its code again, and no session for anyone
        sqlx::query("UPDATE crowd_assignments SET status = 'completed' WHERE participant_id = 'P1'")
            .execute(store.pool())
            .await
            .expect("complete");
        let late = client();
        let res = late
            .post(format!("{}/api/crowd-start", app.base))
            .header(header::ACCEPT, "application/json")
            .form(&[("study", study.as_str()), ("participant", "P1"), ("platform_session", "S1"), ("consent", "yes")])
            .send()
            .await
            .expect("re-entry");
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers().get(header::SET_COOKIE).is_none(), "no session for a completed assignment");
        assert_eq!(res.json::<Value>().await.expect("json"), "C0DE42");
        assert_eq!(whoami(&late, &app).await, Value::Null);
        let (status, body) = enter(&attacker, &app, &study, "P1", "S-guessed").await;
        assert_eq!((status, &body["Refused"]["code"]), (StatusCode::UNPROCESSABLE_ENTITY, &"study_elsewhere".into()), "{body}");
    }
}

/// Item 2: the language switcher sends the browser back only to a path on this site,
/// whatever encoding `back` comes in; anything else goes home.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redirects_stay_on_this_site() {
    let db = sqlite().await;
    let app = spawn(&db).await;
    for (back, to) in [
        ("/%09/evil.example", "/"),
        ("%2F%2Fevil.example", "/"),
        ("/%5Cevil.example", "/"),
        ("/%252F%252Fevil.example", "/"),
        ("%2F%0D%0ALocation:%20http://evil.example", "/"),
        ("https://evil.example/", "/"),
        ("/%2Fevil.example", "/"),
        ("%2Fmy-data%3Fdone%3Dsent", "/my-data?done=sent"),
    ] {
        let res = client().get(format!("{}/language?to=fr&back={back}", app.base)).send().await.expect("switch");
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{back}");
        assert_eq!(res.headers().get(header::LOCATION).and_then(|l| l.to_str().ok()), Some(to), "{back}");
    }
}

/// Item 3: an error in a page's address (`__err`) and an admin notice (`?notice=`)
/// show only what the server itself says, by code: no words of the link's.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pages_show_only_the_servers_own_messages() {
    use gapwise_app::AppError;
    use leptos::server_fn::error::ServerFnUrlError;

    let db = sqlite().await;
    let app = spawn(&db).await;
    let forged = [
        (AppError::BadRequest("Attacker words: call +1 555".into()), "the request was refused"),
        (
            AppError::Refused { code: gapwise_model::RefusalKey::NoSession, status: 401, message: "Attacker words: log in at evil".into() },
            "no game session: start on the home page",
        ),
        (AppError::Unavailable("Attacker words".into()), "cannot store anything just now"),
    ];
    for (error, shown) in forged {
        let link = ServerFnUrlError::new("/api/start", error).to_url(&format!("{}/", app.base)).expect("a link");
        let page = client().get(link.to_string()).send().await.expect("page").text().await.expect("html");
        assert!(page.contains("role=\"alert\""), "the page says something went wrong: {page}");
        assert!(!page.contains("Attacker words"), "{page}");
        assert!(page.contains(shown), "{shown}: {page}");
    }

    db.store.staff().create("root", Role::Admin, "admin passphrase").await.expect("admin");
    let admin = staff_client(&app, "root", "admin passphrase").await;
    let page = |notice: &'static str| {
        let admin = admin.clone();
        let url = format!("{}/admin?notice={notice}", app.base);
        async move { admin.get(url).send().await.expect("admin page").text().await.expect("html") }
    };
    let forged = page("Your+session+expired%3A+sign+in+at+evil.example").await;
    assert!(!forged.contains("Your session expired") && !forged.contains("class=\"notice\""), "{forged}");
    assert!(page("built.7").await.contains("7 items built."));
}

/// A POST of `body` to server function `endpoint` with the content type `content_type`
/// (none when `None`): the status.
async fn post_body(c: &Client, app: &common::App, endpoint: &str, content_type: Option<&str>, body: &'static [u8]) -> StatusCode {
    let mut req = c.post(format!("{}/api/{endpoint}", app.base)).header(header::ACCEPT, "application/json").body(body);
    if let Some(content_type) = content_type {
        req = req.header(header::CONTENT_TYPE, content_type);
    }
    req.send().await.expect("post").status()
}

/// Item 4: a NUL character, raw or `%00`, is refused in a body of any content type or
/// none, and in a query string; a body without one is taken whatever its type.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_nul_character_is_refused_whatever_the_content_type() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        let c = started(&app).await;
        for content_type in [Some("text/plain"), Some("Application/X-WWW-Form-Urlencoded"), Some("application/octet-stream"), None] {
            for body in [b"message=a%00b".as_slice(), b"message=a\0b".as_slice()] {
                assert_eq!(post_body(&c, &app, "feedback", content_type, body).await, StatusCode::BAD_REQUEST, "{content_type:?} {body:?}");
            }
        }
        let res = c.get(format!("{}/my-data?x=%00", app.base)).send().await.expect("page");
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(db.store.count_rows("feedback").await.expect("feedback"), 0, "nothing stored");
        assert_eq!(
            post_body(&c, &app, "feedback", Some("text/plain"), b"message=plain").await,
            StatusCode::OK,
            "the guard, not the parser"
        );
    }
}

/// A POST of `form` to server function `endpoint`: the status, its `Retry-After` and
/// the body.
async fn post_form(c: &Client, app: &common::App, endpoint: &str, form: &[(&str, &str)]) -> (StatusCode, Option<String>, String) {
    let res =
        c.post(format!("{}/api/{endpoint}", app.base)).header(header::ACCEPT, "application/json").form(form).send().await.expect("post");
    let retry = res.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    (res.status(), retry, res.text().await.expect("body"))
}

/// `/readyz`'s status.
async fn readiness(app: &common::App) -> StatusCode {
    client().get(format!("{}/readyz", app.base)).send().await.expect("probe").status()
}

/// Waits until `/readyz` answers `want`, for at most `limit`.
async fn until_ready_is(app: &common::App, want: StatusCode, limit: Duration) {
    let start = Instant::now();
    while readiness(app).await != want {
        assert!(start.elapsed() < limit, "/readyz never answered {want}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Item 5: with the SQLite file's write lock held by another program past the
/// database's wait, an answer, feedback and an admin setting get 503 with
/// Retry-After (nothing stored), `/readyz` says not ready, and once the lock is
/// given back all is well again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_locked_database_answers_503_with_retry_after_and_is_not_ready() {
    let db = sqlite().await;
    let app = spawn(&db).await;
    db.store.staff().create("root", Role::Admin, "admin passphrase").await.expect("admin");
    let admin = staff_client(&app, "root", "admin passphrase").await;
    let player = started(&app).await;
    let (_, state) = call(&player, &app, "play", &[("k", "5")]).await;
    let id = state["Item"]["card"]["answer_id"].as_str().unwrap_or_else(|| panic!("no item: {state}")).to_owned();
    assert_eq!(readiness(&app).await, StatusCode::OK);

    let file = gapwise_store::sqlite_file(&db.url);
    let mut holder =
        Command::new("sqlite3").arg(&file).stdin(Stdio::piped()).stdout(Stdio::null()).spawn().expect("sqlite3 (Debian's sqlite3)");
    holder.stdin.as_mut().expect("stdin").write_all(b"BEGIN IMMEDIATE;\n").expect("take the lock");
    until_ready_is(&app, StatusCode::SERVICE_UNAVAILABLE, Duration::from_secs(10)).await;

    let feedback = post_form(&player, &app, "feedback", &[("message", "while locked")]);
    let setting = post_form(&admin, &app, "set-answers-per-item", &[("n", "7")]);
    let answer = async {
        // after the others have read their sessions (the game's writer reads them)
        tokio::time::sleep(Duration::from_secs(1)).await;
        post_form(&player, &app, "answer", &[("answer_id", id.as_str()), ("choice", "0")]).await
    };
    let (feedback, setting, answer) = tokio::join!(feedback, setting, answer);
    for (what, (status, retry, body)) in [("feedback", feedback), ("setting", setting), ("answer", answer)] {
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{what}: {body}");
        assert!(retry.is_some_and(|r| r.parse::<u64>().is_ok()), "{what}: Retry-After");
        assert!(body.contains("Unavailable"), "{what}: {body}");
    }
    drop(holder.stdin.take());
    holder.wait().expect("sqlite3 ends");
    until_ready_is(&app, StatusCode::OK, Duration::from_secs(10)).await;
    assert_eq!(db.store.count_rows("answers").await.expect("answers"), 0, "nothing stored while locked");
    assert_eq!(post_form(&player, &app, "answer", &[("answer_id", id.as_str()), ("choice", "0")]).await.0, StatusCode::OK);
}

/// Item 9: the admin's numbers and words have bounds, refused with 422 and a message.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admin_inputs_are_bounded() {
    for db in each_backend().await {
        let app = spawn(&db).await;
        db.store.staff().create("root", Role::Admin, "admin passphrase").await.expect("admin");
        let admin = staff_client(&app, "root", "admin passphrase").await;
        let player = started(&app).await;
        let (status, suggestion) = call(&player, &app, "suggest", &[("target", "cats"), ("distractor", "painted")]).await;
        assert_eq!(status, StatusCode::OK, "{suggestion}");
        let id = suggestion["id"].as_i64().expect("id").to_string();
        let long = "x".repeat(60_000);
        for (endpoint, form, said) in [
            ("set-answers-per-item", vec![("n", "1000000000000")], "answers per item must be 1 to"),
            ("reject-suggestion", vec![("id", id.as_str()), ("reason", long.as_str())], "a reason of 1 to"),
            ("admin-pairs", vec![("language", "en"), ("page", "9223372036854775807")], "a page of pairs is 0 to"),
            ("admin-pairs", vec![("language", "en"), ("page", "-1")], "a page of pairs is 0 to"),
        ] {
            let (status, body) = call(&admin, &app, endpoint, &form).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{endpoint}: {body}");
            assert!(body.to_string().contains(said), "{endpoint}: {body}");
        }
        let reasons: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pair_suggestions WHERE reason IS NOT NULL")
            .fetch_one(db.store.pool())
            .await
            .expect("reasons");
        assert_eq!(reasons, 0, "no 60,000-character reason stored");
        assert_eq!(call(&admin, &app, "set-answers-per-item", &[("n", "1000000")]).await.0, StatusCode::OK, "the bound itself");
    }
}

/// The value of the cookie `name` that `res` sets.
fn set_cookie(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.strip_prefix(&format!("{name}=")).map(|rest| rest.split(';').next().unwrap_or_default().to_owned()))
}

/// Item 10: private pages and exports are not stored by caches; behind TLS the
/// cookies are `__Host-` (and an unprefixed one, which anyone may plant, is ignored)
/// and HSTS is sent; two `Host` headers are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn private_answers_are_not_stored_and_tls_binds_cookies_to_the_host() {
    let db = sqlite().await;
    let app = spawn(&db).await;
    for path in ["/my-data", "/admin", "/admin/items?pair=1", "/research", "/api/export/csv", "/api/my-data"] {
        let res = client().get(format!("{}{path}", app.base)).send().await.expect("page");
        assert_eq!(res.headers().get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok()), Some("no-store"), "{path}");
    }
    let home = client().get(format!("{}/", app.base)).send().await.expect("home");
    assert!(home.headers().get(header::STRICT_TRANSPORT_SECURITY).is_none(), "no HSTS over plain HTTP");

    let secure = common::serve_with(&db.store, true).await;
    let plain = Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let res = plain
        .post(format!("{}/api/start", secure.base))
        .header(header::ACCEPT, "application/json")
        .form(&[("consent", "yes")])
        .send()
        .await
        .expect("start");
    assert!(res.headers().get(header::STRICT_TRANSPORT_SECURITY).is_some_and(|v| v.to_str().is_ok_and(|v| v.contains("max-age="))));
    let cookie = res.headers().get(header::SET_COOKIE).and_then(|v| v.to_str().ok()).expect("a session cookie").to_owned();
    assert!(cookie.starts_with("__Host-gapwise_session=") && cookie.contains("Secure") && cookie.contains("Path=/"), "{cookie}");
    assert!(!cookie.contains("Domain"), "{cookie}");
    let token = set_cookie(&res, "__Host-gapwise_session").expect("token");
    let whoami = |cookie: String| {
        let plain = plain.clone();
        let url = format!("{}/api/whoami", secure.base);
        async move {
            let res =
                plain.post(url).header(header::ACCEPT, "application/json").header(header::COOKIE, cookie).send().await.expect("whoami");
            res.json::<Value>().await.expect("json")
        }
    };
    assert!(whoami(format!("__Host-gapwise_session={token}")).await.is_string());
    assert_eq!(whoami(format!("gapwise_session={token}")).await, Value::Null, "a cookie without the prefix is not the site's");

    // two Host headers, as a raw request
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
}

/// `binary` run on the database `url` with `args` (as `user`, when given): its exit
/// code (`None` when it still ran after `limit` and was killed: a server that
/// started), what it said, and how long it took.
fn gapwise(binary: &Path, url: &str, args: &[&str], user: Option<&str>, limit: Duration) -> (Option<i32>, String, Duration) {
    let mut command = common::command_as(binary, user);
    let start = Instant::now();
    let mut child = command
        .args(args)
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .env("GAPWISE_PASSWORD", "a passphrase for the edge test")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gapwise");
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    let mut said = String::new();
    for mut out in [child.stdout.take().map(|o| Box::new(o) as Box<dyn Read>), child.stderr.take().map(|e| Box::new(e) as Box<dyn Read>)]
        .into_iter()
        .flatten()
    {
        let _ = out.read_to_string(&mut said);
    }
    (code, said, took)
}

/// The commands that write, and the server; `data` is a sentence file to import.
fn writing_commands(data: &Path) -> Vec<Vec<String>> {
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    vec![
        words(&["serve", "--addr", "127.0.0.1:0", "--no-demo", "--no-demo-models"]),
        vec!["import".into(), "sentences".into(), data.display().to_string()],
        words(&["build-items"]),
        words(&["add-staff", "edge", "--role", "admin"]),
    ]
}

/// A Gapwise database with answers at `file`, closed.
async fn gapwise_database(file: &Path) -> Store {
    let store = Store::open(&format!("sqlite://{}", file.display())).await.expect("store");
    seed_small(&store).await;
    play(&Engine::new(store.clone()), 2, 3).await;
    store
}

/// Items 6 and 7: the server and the commands that write refuse another program's
/// SQLite file, random bytes and a damaged Gapwise database at once (exit 2), naming
/// the file and the reason, and leave each as it was; a Gapwise database they cannot
/// write (read-only, in a read-only folder) is named at once with SQLite's reason.
#[tokio::test]
async fn writing_commands_refuse_what_is_not_a_writable_gapwise_database() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_gapwise"));
    let data = dir.path().join("s.tsv");
    std::fs::write(&data, "lang\ttext\tsource\tgenre\nfr\tLe chat dort sur le canapé.\tedge\tfiction\n").expect("data");
    let other = dir.path().join("other.db");
    let made = Command::new("sqlite3")
        .arg(&other)
        .arg("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello');")
        .output()
        .expect("sqlite3 (Debian's sqlite3)");
    assert!(made.status.success(), "{made:?}");
    let random = dir.path().join("random.db");
    std::fs::write(&random, (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect::<Vec<u8>>()).expect("random");
    let whole = dir.path().join("whole.db");
    gapwise_database(&whole).await.close().await;
    let truncated = dir.path().join("truncated.db");
    let bytes = std::fs::read(&whole).expect("read");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).expect("truncated");

    for (file, reason) in [
        (&other, "is not a Gapwise database (it holds no Gapwise schema)"),
        (&random, "is not a Gapwise database (not a SQLite file)"),
        (&truncated, "cannot be read: database disk image is malformed"),
    ] {
        let before = sha256(file);
        let url = format!("sqlite://{}", file.display());
        for args in writing_commands(&data) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, said, took) = gapwise(&binary, &url, &args, None, Duration::from_secs(20));
            assert_eq!(code, Some(2), "{args:?} on {}: {said}", file.display());
            assert!(said.contains(&file.display().to_string()) && said.contains(reason), "{args:?}: {said}");
            assert!(took < Duration::from_secs(3), "{args:?} took {took:?}: the cause at once, not the pool's time-out");
            assert_eq!(sha256(file), before, "{args:?} changed {}", file.display());
            assert!(side_files(file).is_empty(), "{args:?} left {:?}", side_files(file));
        }
    }

    // a Gapwise database that may not be written: as root, run as a user who may not
    let folder = dir.path().join("read-only");
    std::fs::create_dir(&folder).expect("folder");
    let locked = folder.join("gapwise.db");
    std::fs::copy(&whole, &locked).expect("copy");
    let (binary, user) = if uid() == 0 {
        let bin = dir.path().join("gapwise");
        std::fs::copy(&binary, &bin).expect("copy");
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        (bin, Some("nobody"))
    } else {
        (binary, None)
    };
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let before = sha256(&locked);
    let url = format!("sqlite://{}", locked.display());
    for args in writing_commands(&data) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, said, took) = gapwise(&binary, &url, &args, user, Duration::from_secs(20));
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(said.contains(&locked.display().to_string()) && !said.contains("pool timed out"), "{args:?}: {said}");
        assert!(took < Duration::from_secs(3), "{args:?} took {took:?}");
        assert_eq!(sha256(&locked), before, "{args:?} changed the database");
    }
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).expect("chmod back");
}

/// Item 7: a Gapwise file damaged in its middle (the answers table's page) stops the
/// export with the file named, and leaves no partial export behind.
#[tokio::test]
async fn an_export_of_a_damaged_database_names_it_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("damaged.db");
    let store = gapwise_database(&file).await;
    let root: i64 = sqlx::query_scalar("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'answers'")
        .fetch_one(store.pool())
        .await
        .expect("the answers table's page");
    let page_size: i64 = sqlx::query_scalar("PRAGMA page_size").fetch_one(store.pool()).await.expect("page size");
    store.close().await;
    let left = common::side_files_after_close(&file).await;
    assert!(left.is_empty(), "closed: {left:?}");
    let mut bytes = std::fs::read(&file).expect("read");
    let start = usize::try_from((root - 1) * page_size).expect("offset");
    let size = usize::try_from(page_size).expect("size");
    bytes[start..start + size].fill(0xAB);
    std::fs::write(&file, &bytes).expect("damage");

    let out = dir.path().join("out");
    let url = format!("sqlite://{}", file.display());
    let args = ["export", "--out", out.to_str().expect("utf-8")];
    let (code, said, _) = gapwise(Path::new(env!("CARGO_BIN_EXE_gapwise")), &url, &args, None, Duration::from_secs(60));
    assert!(code.is_some_and(|c| c != 0), "{said}");
    assert!(said.contains(&file.display().to_string()) && said.contains("malformed"), "{said}");
    assert!(!out.exists(), "a partial export was left: {:?}", std::fs::read_dir(&out).map(|d| d.count()));
}

/// Item 8: a SQLite URL names the file as typed: `pct%41.db` is that file (not
/// `pctA.db`), and a `?` that starts no options is part of the name.
#[tokio::test]
async fn a_sqlite_url_names_the_file_as_typed() {
    let dir = tempfile::tempdir().expect("tmp");
    let binary = Path::new(env!("CARGO_BIN_EXE_gapwise"));
    for name in ["pct%41.db", "q?x.db"] {
        let file = dir.path().join(name);
        gapwise_database(&file).await.close().await;
        assert!(file.is_file(), "{name} made as typed");
        let out = dir.path().join(format!("out-{}", name.len()));
        let url = format!("sqlite://{}", file.display());
        let (code, said, _) = gapwise(binary, &url, &["export", "--out", out.to_str().expect("utf-8")], None, Duration::from_secs(60));
        assert_eq!(code, Some(0), "{name}: {said}");
        let answers = std::fs::read_to_string(out.join("answers.csv")).expect("answers.csv");
        assert!(answers.lines().count() > 1, "{name}: the file's answers: {answers}");
        let (code, said, _) = gapwise(binary, &url, &["build-items"], None, Duration::from_secs(60));
        assert_eq!(code, Some(0), "{name}: {said}");
    }
    assert!(!dir.path().join("pctA.db").exists() && !dir.path().join("q").exists(), "no other file was read or made");
}
