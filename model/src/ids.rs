//! The ids that travel between layers, each its own type so that one cannot be
//! passed for another: a player's id is not a serving's, though both are text.
//! Each is made once where it enters (a session read, a stored row, a request) and
//! passed as it is from there.

use std::fmt;

/// A player's id (`annotators.id`): random, never shown; the pseudonym is what
/// others see.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
pub struct PlayerId(String);

impl PlayerId {
    pub fn new(id: impl Into<String>) -> PlayerId {
        PlayerId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
