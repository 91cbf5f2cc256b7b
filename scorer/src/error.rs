use std::path::PathBuf;

/// What can go wrong while loading a model or scoring; every variant names the
/// file or the input at fault.
#[derive(Debug, thiserror::Error)]
pub enum ScorerError {
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("{path}: unsupported architecture {arch:?} (supported: {supported})")]
    Architecture { path: PathBuf, arch: String, supported: String },
    #[error("invalid input: {0}")]
    Input(String),
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("model computation failed: {0}")]
    Tensor(#[from] candle_core::Error),
    /// A model behind a server that cannot be reached or does not answer as asked:
    /// the whole run stops (no item is at fault).
    #[error("model server: {0}")]
    Server(String),
}

impl ScorerError {
    pub(crate) fn file(path: &std::path::Path, message: impl std::fmt::Display) -> Self {
        ScorerError::File { path: path.to_owned(), message: message.to_string() }
    }
}
