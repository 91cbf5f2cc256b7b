use std::path::{Path, PathBuf};

/// What can go wrong while reading data to prepare; every variant names the file or
/// the input at fault.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("{0}")]
    Input(String),
}

impl PrepareError {
    pub(crate) fn file(path: &Path, message: impl std::fmt::Display) -> Self {
        PrepareError::File { path: path.to_owned(), message: message.to_string() }
    }
}
