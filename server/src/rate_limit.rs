//! Rate limits per client address on the endpoints worth hammering: sign-in (a
//! password guesser) and pair proposals (a flood into the moderation queue). Past
//! the limit, 429 with a Retry-After header; other routes are not limited.
//!
//! The address is the TCP peer's. Behind a reverse proxy every client shares the
//! proxy's address, so the limit then applies to all together: deployments behind
//! one should set the proxy's own limits (see the README).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use gapwise_app::AppError;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// One limiter per limited group of paths.
pub struct Limits {
    groups: Vec<(&'static [&'static str], DefaultKeyedRateLimiter<IpAddr>)>,
}

/// Sign-in attempts a minute: all at once, then one every 6 seconds.
const SIGN_INS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(10).expect("not zero");
const SIGN_IN_PATHS: &[&str] = &["/api/login", "/api/staff-login"];
/// Pair proposals a minute: all at once, then one every 3 seconds.
const PROPOSALS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(20).expect("not zero");
const PROPOSAL_PATHS: &[&str] = &["/api/suggest"];

impl Limits {
    pub fn new() -> Arc<Self> {
        let per_minute = |n| RateLimiter::keyed(Quota::per_minute(n));
        Arc::new(Limits {
            groups: vec![(SIGN_IN_PATHS, per_minute(SIGN_INS_PER_MINUTE)), (PROPOSAL_PATHS, per_minute(PROPOSALS_PER_MINUTE))],
        })
    }
}

pub async fn limit(State(limits): State<Arc<Limits>>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let limiter = limits.groups.iter().find(|(paths, _)| paths.contains(&path)).map(|(_, l)| l);
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    if let (Some(limiter), Some(ip)) = (limiter, peer) {
        if let Err(not_until) = limiter.check_key(&ip) {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1);
            // in the encoding of the app's errors, which the page shows as it shows any other
            let error = AppError::BadRequest(format!("too many attempts from your address; try again in {wait} s"));
            let body = serde_json::to_string(&error).unwrap_or_default();
            let headers = [(header::RETRY_AFTER, wait.to_string()), (header::CONTENT_TYPE, "application/json".to_owned())];
            return (StatusCode::TOO_MANY_REQUESTS, headers, body).into_response();
        }
    }
    next.run(req).await
}
