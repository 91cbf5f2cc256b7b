//! The command line's one error type, for its commands and the model runs they
//! start: each layer's error as it came, or a problem with what was asked (an
//! argument, a file, a model) in words. `main` prints it and exits non-zero.

use gapwise_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Engine(#[from] gapwise_engine::EngineError),
    #[error(transparent)]
    Research(#[from] gapwise_research::ResearchError),
    #[error(transparent)]
    Prepare(#[from] gapwise_prepare::PrepareError),
    #[error(transparent)]
    Scorer(#[from] gapwise_scorer::ScorerError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("CSV: {0}")]
    Csv(#[from] csv::Error),
    #[error(transparent)]
    Backup(#[from] crate::backup::BackupError),
    #[error(transparent)]
    Arguments(#[from] clap::Error),
    #[error("the site's configuration: {0}")]
    Configuration(#[from] leptos::prelude::errors::LeptosConfigError),
    #[error("a progress bar: {0}")]
    Progress(#[from] indicatif::style::TemplateError),
    /// A count too large for where it goes (more than 2^63 of anything).
    #[error("a number out of range: {0}")]
    Range(#[from] std::num::TryFromIntError),
    /// A model run's thread panicked or was cancelled.
    #[error("a model run stopped: {0}")]
    Run(#[from] tokio::task::JoinError),
    /// What was asked cannot be done as asked: the words say why and what to do.
    #[error("{0}")]
    Invalid(String),
    /// A failure of the database `database` (a SQLite file's path, or "the PostgreSQL
    /// database"), whose own words (`source`) do not name it (see [`CliError::naming`]).
    #[error("{database}: {source}")]
    Database { database: String, source: Box<CliError> },
}

impl From<String> for CliError {
    fn from(message: String) -> Self {
        CliError::Invalid(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> Self {
        CliError::Invalid(message.to_owned())
    }
}

impl CliError {
    /// 2 when the command was refused for what it was given (a value that names
    /// nothing, a database that is not there, a file it cannot take: every
    /// `Invalid`), as for arguments that do not parse; 1 when it failed.
    pub fn exit_code(&self) -> u8 {
        use gapwise_research::ResearchError;
        let store = match self {
            CliError::Database { source, .. } => return source.exit_code(),
            CliError::Research(ResearchError::Invalid(_) | ResearchError::NotFound(_)) | CliError::Invalid(_) => return 2,
            CliError::Research(ResearchError::Store(e)) | CliError::Store(e) => e,
            _ => return 1,
        };
        match store {
            StoreError::Invalid(_) | StoreError::NotFound(_) | StoreError::Refused(_) | StoreError::Missing(_) => 2,
            _ => 1,
        }
    }

    /// Whether the database could not take the work now (the next start goes on).
    pub fn is_unavailable(&self) -> bool {
        match self {
            CliError::Store(e) => e.is_unavailable(),
            CliError::Database { source, .. } => source.is_unavailable(),
            _ => false,
        }
    }

    /// This error with the database it came from named (`database`), when the
    /// database itself failed (see [`StoreError::is_database_failure`]): a page of a
    /// SQLite file damaged in its middle, a lock, a full disk. Refusals name what they
    /// refuse already.
    pub fn naming(self, database: &str) -> CliError {
        use gapwise_research::ResearchError;
        let failed = match &self {
            CliError::Store(e) | CliError::Research(ResearchError::Store(e)) | CliError::Engine(gapwise_engine::EngineError::Store(e)) => {
                e.is_database_failure()
            }
            _ => false,
        };
        if failed {
            CliError::Database { database: database.to_owned(), source: Box::new(self) }
        } else {
            self
        }
    }
}
