//! `GET /language?to=<code>&back=<path>`: the interface-language switcher. Sets the
//! language cookie (a year, readable by the server only) and sends the browser back
//! to the page it came from, so it works without JavaScript.

use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gapwise_app::ssr::language_cookie;
use gapwise_app::AppError;
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
    // only a path on this site: "//host" or "https://..." would make this an open redirect
    let back = choice.back.filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\')).unwrap_or_else(|| "/".into());
    let cookie = language_cookie(code, secure);
    (StatusCode::SEE_OTHER, [(header::LOCATION, back), (header::SET_COOKIE, cookie.to_string())]).into_response()
}
