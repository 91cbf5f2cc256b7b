//! Probes for load balancers and orchestrators: `GET /healthz` answers while the
//! process serves requests; `GET /readyz` answers 200 only while the database does
//! (503 otherwise, so traffic goes to another replica).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use gapwise_store::Store;

pub fn routes(store: Store) -> Router {
    Router::new().route("/healthz", get(|| async { "ok" })).route("/readyz", get(ready)).with_state(store)
}

async fn ready(State(store): State<Store>) -> (StatusCode, &'static str) {
    match store.ping().await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!("not ready: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer")
        }
    }
}
