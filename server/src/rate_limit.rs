//! Rate limits per client address on the endpoints worth hammering: sign-in and
//! password changes (a password guesser), new players (a flood of pseudonyms), pair
//! proposals and feedback (floods into what the team reads). Past the limit, 429
//! with a Retry-After header and the refusal `too_many_requests`; other routes are
//! not limited.
//!
//! The address is the TCP peer's, unless the peer is a proxy named in
//! `GAPWISE_TRUSTED_PROXIES` (addresses or networks such as 172.16.0.0/12,
//! comma-separated; a container's proxy has no fixed address): then it is the one the
//! proxy puts in `X-Real-IP`. Without that setting every client behind a proxy
//! shares the proxy's address, and one budget. With several replicas each keeps
//! its own counts, so a client gets at most the replicas' number of budgets; the
//! proxy's own limits (`scripts/cluster.sh` sets nginx's) hold across them.

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use gapwise_app::ssr::refused_in;
use gapwise_model::{Refusal, RefusalKey};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// One limiter per limited group of paths, and the proxies whose word on the
/// client's address is taken.
pub struct Limits {
    groups: Vec<(&'static [&'static str], DefaultKeyedRateLimiter<IpAddr>)>,
    trusted_proxies: Vec<IpNet>,
}

/// The environment variable naming the trusted proxies.
pub const TRUSTED_PROXIES: &str = "GAPWISE_TRUSTED_PROXIES";

/// Password checks a minute (signing in, and changing a password, which checks the
/// current one): all at once, then one every 6 seconds.
const SIGN_INS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(10).expect("not zero");
const SIGN_IN_PATHS: &[&str] = &["/api/login", "/api/staff-login", "/api/set-password"];
/// Pair proposals a minute: all at once, then one every 3 seconds.
const PROPOSALS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(20).expect("not zero");
const PROPOSAL_PATHS: &[&str] = &["/api/suggest"];
/// New players a minute (the home page's start and a crowd study's entry): all at
/// once, then one a second, so that a class behind one address starts together.
const NEW_PLAYERS_PER_MINUTE: NonZeroU32 = NonZeroU32::new(60).expect("not zero");
const NEW_PLAYER_PATHS: &[&str] = &["/api/start", "/api/crowd-start"];
/// Feedback messages a minute: all at once, then one every 6 seconds.
const FEEDBACK_PER_MINUTE: NonZeroU32 = NonZeroU32::new(10).expect("not zero");
const FEEDBACK_PATHS: &[&str] = &["/api/feedback"];

impl Limits {
    /// The limits, trusting the proxies of [`TRUSTED_PROXIES`]; an entry there that
    /// is neither an address nor a network is an error that names it.
    pub fn new() -> Result<Arc<Self>, String> {
        let per_minute = |n| RateLimiter::keyed(Quota::per_minute(n));
        let trusted_proxies = std::env::var(TRUSTED_PROXIES)
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse::<IpNet>()
                    .or_else(|_| a.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{TRUSTED_PROXIES}: {a:?} is neither an IP address nor a network"))
            })
            .collect::<Result<_, _>>()?;
        let limits = Arc::new(Limits {
            groups: vec![
                (SIGN_IN_PATHS, per_minute(SIGN_INS_PER_MINUTE)),
                (PROPOSAL_PATHS, per_minute(PROPOSALS_PER_MINUTE)),
                (NEW_PLAYER_PATHS, per_minute(NEW_PLAYERS_PER_MINUTE)),
                (FEEDBACK_PATHS, per_minute(FEEDBACK_PER_MINUTE)),
            ],
            trusted_proxies,
        });
        // every minute, forget the addresses whose budgets are whole again (every
        // visitor's address is counted at /api/start); ends with the limits
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let limits = Arc::downgrade(&limits);
            runtime.spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    let Some(limits) = limits.upgrade() else { break };
                    limits.groups.iter().for_each(|(_, limiter)| limiter.retain_recent());
                }
            });
        }
        Ok(limits)
    }

    /// The client's address: the peer's, or what a trusted proxy says it is; of an
    /// IPv6 address its /64, which one subscriber holds whole (so that rotating
    /// addresses within it does not make new budgets).
    fn client(&self, peer: IpAddr, real_ip: Option<&str>) -> IpAddr {
        let address = match real_ip.and_then(|a| a.trim().parse().ok()) {
            Some(client) if self.trusted_proxies.iter().any(|net| net.contains(&peer)) => client,
            _ => peer,
        };
        match address {
            IpAddr::V6(v6) => ipnet::Ipv6Net::new(v6, 64).map_or(address, |net| IpAddr::V6(net.network())),
            IpAddr::V4(_) => address,
        }
    }
}

pub async fn limit(State(limits): State<Arc<Limits>>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let limiter = limits.groups.iter().find(|(paths, _)| paths.contains(&path)).map(|(_, l)| l);
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let real_ip = req.headers().get("x-real-ip").and_then(|v| v.to_str().ok());
    if let (Some(limiter), Some(ip)) = (limiter, peer.map(|peer| limits.client(peer, real_ip))) {
        if let Err(not_until) = limiter.check_key(&ip) {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1);
            return too_many(req.headers(), wait);
        }
    }
    next.run(req).await
}

/// The answer to a request over its limit: 429, when to try again (`Retry-After`,
/// `wait` seconds), and the refusal `too_many_requests` in the language the request
/// asks for, in the encoding of the app's errors, which the page shows as any other.
fn too_many(headers: &HeaderMap, wait: u64) -> Response {
    let refusal = Refusal::new(RefusalKey::TooManyRequests, format!("too many requests from your address; try again in {wait} s"))
        .arg("seconds", wait);
    let error = refused_in(gapwise_app::i18n::of_headers(headers), &refusal, StatusCode::TOO_MANY_REQUESTS);
    let body = serde_json::to_string(&error).unwrap_or_default();
    let headers = [(header::RETRY_AFTER, wait.to_string()), (header::CONTENT_TYPE, "application/json".to_owned())];
    (StatusCode::TOO_MANY_REQUESTS, headers, body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy: IpAddr = "127.0.0.1".parse().expect("ip");
        let stranger: IpAddr = "10.0.0.9".parse().expect("ip");
        let containers: IpNet = "10.89.0.0/24".parse().expect("net");
        let limits = Limits { groups: Vec::new(), trusted_proxies: vec![proxy.into(), containers] };
        let client: IpAddr = "203.0.113.7".parse().expect("ip");
        assert_eq!(limits.client(proxy, Some("203.0.113.7")), client);
        assert_eq!(limits.client("10.89.0.5".parse().expect("ip"), Some("203.0.113.7")), client, "a proxy in a trusted network");
        assert_eq!(limits.client(stranger, Some("203.0.113.7")), stranger, "anyone else's header is ignored");
        let (one, other): (IpAddr, IpAddr) = ("2001:db8:1:2::7".parse().expect("ip"), "2001:db8:1:2:ffff::1".parse().expect("ip"));
        assert_eq!(limits.client(one, None), limits.client(other, None), "one /64, one budget");
        assert_ne!(limits.client(one, None), limits.client("2001:db8:1:3::7".parse().expect("ip"), None));
        assert_eq!(limits.client(proxy, None), proxy);
        assert_eq!(limits.client(proxy, Some("not an address")), proxy);
    }
}
