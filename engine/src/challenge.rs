//! Playing inside a challenge between two friends: its items, in order.

use gapwise_model::{ChallengeId, PlayState};
use gapwise_store::Session;

use super::item_choice::Source;
use crate::engine::Engine;
use crate::error::EngineError;

impl Engine {
    /// The game inside challenge `id`, which `session`'s player must be part of.
    pub(crate) async fn play_challenge(&self, session: &Session, id: &ChallengeId) -> Result<PlayState, EngineError> {
        let (k, lang) = self.store.social().challenge_game(id, &session.player.id).await?;
        self.play_state_from(session, k, lang, Source::Challenge(id)).await
    }
}
