//! What the HTTP tests share: the app served on a free local port, a client that
//! keeps cookies as a browser does, and server-function calls.
//!
//! Tests that serve the app run on a runtime of four worker threads, so that its
//! requests run in parallel as on the server, even on a machine of two cores.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use gapwise_store::Store;
use leptos::prelude::LeptosOptions;
use reqwest::{header, Client, StatusCode};
use serde_json::Value;

/// The app being served.
pub struct App {
    pub base: String,
}

/// Serves the app on `store` at a free local port.
pub async fn serve(store: &Store) -> App {
    serve_with(store, false).await
}

/// Serves the app on `store` at a free local port, as behind TLS when `secure_cookies`.
pub async fn serve_with(store: &Store, secure_cookies: bool) -> App {
    let options = LeptosOptions::builder().output_name("gapwise").build();
    let app = gapwise_server::router(store.clone(), options, secure_cookies).expect("router");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(gapwise_server::serve(listener, app));
    App { base }
}

/// A client that keeps cookies and does not follow redirects. A request that gets
/// no response within a minute fails the test instead of stalling the suite.
pub fn client() -> Client {
    Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .expect("client")
}

/// Calls a server function the way the hydrated page does (form body, JSON back).
pub async fn call(c: &Client, app: &App, endpoint: &str, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let res =
        c.post(format!("{}/api/{endpoint}", app.base)).header(header::ACCEPT, "application/json").form(form).send().await.expect("request");
    let status = res.status();
    let text = res.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// What `GET /api/my-data` says of the player signed in on `c`.
pub async fn my_data(c: &Client, app: &App) -> Value {
    let res = c.get(format!("{}/api/my-data", app.base)).header(header::ACCEPT, "application/json").send().await.expect("my data");
    res.json().await.expect("json")
}

/// A new player who gave consent: a client with a session cookie.
pub async fn started(app: &App) -> Client {
    let c = client();
    let (status, _) = call(&c, app, "start", &[("consent", "yes")]).await;
    assert!(status.is_success() || status.is_redirection(), "start: {status}");
    c
}

/// A client signed in on the staff sign-in page.
#[allow(dead_code)] // not every test binary signs staff in
pub async fn staff_client(app: &App, name: &str, password: &str) -> Client {
    let c = client();
    let (status, body) = call(&c, app, "staff-login", &[("name", name), ("password", password)]).await;
    assert!(status.is_success(), "{name} signs in: {status} {body}");
    c
}

/// The answers the report's IRT of the other modes fitted for `mode`, summed over
/// its items, and whether its players' abilities were reported.
#[allow(dead_code, reason = "each test binary uses a part of the common helpers")]
pub fn irt_answers(report: &gapwise_model::Report, mode: &str) -> (usize, bool) {
    let table = |file: &str| report.tables.iter().find(|t| t.file == file).unwrap_or_else(|| panic!("no table {file}"));
    let answers = table("irt_mode_items").rows.iter().filter(|r| r[0] == mode).map(|r| r[3].parse::<usize>().expect("answers")).sum();
    (answers, table("irt_mode_abilities").rows.iter().any(|r| r[0] == mode))
}

/// Runs the `gapwise` binary on the database at `url`: whether it succeeded, and what
/// it said (standard output, then standard error).
pub fn cli(url: &str, args: &[&str]) -> (bool, String) {
    cli_with(url, args, &[])
}

/// [`cli`] with the environment variables `env` set (`GAPWISE_PASSWORD`).
pub fn cli_with(url: &str, args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gapwise"))
        .args(args)
        .env("DATABASE_URL", url)
        .envs(env.iter().copied())
        .output()
        .expect("run gapwise");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The SHA-256 of `file`'s bytes, to tell whether a command changed it.
pub fn sha256(file: &Path) -> String {
    use sha2::{Digest, Sha256};
    format!("{:x}", Sha256::digest(std::fs::read(file).expect("read")))
}

/// The side files SQLite keeps beside `file` while it is open (WAL, shared memory,
/// rollback journal) that exist now.
pub fn side_files(file: &Path) -> Vec<PathBuf> {
    ["-wal", "-shm", "-journal"]
        .iter()
        .map(|s| {
            let mut p = file.as_os_str().to_owned();
            p.push(s);
            PathBuf::from(p)
        })
        .filter(|p| p.exists())
        .collect()
}

/// The side files left beside `file` once its last connection has closed: the
/// close merges the WAL and removes it, but on a loaded machine a connection of the
/// engine's background tasks may close a moment after the store's `close` returns,
/// so this waits up to 5 s for them to go.
pub async fn side_files_after_close(file: &Path) -> Vec<PathBuf> {
    for _ in 0..50 {
        if side_files(file).is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    side_files(file)
}

/// A command that runs `binary` as `user` (through runuser), or as this process.
pub fn command_as(binary: &Path, user: Option<&str>) -> std::process::Command {
    match user {
        Some(user) => {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", user, "--"]).arg(binary);
            c
        }
        None => std::process::Command::new(binary),
    }
}

/// This process's user id, from /proc (no libc call).
pub fn uid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().next()).and_then(|u| u.parse().ok()).expect("Uid")
}
