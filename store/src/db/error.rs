use std::fmt;

/// A problem on one line of an imported file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number in the file.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Everything that can go wrong in the store. The HTTP edge maps these to statuses:
/// `NotFound` 404, `Invalid` and `Import` 422, `Unauthorized` 401, `Db` and
/// `Migrate` 500 (logged, never shown).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("the file was not imported; {} problem(s):\n{}", .0.len(), join_lines(.0))]
    Import(Vec<LineError>),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

fn join_lines(errors: &[LineError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}
