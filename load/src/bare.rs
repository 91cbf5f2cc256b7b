//! The reference: a bare axum + sqlx endpoint that stores one answer per POST with a
//! single INSERT, with none of the game around it: on a SQLite file set up as
//! Gapwise's (WAL, synchronous=NORMAL, the same pool size), or on a PostgreSQL
//! database through sqlx's own PostgreSQL driver with the same pool size. Its
//! throughput in the same run is what the stack allows on this machine.
//!
//! It runs in a process of its own (this binary, with `--serve-bare`), as Gapwise's
//! server does: served from the load tool's own process it shared the players'
//! runtime, and a request and its response never crossed from one process to
//! another.

use std::path::Path;
use std::process::Stdio;
use std::str::FromStr;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Form, Router};
use serde::Deserialize;
use sqlx::postgres::{PgPool, PgPoolOptions};
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

/// The reference's database: a SQLite file, or a PostgreSQL URL.
#[derive(Clone, Debug)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Connections at most, as Gapwise's pool.
const CONNECTIONS: u32 = 16;

impl Pool {
    /// Opens `target`: a `postgres://` URL, else the path of a SQLite file.
    async fn open(target: &str) -> Result<Pool, sqlx::Error> {
        if target.starts_with("postgres://") || target.starts_with("postgresql://") {
            return Ok(Pool::Postgres(PgPoolOptions::new().max_connections(CONNECTIONS).connect(target).await?));
        }
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{target}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(10));
        Ok(Pool::Sqlite(SqlitePoolOptions::new().max_connections(CONNECTIONS).connect_with(options).await?))
    }

    /// Runs one statement; `$1`-style parameters are what both drivers accept.
    async fn execute(&self, sql: &str, binds: (&str, i64)) -> Result<(), sqlx::Error> {
        match self {
            Pool::Sqlite(pool) => sqlx::query(sql).bind(binds.0).bind(binds.1).execute(pool).await.map(drop),
            Pool::Postgres(pool) => sqlx::query(sql).bind(binds.0).bind(binds.1).execute(pool).await.map(drop),
        }
    }

    async fn ids(&self) -> Result<Vec<String>, sqlx::Error> {
        const IDS: &str = "SELECT id FROM answers";
        match self {
            Pool::Sqlite(pool) => sqlx::query_scalar(IDS).fetch_all(pool).await,
            Pool::Postgres(pool) => sqlx::query_scalar(IDS).fetch_all(pool).await,
        }
    }

    async fn create_table(&self) -> Result<(), sqlx::Error> {
        const CREATE: &str = "CREATE TABLE IF NOT EXISTS answers (id TEXT PRIMARY KEY, choice BIGINT NOT NULL)";
        match self {
            Pool::Sqlite(pool) => sqlx::query(CREATE).execute(pool).await.map(drop),
            Pool::Postgres(pool) => sqlx::query(CREATE).execute(pool).await.map(drop),
        }
    }
}

async fn store_answer(State(pool): State<Pool>, Form(answer): Form<Answer>) -> StatusCode {
    let insert = "INSERT INTO answers (id, choice) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING";
    match pool.execute(insert, (&answer.answer_id, answer.choice)).await {
        Ok(()) => StatusCode::OK,
        Err(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// Creates the database `target` (a SQLite file or a PostgreSQL URL), serves `POST
/// /answer` on a free local port and prints the base URL on a line of its own;
/// serves until the process is stopped.
pub async fn serve(target: &str) -> Result<(), Failure> {
    let pool = Pool::open(target).await?;
    pool.create_table().await?;
    let app = Router::new().route("/answer", post(store_answer)).with_state(pool);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

/// The reference endpoint, served by a child process; stopped when dropped.
pub struct Bare {
    pub base: String,
    target: String,
    _server: Child,
}

impl Bare {
    /// Starts `program` (gapwise-load) with `--serve-bare target` (a SQLite file or
    /// a PostgreSQL URL) and waits for its URL.
    pub async fn start(program: &Path, target: &str) -> Result<Bare, Failure> {
        let mut server = Command::new(program).arg("--serve-bare").arg(target).stdout(Stdio::piped()).kill_on_drop(true).spawn()?;
        let stdout = server.stdout.take().ok_or("the bare endpoint's output was not piped")?;
        let base = BufReader::new(stdout).lines().next_line().await?.ok_or("the bare endpoint stopped before it served")?;
        Ok(Bare { base, target: target.to_owned(), _server: server })
    }

    /// Audits the reference's table as Gapwise's is audited.
    pub async fn audit(&self, acknowledged: &std::collections::HashSet<String>) -> Result<Audit, sqlx::Error> {
        Ok(Audit::of(acknowledged, Pool::open(&self.target).await?.ids().await?))
    }
}
