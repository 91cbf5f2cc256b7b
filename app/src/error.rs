//! The one error type at the HTTP edge. Its message is what the user reads, in
//! their language for what players meet (see `gapwise_store::Refusal`); causes of
//! internal errors are logged on the server and never sent.

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    /// The request is malformed or breaks a rule (HTTP 400/422).
    #[error("{0}")]
    BadRequest(String),
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
                // Arguments that do not parse are the client's fault: 400, not 500.
                #[cfg(feature = "ssr")]
                if let Some(res) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
                    res.set_status(axum::http::StatusCode::BAD_REQUEST);
                }
                AppError::BadRequest(format!("malformed request: {m}"))
            }
            ServerFnErrorErr::Request(m) | ServerFnErrorErr::Response(m) => {
                AppError::BadRequest(crate::i18n::detect().t_with("error-unreachable", &[("detail", m.into())]))
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
