//! `GET /language?to=<code>&back=<path>`: the interface-language switcher. Sets the
//! language cookie (a year, readable by the server only) and sends the browser back
//! to the page it came from, so it works without JavaScript: `back` only when it is a
//! path on this site ([`gapwise_app::local_path`]), else the home page.

use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gapwise_app::ssr::language_cookie;
use gapwise_app::{local_path, AppError};
use gapwise_model::{parse_language, LANGUAGES};
use serde::Deserialize;

pub fn routes(secure_cookies: bool) -> Router {
    Router::new().route("/language", get(choose)).with_state(secure_cookies)
}

#[derive(Deserialize)]
struct Choice {
    to: String,
    back: Option<String>,
}

async fn choose(State(secure): State<bool>, Query(choice): Query<Choice>) -> Response {
    let Some(code) = parse_language(&choice.to) else {
        let known: Vec<&str> = LANGUAGES.iter().map(|(code, _)| *code).collect();
        return AppError::BadRequest(format!("unknown language {:?} (one of {})", choice.to, known.join(", "))).into_response();
    };
    // only a path on this site, else the home page: "//host", "/%09/host" or
    // "https://..." would make this an open redirect
    let back = choice.back.as_deref().and_then(local_path).unwrap_or("/").to_owned();
    let cookie = language_cookie(code, secure);
    (StatusCode::SEE_OTHER, [(header::LOCATION, back), (header::SET_COOKIE, cookie.to_string())]).into_response()
}
