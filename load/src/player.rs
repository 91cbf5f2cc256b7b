//! One simulated player's loop, against Gapwise or against the bare endpoint.

use std::time::{Duration, Instant};

use reqwest::{header, Client};
use serde_json::Value;

use crate::plan::{Errors, Plan, PlayerLog};

/// How a request failed.
enum Failure {
    Transport,
    Status(reqwest::StatusCode),
    /// 429: try again after this long (its `Retry-After`).
    TooMany(Duration),
}

impl Failure {
    /// How long to wait before the next request: a 429's `Retry-After`, as a
    /// well-behaved client does, else [`BACK_OFF`].
    fn wait(&self) -> Duration {
        match self {
            Failure::TooMany(after) => *after,
            _ => BACK_OFF,
        }
    }
}

impl Errors {
    fn count(&mut self, failure: &Failure) {
        match failure {
            Failure::Transport => self.transport += 1,
            Failure::Status(s) if s.is_client_error() => self.client += 1,
            Failure::TooMany(_) => self.client += 1,
            Failure::Status(_) => self.server += 1,
        }
    }
}

/// Wait after a failure, so that a server that is down is not spun on.
const BACK_OFF: Duration = Duration::from_millis(20);

/// Player `n`'s client: its own cookies and connections, as a browser has, and its
/// own address (in 198.18.0.0/15, the range set aside for benchmarks) in the headers
/// a proxy sets. A server or nginx that trusts the load tool's address as a proxy
/// (`GAPWISE_TRUSTED_PROXIES=127.0.0.1`, as the benchmark scripts start it) then
/// keeps each player's rate limits apart, as it would for players on the Internet;
/// one that does not ignores the headers.
fn new_client(n: usize) -> Client {
    let address = format!("198.{}.{}.{}", 18 + (n >> 16) % 2, (n >> 8) % 256, n % 256);
    let mut headers = header::HeaderMap::new();
    if let Ok(value) = header::HeaderValue::from_str(&address) {
        headers.insert("x-real-ip", value.clone());
        headers.insert("x-forwarded-for", value);
    }
    Client::builder().cookie_store(true).default_headers(headers).timeout(Duration::from_secs(10)).build().unwrap_or_default()
}

/// POSTs a form to `url` as the hydrated page does; the JSON answer on a 2xx.
async fn post(c: &Client, url: &str, form: &[(&str, &str)]) -> Result<Value, Failure> {
    let res = c.post(url).header(header::ACCEPT, "application/json").form(form).send().await.map_err(|_| Failure::Transport)?;
    let status = res.status();
    let retry_after = res.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let body = res.bytes().await.map_err(|_| Failure::Transport)?;
    if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        return Err(Failure::TooMany(Duration::from_secs(retry_after.unwrap_or(1))));
    }
    if !status.is_success() {
        return Err(Failure::Status(status));
    }
    Ok(serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// What the game offers a player now.
enum Offer {
    Item(String),
    /// The last answer's feedback is still shown: move on first.
    Feedback,
    /// Nothing left for this player (or locked): a new player takes over.
    Nothing,
}

fn offer_in(state: &Value) -> Offer {
    if let Some(id) = state.pointer("/Item/card/answer_id").and_then(Value::as_str) {
        Offer::Item(id.to_owned())
    } else if state.get("Feedback").is_some() {
        Offer::Feedback
    } else {
        Offer::Nothing
    }
}

/// A Gapwise player: consent, then serve, think, answer and move on, until the
/// deadline. With the requests the game page makes: after an answer it refreshes the
/// progress bar and the crowd bar, moves on, and asks for the next item. A lean plan
/// plays one request a round: `answer-next` answers and returns the next item. An
/// answer whose request got no response is sent again.
pub(crate) async fn play_gapwise(plan: &Plan, deadline: Instant, n: usize) -> PlayerLog {
    let api = |endpoint: &str| format!("{}/api/{endpoint}", plan.base);
    let (k, think_ms) = (plan.k.to_string(), plan.think.as_millis().max(1).to_string());
    let mut log = PlayerLog::default();
    let mut player: Option<Client> = None;
    let mut unacknowledged: Option<String> = None;
    // what a lean round returned: the next play state, already served
    let mut offered: Option<Offer> = None;
    while Instant::now() < deadline {
        let Some(c) = player.clone() else {
            let c = new_client(n);
            match post(&c, &api("start"), &[("consent", "yes")]).await {
                Ok(_) => player = Some(c),
                Err(failure) => {
                    log.errors.count(&failure);
                    tokio::time::sleep(failure.wait().min(deadline.saturating_duration_since(Instant::now()))).await;
                }
            }
            continue;
        };
        let id = match unacknowledged.take() {
            Some(id) => id,
            None => {
                let offer = match offered.take() {
                    Some(offer) => Ok(offer),
                    None => post(&c, &api("play"), &[("k", &k), ("language", &plan.language)]).await.map(|s| offer_in(&s)),
                };
                match offer {
                    Ok(Offer::Item(id)) => {
                        tokio::time::sleep(plan.think).await;
                        id
                    }
                    Ok(Offer::Feedback) => {
                        if let Err(failure) = post(&c, &api("next"), &[]).await {
                            log.errors.count(&failure);
                        }
                        continue;
                    }
                    Ok(Offer::Nothing) => {
                        player = None;
                        continue;
                    }
                    Err(failure) => {
                        log.errors.count(&failure);
                        tokio::time::sleep(failure.wait().min(deadline.saturating_duration_since(Instant::now()))).await;
                        continue;
                    }
                }
            }
        };
        let sent = Instant::now();
        let answer = [("answer_id", id.as_str()), ("choice", "0"), ("client_ms", &think_ms)];
        let mut form = answer.to_vec();
        form.extend([("k", k.as_str()), ("language", &plan.language)]);
        // the game page's round brings the progress along; the lean one only the next item
        let (endpoint, next) = if plan.lean { ("answer-next", "/next") } else { ("answer-round", "/round/next") };
        match post(&c, &api(endpoint), &form).await {
            Ok(round) => {
                log.latencies_us.push(sent.elapsed().as_micros() as u64);
                log.acknowledged.push(id);
                offered = Some(offer_in(round.pointer(next).unwrap_or(&Value::Null)));
            }
            Err(failure) => {
                log.errors.count(&failure);
                if matches!(failure, Failure::Transport) {
                    unacknowledged = Some(id);
                }
                tokio::time::sleep(failure.wait().min(deadline.saturating_duration_since(Instant::now()))).await;
            }
        }
    }
    log
}

/// A player of the bare endpoint: think, then one POST with a new answer id.
pub(crate) async fn play_bare(plan: &Plan, deadline: Instant, n: usize) -> PlayerLog {
    let url = format!("{}/answer", plan.base);
    let c = new_client(n);
    let mut log = PlayerLog::default();
    while Instant::now() < deadline {
        tokio::time::sleep(plan.think).await;
        let id = uuid::Uuid::new_v4().to_string();
        let sent = Instant::now();
        match post(&c, &url, &[("answer_id", &id), ("choice", "0")]).await {
            Ok(_) => {
                log.latencies_us.push(sent.elapsed().as_micros() as u64);
                log.acknowledged.push(id);
            }
            Err(failure) => {
                log.errors.count(&failure);
                tokio::time::sleep(failure.wait().min(deadline.saturating_duration_since(Instant::now()))).await;
            }
        }
    }
    log
}
