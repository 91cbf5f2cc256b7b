//! The server side of the app: the context the server provides, the player and
//! staff session cookies, and the mapping of store errors to HTTP statuses.

use crate::i18n::{msg, Arg};
use axum::http::{header, HeaderValue, StatusCode};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use gapwise_engine::Engine;
use gapwise_store::{Refusal, RefusalKey, Role, Session, Staff, Store, StoreError, PLAYER_SESSION_DAYS, STAFF_SESSION_HOURS};
use leptos::prelude::*;
use leptos_axum::ResponseOptions;

use crate::address::{local_path, query_without, POSTED_ERROR};
use crate::AppError;

/// The session cookie: an opaque random token, HttpOnly and SameSite=Lax, kept as
/// long as the server keeps its session ([`PLAYER_SESSION_DAYS`]).
pub const SESSION_COOKIE: &str = "gapwise_session";
/// The staff session cookie: HttpOnly and SameSite=Strict (research pages are never
/// reached from another site with it), kept as long as the server keeps its session
/// at most ([`STAFF_SESSION_HOURS`]; the server ends it earlier when idle).
pub const STAFF_COOKIE: &str = "gapwise_staff";

/// What the server gives every server function and page render.
#[derive(Clone, Debug)]
pub struct ServerContext {
    pub store: Store,
    /// The game over `store` (its caches are this process's).
    pub engine: Engine,
    /// Mark cookies `Secure` (set when the site is served over TLS).
    pub secure_cookies: bool,
}

pub fn context() -> Result<ServerContext, AppError> {
    use_context::<ServerContext>().ok_or_else(|| {
        tracing::error!("ServerContext missing from the Leptos context");
        AppError::Internal
    })
}

/// Sends a plain form post back to the page it came from (its `Referer`, as Leptos
/// does) with `key=value` in that page's query, in place of any `done` or `notice`
/// there: so the page, rendered anew, says what the post did (Post/Redirect/Get).
/// The pages outside the islands post their forms as a browser without JavaScript.
pub fn back_with(key: &str, value: &str) {
    let Some(parts) = use_context::<axum::http::request::Parts>() else { return };
    let referer = parts.headers.get(header::REFERER).and_then(|v| v.to_str().ok());
    if let Some(page) = referer.and_then(|referer| page_saying(referer, key, value)) {
        leptos_axum::redirect(&page);
    }
}

/// Sends a refused plain form post of server function `S` back to its page with the
/// error (as Leptos does) and `key=value` in the page's query, so that the page can
/// keep what was typed (the pseudonym of a sign-in with a wrong password). Does
/// nothing for a request from a script (no HTML accepted, or no `Referer`).
pub fn refused_keeping<S: server_fn::ServerFn<Error = AppError>>(error: &AppError, key: &str, value: &str) {
    let Some(parts) = use_context::<axum::http::request::Parts>() else { return };
    let accepts_html = parts.headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/html"));
    let referer = parts.headers.get(header::REFERER).and_then(|v| v.to_str().ok());
    let Some(page) = referer.filter(|_| accepts_html).and_then(|referer| page_saying(referer, key, value)) else { return };
    // the error as Leptos encodes it, on a base that only lends the URL its form
    let with_error = server_fn::error::ServerFnUrlError::new(S::PATH, error.clone()).to_url(&format!("http://page{page}"));
    if let Ok(url) = with_error {
        leptos_axum::redirect(&format!("{}?{}", url.path(), url.query().unwrap_or_default()));
    }
}

/// The path and query of `referer` with `key=value` in place of its `done` and
/// `notice`: a page of this site (see [`crate::local_path`]), never `//elsewhere`.
fn page_saying(referer: &str, key: &str, value: &str) -> Option<String> {
    let (_, rest) = referer.split_once("://")?;
    let page = local_path(rest.get(rest.find('/')?..)?)?;
    let (path, query) = page.split_once('?').unwrap_or((page, ""));
    // and without the error of an earlier post that failed
    let dropped = [["done", "notice"].as_slice(), &POSTED_ERROR].concat();
    let query = query_without(query, &dropped).append_pair(key, value).finish();
    Some(format!("{path}?{query}"))
}

