//! Playing a crowd platform's study: its k and language until its items are
//! answered, then back to the platform; idle assignments give their items back.

use std::sync::atomic::Ordering;

use gapwise_model::{ItemPolicy, PlayState};
use gapwise_store::{now_ms, Session};

use super::item_choice::Source;
use super::play::Current;
use crate::engine::Engine;
use crate::error::EngineError;

/// How often the game's requests sweep for abandoned assignments, at most.
const SWEEP_EVERY_MS: i64 = 1_000;

impl Engine {
    /// The game for a crowd participant: the study's k and language until they
    /// answered its items, then the way back to the platform; once they gave it
    /// back (or let it time out), what to do there. The caller swept abandoned
    /// assignments.
    pub(crate) async fn play_assignment(&self, session: &Session) -> Result<Option<PlayState>, EngineError> {
        let annotator = &session.player.id;
        let Some(a) = self.store.crowd().assignment(annotator).await? else { return Ok(None) };
        let now = now_ms();
        match a.status.as_str() {
            "active" if session.score.answered >= a.items_target => self.store.crowd().complete_assignment(annotator, now).await?,
            "active" => {
                self.store.crowd().touch_assignment(annotator, now).await?;
                let source = match a.policy {
                    ItemPolicy::FewestHolders => Source::Open,
                    ItemPolicy::MostInformation => Source::Informed,
                };
                return self.play_state_from(session, a.k, a.lang, source).await.map(Some);
            }
            "completed" => {}
            _ => return Ok(Some(PlayState::Returned { platform: a.platform })),
        }
        // the end of the study, after the last answer's feedback (which a page loaded
        // after a plain form post shows until the participant moves on)
        Ok(Some(match self.current(session).await? {
            Some(Current::Answered(feedback)) => feedback,
            _ => a.completed(),
        }))
    }

    /// [`gapwise_store::Crowd::reclaim_abandoned`] when this process has not run it
    /// for a second: every request for the game's state calls this, and study time
    /// limits are minutes.
    pub(crate) async fn sweep_abandoned(&self) -> Result<(), EngineError> {
        let (now, last) = (now_ms(), self.swept_at.load(Ordering::Relaxed));
        if now - last < SWEEP_EVERY_MS || self.swept_at.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err() {
            return Ok(());
        }
        Ok(self.store.crowd().reclaim_abandoned().await.map(drop)?)
    }
}
