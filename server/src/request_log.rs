//! One log event per request: method, path, status and time taken. Only the path is
//! logged: query strings (which carry crowd-platform ids), cookies, bodies and client
//! addresses are personal or secret and never reach the log.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

pub async fn log_request(req: Request, next: Next) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_owned());
    let started = Instant::now();
    let response = next.run(req).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(target: "gapwise::request", %method, %path, status = response.status().as_u16(), ms, "request");
    response
}