/// Sets the response's status (with `Retry-After` on a 503); not for a plain form post from a page, which Leptos
/// answers with a redirect back to its `Referer`, the error in the page's query for
/// it to show (a status set here would replace the redirect's). A post without a
/// page to go back to keeps its status.
fn set_status(status: StatusCode) {
    let plain_post = use_context::<axum::http::request::Parts>().is_some_and(|request| {
        let header = |name| request.headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).unwrap_or_default();
        let referer = header(header::REFERER);
        let from_page = referer.starts_with("http://") || referer.starts_with("https://");
        request.method == axum::http::Method::POST && header(header::ACCEPT).contains("text/html") && from_page
    });
    if plain_post {
        return;
    }
    if let Some(res) = use_context::<ResponseOptions>() {
        res.set_status(status);
        if status == StatusCode::SERVICE_UNAVAILABLE {
            res.insert_header(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
        }
    }
}

/// Seconds a client is asked to wait (`Retry-After`) before it retries a request
/// that got 503 because the database could not take it (busy, locked, out of room
/// or out of reach): a lock held by another program or a restart usually ends
/// within that, and the database's own wait for a lock is 10 s.
pub const RETRY_AFTER_SECONDS: u64 = 5;

impl AppError {
    /// Sets the response's status to this error's ([`AppError::status`]) and returns
    /// it: for the errors a server function builds itself (those from the store get
    /// theirs through `From`).
    pub fn with_status(self) -> Self {
        set_status(self.status());
        self
    }
}

/// The edge error of a store error, with the response's status set; a database
/// failure is logged here and never shown.
impl From<StoreError> for AppError {
    fn from(err: StoreError) -> Self {
        let err = match err {
            StoreError::NotFound(m) => AppError::NotFound(m),
            StoreError::Unauthorized(m) => AppError::Unauthorized(m),
            StoreError::Refused(r) => refused(&r, StatusCode::UNPROCESSABLE_ENTITY),
            StoreError::Missing(r) => refused(&r, StatusCode::NOT_FOUND),
            StoreError::Denied(r) => refused(&r, StatusCode::UNAUTHORIZED),
            e @ (StoreError::Invalid(_) | StoreError::Import(_)) => AppError::BadRequest(e.to_string()),
            e if e.is_unavailable() => {
                tracing::warn!("database unavailable: {e}");
                AppError::Unavailable(crate::i18n::detect().t(msg::ERROR_UNAVAILABLE))
            }
            // (a busy database is unavailable: the arm above takes it)
            e @ (StoreError::Busy(_)
            | StoreError::Db(_)
            | StoreError::Sqlite(_)
            | StoreError::Migrate(_)
            | StoreError::Io(_)
            | StoreError::Corrupt(_)
            | StoreError::Internal(_)) => {
                tracing::error!("store failed: {e}");
                AppError::Internal
            }
        };
        err.with_status()
    }
}

/// The edge error of an engine error, with the response's status set.
impl From<gapwise_engine::EngineError> for AppError {
    fn from(err: gapwise_engine::EngineError) -> Self {
        use gapwise_engine::EngineError;
        match err {
            EngineError::Store(e) => AppError::from(e),
            EngineError::NotServed(m) => AppError::NotFound(m).with_status(),
            EngineError::Invalid(m) => AppError::BadRequest(m).with_status(),
            EngineError::Refused(r) => AppError::from(StoreError::Refused(r)),
        }
    }
}

/// The edge error of a research error (an export or a report), with the response's
/// status set; a failed write is logged here and never shown.
impl From<gapwise_research::ResearchError> for AppError {
    fn from(err: gapwise_research::ResearchError) -> Self {
        use gapwise_research::ResearchError;
        match err {
            ResearchError::Store(e) => AppError::from(e),
            ResearchError::Invalid(m) => AppError::BadRequest(m).with_status(),
            ResearchError::NotFound(m) => AppError::NotFound(m).with_status(),
            e @ ResearchError::Write { .. } => {
                tracing::error!("research failed: {e}");
                AppError::Internal.with_status()
            }
        }
    }
}

/// A refusal with the status `status`, said in the language of the request (see
/// `i18n::detect`).
pub(crate) fn refused(r: &Refusal, status: StatusCode) -> AppError {
    refused_in(crate::i18n::detect(), r, status)
}

