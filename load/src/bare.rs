//! The reference: a bare axum + sqlx endpoint that stores one answer per POST with a
//! single INSERT, on a SQLite file set up as Gapwise's (WAL, synchronous=NORMAL, the
//! same pool size), with none of the game around it. Its throughput in the same run
//! is what the stack allows on this machine.

use std::path::Path;
use std::str::FromStr;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Form, Router};
use serde::Deserialize;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

use crate::audit::Audit;

/// The reference endpoint, served on a local port.
pub struct Bare {
    pub base: String,
    pool: SqlitePool,
}

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

impl Bare {
    /// Creates the database `file` and serves the endpoint `POST /answer`.
    pub async fn serve(file: &Path) -> Result<Bare, Box<dyn std::error::Error>> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", file.display()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(10));
        let pool = SqlitePoolOptions::new().max_connections(16).connect_with(options).await?;
        sqlx::query("CREATE TABLE IF NOT EXISTS answers (id TEXT PRIMARY KEY, choice INTEGER NOT NULL)").execute(&pool).await?;
        let app = Router::new().route("/answer", post(store_answer)).with_state(pool.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Bare { base, pool })
    }

    /// Audits the reference's table as Gapwise's is audited.
    pub async fn audit(&self, acknowledged: &std::collections::HashSet<String>) -> Result<Audit, sqlx::Error> {
        let rows: Vec<String> = sqlx::query_scalar("SELECT id FROM answers").fetch_all(&self.pool).await?;
        Ok(Audit::of(acknowledged, rows))
    }
}
