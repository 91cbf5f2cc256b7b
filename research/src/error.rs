//! The research side's one error type.

use gapwise_store::StoreError;

/// Everything that can go wrong in an export or a report. The HTTP edge maps these to
/// statuses: the store's errors as the store's, `Invalid` 422, `NotFound` 404, and
/// `Write` 500 (logged, never shown: the server's fault, not the request's).
#[derive(Debug, thiserror::Error)]
pub enum ResearchError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An option that names something the data does not have (a sentence source).
    #[error("{0}")]
    Invalid(String),
    /// Something asked for that is not there (a curve item without answers).
    #[error("{0}")]
    NotFound(String),
    /// Writing a file or stream of the export or report failed.
    #[error("writing the {what} failed: {message}")]
    Write { what: &'static str, message: String },
}