/// A refusal with the status `status`, said in `i18n`'s language: for responses made
/// outside a server function (the server's rate limits, with `i18n::of_headers`).
pub fn refused_in(i18n: crate::i18n::I18n, r: &Refusal, status: StatusCode) -> AppError {
    let args: Vec<(&'static str, Arg)> =
        r.args.iter().map(|(name, value)| (*name, value.parse::<i64>().map_or_else(|_| Arg::from(value.as_str()), Arg::from))).collect();
    let message = i18n.t_with(crate::i18n::refusal_message(r.key), &args);
    AppError::Refused { code: r.key, status: status.as_u16(), message }
}

/// For plain axum handlers (the export API): the error's status, its code in the
/// `gapwise-error` header, and its message as the body.
impl axum::response::IntoResponse for AppError {
    fn into_response(self) -> axum::response::Response {
        let mut response = (self.status(), [("gapwise-error", self.code())], self.to_string()).into_response();
        if self.status() == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
        }
        response
    }
}

/// The Content-Security-Policy of a page: scripts only with this response's nonce
/// (leptos_axum makes one per request and puts it on its hydration scripts) and
/// what those load ('strict-dynamic'), the wasm module, nothing from other sites,
/// no plugins, no frames. Other responses get `frame-ancestors 'none'` from the
/// server's guards.
pub fn set_content_security_policy() {
    let (Some(nonce), Some(response)) = (leptos::nonce::use_nonce(), use_context::<ResponseOptions>()) else {
        return;
    };
    let policy = format!(
        "default-src 'self'; script-src 'nonce-{}' 'strict-dynamic' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        &*nonce
    );
    match HeaderValue::from_str(&policy) {
        Ok(value) => response.insert_header(header::CONTENT_SECURITY_POLICY, value),
        Err(e) => tracing::error!("content security policy: {e}"),
    }
}

async fn cookie_value(name: &str) -> Option<String> {
    let jar: CookieJar = leptos_axum::extract().await.ok()?;
    jar.get(name).map(|c| c.value().to_owned())
}

/// The caller's session, if the cookie names a live one.
pub async fn current_session(store: &Store) -> Result<Option<Session>, AppError> {
    match session_token().await {
        Some(token) => Ok(store.players().session(&token).await?),
        None => Ok(None),
    }
}

/// The caller's player session token, if the request carries one.
pub async fn session_token() -> Option<String> {
    cookie_value(SESSION_COOKIE).await
}

/// The caller's staff session token, if the request carries one.
pub async fn staff_token() -> Option<String> {
    cookie_value(STAFF_COOKIE).await
}

/// The staff member a request's credentials name (an API token, `bearer`, for
/// scripts, else the staff cookie) when their role may do what `needed` may.
/// Otherwise the refusal in the words of what was asked: 403 for a player's cookie
/// or a researcher on an admin's page, 401 for anyone else.
pub async fn staff_of(store: &Store, bearer: Option<&str>, jar: &CookieJar, needed: Role) -> Result<Staff, AppError> {
    let staff = if let Some(token) = bearer {
        let staff = store.staff().for_token(token).await?;
        Some(staff.ok_or_else(|| AppError::Unauthorized("unknown API token".into()).with_status())?)
    } else {
        match jar.get(STAFF_COOKIE) {
            Some(cookie) => store.staff().session(cookie.value()).await?,
            None => None,
        }
    };
    if let Some(staff) = staff {
        return if needed == Role::Researcher || staff.role == Role::Admin {
            Ok(staff)
        } else {
            Err(AppError::Forbidden("only admins may do this: researchers may use the research page".into()).with_status())
        };
    }
    let player = match jar.get(SESSION_COOKIE) {
        Some(cookie) => store.players().session(cookie.value()).await?.is_some(),
        None => false,
    };
    Err(staff_refusal(player, needed))
}

/// The researcher or admin signed in on this browser, or 401 (nobody signed in) or
/// 403 (a player).
pub async fn require_staff(store: &Store) -> Result<Staff, AppError> {
    let jar: CookieJar = leptos_axum::extract().await.unwrap_or_default();
    staff_of(store, None, &jar, Role::Researcher).await
}

/// The signed-in admin, or 401 (nobody signed in) or 403 (a player or a researcher).
pub async fn require_admin(store: &Store) -> Result<Staff, AppError> {
    let jar: CookieJar = leptos_axum::extract().await.unwrap_or_default();
    staff_of(store, None, &jar, Role::Admin).await
}

