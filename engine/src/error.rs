//! The engine's one error type.

use gapwise_store::{Refusal, StoreError};

/// Everything that can go wrong in the game engine. The HTTP edge maps these to
/// statuses: the store's errors as the store's, `NotServed` 404, `Invalid` and `Refused` 422.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An answer to an item that was not served to the player.
    #[error("{0}")]
    NotServed(String),
    /// A request the game's rules do not allow (a choice out of range), from a script.
    #[error("{0}")]
    Invalid(String),
    /// What a player typed that the rules do not take (a guess too long), told in their language.
    #[error("{0}")]
    Refused(Refusal),
}
