//! The one error type at the HTTP edge. Its message is what the user reads, in
//! their language for what players meet (see `gapwise_model::Refusal`); causes of
//! internal errors are logged on the server and never sent. Each error has a stable
//! code a client can act on ([`AppError::code`]): a refusal's own (`max_friends`),
//! else its kind's (`not_found`). Server functions send the error as JSON, the
//! variant's name and fields (a refusal's `code` among them); plain handlers send
//! the message as the body and the code in the `gapwise-error` header.

use crate::i18n::msg;
use gapwise_model::RefusalKey;
use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    /// The request's arguments do not parse (HTTP 400).
    #[error("{0}")]
    Malformed(String),
    /// The request breaks a rule (HTTP 422).
    #[error("{0}")]
    BadRequest(String),
    /// A rule a player ran into, said in their language: `code` names it for
    /// clients; `status` is 422 (a rule), 404 (missing) or 401 (denied).
    #[error("{message}")]
    Refused { code: RefusalKey, status: u16, message: String },
    /// No session, or wrong credentials (HTTP 401).
    #[error("{0}")]
    Unauthorized(String),
    /// Signed in, but not allowed to do this (HTTP 403).
    #[error("{0}")]
    Forbidden(String),
    /// The thing asked for does not exist for this user (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// The database cannot take the request now (unreachable, or out of room);
    /// nothing was stored and a retry later may work (HTTP 503).
    #[error("{0}")]
    Unavailable(String),
    /// Our fault (HTTP 500); the cause is in the server log.
    #[error("something went wrong on our side; please try again")]
    Internal,
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            ServerFnErrorErr::Args(m) | ServerFnErrorErr::Deserialization(m) => {
                // arguments that do not parse are the client's fault: 400, not 500
                let err = AppError::Malformed(format!("malformed request: {m}"));
                #[cfg(feature = "ssr")]
                let err = err.with_status();
                err
            }
            ServerFnErrorErr::Request(m) | ServerFnErrorErr::Response(m) => {
                AppError::BadRequest(crate::i18n::detect().t_with(msg::ERROR_UNREACHABLE, &[("detail", m.into())]))
            }
            other => {
                #[cfg(feature = "ssr")]
                tracing::error!("server function failed: {other}");
                let _ = other;
                AppError::Internal
            }
        }
    }
}

impl AppError {
    /// This error as a page may show it when it came in the page's address (Leptos
    /// puts a refused plain form post's error in `?__err=`, and anyone can write a
    /// link with any `__err`): rebuilt from its kind and code alone, each said by a
    /// message of the catalogues in the page's language, so that no words of the
    /// address reach the page. A refusal keeps its code and its status when that is
    /// one a refusal has (401, 404, 422).
    pub fn from_address(self) -> AppError {
        let i18n = crate::i18n::detect();
        match self {
            AppError::Refused { code, status, .. } => AppError::Refused {
                code,
                status: if [401, 404, 422].contains(&status) { status } else { 422 },
                message: i18n.t(crate::i18n::refusal_message_alone(code)),
            },
            AppError::Malformed(_) => AppError::Malformed(i18n.t(msg::ERROR_REFUSED)),
            AppError::BadRequest(_) => AppError::BadRequest(i18n.t(msg::ERROR_REFUSED)),
            AppError::Unauthorized(_) => AppError::Unauthorized(i18n.t(msg::ERROR_UNAUTHORIZED)),
            AppError::Forbidden(_) => AppError::Forbidden(i18n.t(msg::ERROR_FORBIDDEN)),
            AppError::NotFound(_) => AppError::NotFound(i18n.t(msg::ERROR_NOT_FOUND)),
            AppError::Unavailable(_) => AppError::Unavailable(i18n.t(msg::ERROR_UNAVAILABLE)),
            AppError::Internal => AppError::Internal,
        }
    }

    /// The error's stable code on the wire (see the module).
    pub fn code(&self) -> &'static str {
        match self {
            AppError::Malformed(_) => "malformed",
            AppError::BadRequest(_) => "bad_request",
            AppError::Refused { code, .. } => code.code(),
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden(_) => "forbidden",
            AppError::NotFound(_) => "not_found",
            AppError::Unavailable(_) => "unavailable",
            AppError::Internal => "internal",
        }
    }
}

#[cfg(feature = "ssr")]
impl AppError {
    /// The HTTP status each error stands for: the one place it is decided.
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            AppError::Malformed(_) => StatusCode::BAD_REQUEST,
            AppError::BadRequest(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Refused { status, .. } => StatusCode::from_u16(*status).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}