/// The refusal of a staff page or export to someone with no staff session: 403 for
/// a player, 401 for anyone else, in the words of the page asked for.
fn staff_refusal(player: bool, needed: Role) -> AppError {
    match (player, needed) {
        (true, Role::Researcher) => AppError::Forbidden("players cannot see research data".into()).with_status(),
        (true, Role::Admin) => AppError::Forbidden("players cannot use the admin pages".into()).with_status(),
        (false, Role::Researcher) => {
            AppError::Unauthorized("sign in as a researcher or an admin to see research data".into()).with_status()
        }
        (false, Role::Admin) => AppError::Unauthorized("sign in as an admin to use the admin pages".into()).with_status(),
    }
}

/// The caller's session, or 401.
pub async fn require_session(store: &Store) -> Result<Session, AppError> {
    let no_session =
        || refused(&Refusal::new(RefusalKey::NoSession, "no session: start a game first"), StatusCode::UNAUTHORIZED).with_status();
    current_session(store).await?.ok_or_else(no_session)
}

/// Sends the player session cookie with the response.
pub fn set_session_cookie(token: String, secure: bool) -> Result<(), AppError> {
    set_cookie(SESSION_COOKIE, token, SameSite::Lax, cookie::time::Duration::days(PLAYER_SESSION_DAYS), secure)
}

/// Removes the player session cookie (after erasure, on signing out).
pub fn clear_session_cookie(secure: bool) -> Result<(), AppError> {
    set_cookie(SESSION_COOKIE, String::new(), SameSite::Lax, cookie::time::Duration::ZERO, secure)
}

/// Sends the staff session cookie with the response; an empty token with zero
/// lifetime removes it (sign out).
pub fn set_staff_cookie(token: String, secure: bool) -> Result<(), AppError> {
    let age = if token.is_empty() { 0 } else { STAFF_SESSION_HOURS };
    set_cookie(STAFF_COOKIE, token, SameSite::Strict, cookie::time::Duration::hours(age), secure)
}

/// The interface-language cookie (see `i18n`): a year, for every page.
pub fn language_cookie(code: &'static str, secure: bool) -> Cookie<'static> {
    cookie(crate::i18n::LANGUAGE_COOKIE, code.to_owned(), SameSite::Lax, cookie::time::Duration::days(365), secure)
}

/// Every cookie of the site: for all paths, out of reach of scripts.
fn cookie(name: &'static str, value: String, same_site: SameSite, max_age: cookie::time::Duration, secure: bool) -> Cookie<'static> {
    Cookie::build((name, value)).path("/").http_only(true).same_site(same_site).secure(secure).max_age(max_age).build()
}

fn set_cookie(
    name: &'static str,
    token: String,
    same_site: SameSite,
    max_age: cookie::time::Duration,
    secure: bool,
) -> Result<(), AppError> {
    let cookie = cookie(name, token, same_site, max_age, secure);
    let value = HeaderValue::from_str(&cookie.to_string()).map_err(|_| AppError::Internal)?;
    let response = use_context::<ResponseOptions>().ok_or_else(|| {
        tracing::error!("ResponseOptions missing: cannot set a cookie");
        AppError::Internal
    })?;
    response.append_header(header::SET_COOKIE, value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::page_saying;

    #[test]
    fn a_post_goes_back_to_its_page_on_this_site_saying_what_it_did() {
        let back = |referer| page_saying(referer, "done", "suggested");
        assert_eq!(back("http://localhost:3000/suggest").as_deref(), Some("/suggest?done=suggested"));
        assert_eq!(back("https://g.example/admin?lang=fr&done=old&page=2").as_deref(), Some("/admin?lang=fr&page=2&done=suggested"));
        assert_eq!(
            page_saying("http://h/admin?notice=1+built.", "notice", "2 items built.").as_deref(),
            Some("/admin?notice=2+items+built.")
        );
        assert_eq!(back("http://h/my-data?__path=/api/feedback&__err=x&done=old").as_deref(), Some("/my-data?done=suggested"));
        assert_eq!(back("http://h//evil.example/x"), None, "never to another site");
        assert_eq!(back("http://h/\\evil.example/x"), None, "nor as browsers read a backslash");
        assert_eq!(back("http://h"), None);
        assert_eq!(back("suggest"), None);
    }
}
