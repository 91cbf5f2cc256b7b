//! Request guards applied to every route.

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;


/// Refuses state-changing requests sent from another site (CSRF): a POST whose
/// `Origin` header names a different host than `Host` gets 403. Browsers send
/// `Origin` with every cross-site POST; the SameSite=Lax session cookie is a second
/// line of defence.
pub async fn same_origin_posts(req: Request, next: Next) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok());
        let origin = req.headers().get(header::ORIGIN).and_then(|h| h.to_str().ok());
        if let Some(origin) = origin {
            let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
            if Some(origin_host) != host {
                return (StatusCode::FORBIDDEN, "cross-site requests are not allowed").into_response();
            }
        }
    }
    next.run(req).await
}

/// Wraps routes in every guard: the CSRF check, a body limit of `limit` bytes, and
/// headers that keep the site out of frames and stop content sniffing.
pub fn guard(app: Router, limit: usize) -> Router {
    let header = |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    app.layer(axum::middleware::from_fn(same_origin_posts))
        .layer(RequestBodyLimitLayer::new(limit))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::CONTENT_SECURITY_POLICY, "frame-ancestors 'none'"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
}
