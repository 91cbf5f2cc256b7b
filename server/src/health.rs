//! Probes for load balancers and orchestrators: `GET /healthz` answers while the
//! process serves requests; `GET /readyz` answers 200 only while the database takes
//! the game's work within [`READY_WAIT`] (it answers, and a SQLite file's write lock
//! is free: see [`Store::ready`]), and 503 otherwise, so traffic goes to another
//! replica.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use gapwise_store::Store;

pub fn routes(store: Store) -> Router {
    Router::new().route("/healthz", get(|| async { "ok" })).route("/readyz", get(ready)).with_state(store)
}

/// Longest the readiness probe waits for the database: a probe that waited for a
/// busy database as long as a request does (10 s) would outlast the balancer's.
const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

async fn ready(State(store): State<Store>) -> (StatusCode, &'static str) {
    match store.ready(READY_WAIT).await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!("not ready: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not take work in time")
        }
    }
}
