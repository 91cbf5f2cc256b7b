//! The serving lookup every mode's round shares (the rule for answer times is
//! [`gapwise_model::Timing`]).

use std::future::Future;

use super::StoreError;

/// The serving a round shows: the one the player has open (`open`), else a new
/// one that `serve` draws and stores (false when nothing is left for them, so
/// `None`; it runs only when nothing is open). Two tabs serving at once both store
/// theirs with ON CONFLICT DO NOTHING and both show the one that `open` finds
/// afterwards; when it finds none, the race was lost and the player is asked to
/// try again.
pub(crate) async fn open_or_serve<Open>(
    open: impl Fn() -> Open,
    serve: impl Future<Output = Result<bool, StoreError>>,
) -> Result<Option<String>, StoreError>
where
    Open: Future<Output = Result<Option<String>, StoreError>>,
{
    if let Some(serving) = open().await? {
        return Ok(Some(serving));
    }
    if !serve.await? {
        return Ok(None);
    }
    open().await?.map(Some).ok_or_else(StoreError::busy)
}
