//! The server side of the app: the context the server provides, the session
//! cookie, and the mapping of store errors to HTTP statuses.

use axum::http::{header, HeaderValue, StatusCode};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use gapwise_store::{Session, Store, StoreError};
use leptos::prelude::*;
use leptos_axum::ResponseOptions;

use crate::AppError;

/// The session cookie: an opaque random token, HttpOnly and SameSite=Lax.
pub const SESSION_COOKIE: &str = "gapwise_session";
const SESSION_MAX_AGE_DAYS: i64 = 365;

/// What the server gives every server function and page render.
#[derive(Clone, Debug)]
pub struct ServerContext {
    pub store: Store,
    /// Mark cookies `Secure` (set when the site is served over TLS).
    pub secure_cookies: bool,
}

pub fn context() -> Result<ServerContext, AppError> {
    use_context::<ServerContext>().ok_or_else(|| {
        tracing::error!("ServerContext missing from the Leptos context");
        AppError::Internal
    })
}

fn set_status(status: StatusCode) {
    if let Some(res) = use_context::<ResponseOptions>() {
        res.set_status(status);
    }
}

/// The status and edge error of a store error; a database failure is logged here.
pub fn classify(err: StoreError) -> (StatusCode, AppError) {
    match err {
        StoreError::NotFound(m) => (StatusCode::NOT_FOUND, AppError::NotFound(m)),
        StoreError::Unauthorized(m) => (StatusCode::UNAUTHORIZED, AppError::Unauthorized(m)),
        e @ (StoreError::Invalid(_) | StoreError::Import(_)) => {
            (StatusCode::UNPROCESSABLE_ENTITY, AppError::BadRequest(e.to_string()))
        }
        e @ (StoreError::Db(_) | StoreError::Migrate(_)) => {
            tracing::error!("store failed: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, AppError::Internal)
        }
    }
}

/// Converts a store error into the edge error, setting the response status.
pub fn fail(err: StoreError) -> AppError {
    let (status, err) = classify(err);
    set_status(status);
    err
}

impl From<StoreError> for AppError {
    fn from(err: StoreError) -> Self {
        fail(err)
    }
}

/// For plain axum handlers (the export API): the status each error stands for, and
/// its message as the body.
impl axum::response::IntoResponse for AppError {
    fn into_response(self) -> axum::response::Response {
        let status = match &self {
            AppError::BadRequest(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, self.to_string()).into_response()
    }
}

/// A 4xx error built at the edge itself.
pub fn reject(status: StatusCode, err: AppError) -> AppError {
    set_status(status);
    err
}

async fn session_token() -> Option<String> {
    let jar: CookieJar = leptos_axum::extract().await.ok()?;
    jar.get(SESSION_COOKIE).map(|c| c.value().to_owned())
}

/// The caller's session, if the cookie names a live one.
pub async fn current_session(store: &Store) -> Result<Option<Session>, AppError> {
    match session_token().await {
        Some(token) => store.session(&token).await.map_err(fail),
        None => Ok(None),
    }
}

/// The caller's session, or 401.
pub async fn require_session(store: &Store) -> Result<Session, AppError> {
    current_session(store).await?.ok_or_else(|| {
        reject(
            StatusCode::UNAUTHORIZED,
            AppError::Unauthorized("no game session: start on the home page".into()),
        )
    })
}

/// Sends the session cookie with the response.
pub fn set_session_cookie(token: String, secure: bool) -> Result<(), AppError> {
    let cookie = Cookie::build((SESSION_COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(cookie::time::Duration::days(SESSION_MAX_AGE_DAYS))
        .build();
    let value = HeaderValue::from_str(&cookie.to_string()).map_err(|_| AppError::Internal)?;
    let response = use_context::<ResponseOptions>().ok_or_else(|| {
        tracing::error!("ResponseOptions missing: cannot set the session cookie");
        AppError::Internal
    })?;
    response.append_header(header::SET_COOKIE, value);
    Ok(())
}
