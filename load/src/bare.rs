//! The reference: a bare axum + sqlx endpoint that stores one answer per POST with a
//! single INSERT, on a SQLite file set up as Gapwise's (WAL, synchronous=NORMAL, the
//! same pool size), with none of the game around it. Its throughput in the same run
//! is what the stack allows on this machine.
//!
//! It runs in a process of its own (this binary, with `--serve-bare`), as Gapwise's
//! server does: served from the load tool's own process it shared the players'
//! runtime, and a request and its response never crossed from one process to
//! another.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::str::FromStr;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Form, Router};
use serde::Deserialize;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::audit::Audit;

type Failure = Box<dyn std::error::Error>;

#[derive(Deserialize)]
struct Answer {
    answer_id: String,
    choice: i64,
}

async fn store_answer(State(pool): State<SqlitePool>, Form(answer): Form<Answer>) -> StatusCode {
    let stored = sqlx::query("INSERT INTO answers (id, choice) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")
        .bind(&answer.answer_id)
        .bind(answer.choice)
        .execute(&pool)
        .await;
    if stored.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    }
}

async fn open(file: &Path) -> Result<SqlitePool, sqlx::Error> {
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", file.display()))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(std::time::Duration::from_secs(10));
    SqlitePoolOptions::new().max_connections(16).connect_with(options).await
}

/// Creates the database `file`, serves `POST /answer` on a free local port and
/// prints the base URL on a line of its own; serves until the process is stopped.
pub async fn serve(file: &Path) -> Result<(), Failure> {
    let pool = open(file).await?;
    sqlx::query("CREATE TABLE IF NOT EXISTS answers (id TEXT PRIMARY KEY, choice INTEGER NOT NULL)").execute(&pool).await?;
    let app = Router::new().route("/answer", post(store_answer)).with_state(pool);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

/// The reference endpoint, served by a child process; stopped when dropped.
pub struct Bare {
    pub base: String,
    file: PathBuf,
    _server: Child,
}

impl Bare {
    /// Starts `program` (gapwise-load) with `--serve-bare file` and waits for its URL.
    pub async fn start(program: &Path, file: &Path) -> Result<Bare, Failure> {
        let mut server = Command::new(program)
            .arg("--serve-bare")
            .arg(file)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdout = server.stdout.take().ok_or("the bare endpoint's output was not piped")?;
        let base = BufReader::new(stdout).lines().next_line().await?.ok_or("the bare endpoint stopped before it served")?;
        Ok(Bare { base, file: file.to_owned(), _server: server })
    }

    /// Audits the reference's table as Gapwise's is audited.
    pub async fn audit(&self, acknowledged: &std::collections::HashSet<String>) -> Result<Audit, sqlx::Error> {
        let pool = open(&self.file).await?;
        let rows: Vec<String> = sqlx::query_scalar("SELECT id FROM answers").fetch_all(&pool).await?;
        Ok(Audit::of(acknowledged, rows))
    }
}
