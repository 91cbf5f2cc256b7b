//! The five rounds beside the main game: next-word guessing ([`guess`]), definitions
//! ([`define`]), invented words ([`new_words`]), rating ([`rate`]) and the cloze
//! game ([`cloze`]). Each file holds
//! its mode's rules: which round to serve, and what an answer is worth. The store
//! reads and writes their rows. Every mode serves through [`open_or_serve`] and
//! takes answers through [`answer`].

mod cloze;
mod define;
mod guess;
mod new_words;
mod rate;

pub use cloze::Cloze;
pub use define::Define;
pub use guess::Guess;
pub use new_words::NewWords;
pub use rate::Rate;

use std::future::Future;

use gapwise_model::{PlayerId, Reported, ServingId, Timing, Trial};
use gapwise_store::{now_ms, Store, StoreError};

use crate::error::EngineError;

/// The serving a round shows: the one the player has open (`open`), else a new
/// one that `serve` draws and stores (false when nothing is left for them, so
/// `None`; it runs only when nothing is open). Two tabs serving at once both try to
/// store theirs (each mode's insert stores nothing where the player has that round
/// already) and both show the one that `open` finds afterwards; when it finds none,
/// the race was lost and the player is asked to try again.
async fn open_or_serve<Open, Serve>(open: impl Fn() -> Open, serve: impl FnOnce() -> Serve) -> Result<Option<ServingId>, EngineError>
where
    Open: Future<Output = Result<Option<ServingId>, StoreError>>,
    Serve: Future<Output = Result<bool, EngineError>>,
{
    if let Some(serving) = open().await? {
        return Ok(Some(serving));
    }
    if !serve().await? {
        return Ok(None);
    }
    open().await?.map(Some).ok_or_else(|| StoreError::busy().into())
}

/// What the rules make of an answer.
#[derive(Debug, PartialEq)]
enum Judged<Row, Outcome> {
    /// It repeats one given before, and is told the same; nothing is stored.
    Repeated(Outcome),
    /// A new answer: its row to store, and what the player is told.
    New(Row, Outcome),
}

/// A mode's answers: how its serving is read, judged and its answer stored.
trait Answers {
    /// A serving as read for an answer to it, with the answers given to it so far.
    type Serving;
    /// What the player sends.
    type Given;
    /// What is stored of an answer.
    type Row;
    /// What the player is told.
    type Outcome;
    /// What a serving is, in a refusal: "a sentence".
    const SERVED: &'static str;

    fn served_at(serving: &Self::Serving) -> i64;

    /// Refuses what no serving of the mode could take (a rating of 7), before any
    /// serving is read.
    fn check(_given: &Self::Given) -> Result<(), EngineError> {
        Ok(())
    }

    /// Serving `serving` of `annotator`, with what judging `given` needs of it;
    /// `None` when it is not theirs.
    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, given: &Self::Given) -> Result<Option<Self::Serving>, StoreError>;

    /// The game's rules: an answer given before is told as then; a new one is
    /// checked and judged.
    fn judge(serving: &Self::Serving, given: &Self::Given) -> Result<Judged<Self::Row, Self::Outcome>, EngineError>;

    /// Stores `row`, the answer of `annotator` to `serving`; false when another
    /// request's answer took its place first.
    /// `timing` and `trial` are what the answer measured.
    async fn write(
        store: &Store,
        player: &PlayerId,
        serving: &ServingId,
        row: &Self::Row,
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError>;
}

/// The refusal of `serving` where it is not one of mode `M`'s servings of the player.
fn not_served<M: Answers>(serving: &ServingId) -> EngineError {
    EngineError::NotServed(format!("{:?} is not {} served to you", serving.as_str(), M::SERVED))
}

/// Every mode's answer to one of its servings: a value no serving takes refused
/// (422), the player's serving or a refusal (404), then the rules' judgement. A repeated answer is told as the first time,
/// and so is one that lost the race to store against a second tab's (the serving
/// is read again and judged again).
async fn answer<M: Answers>(
    store: &Store,
    player: &PlayerId,
    serving: &ServingId,
    given: M::Given,
    reported: Reported,
) -> Result<M::Outcome, EngineError> {
    M::check(&given)?;
    for _ in 0..2 {
        let read = M::read(store, player, serving, &given).await?;
        let read = read.ok_or_else(|| not_served::<M>(serving))?;
        match M::judge(&read, &given)? {
            Judged::Repeated(outcome) => return Ok(outcome),
            Judged::New(row, outcome) => {
                let timing = Timing::of(M::served_at(&read), now_ms(), reported.client_ms);
                if M::write(store, player, serving, &row, timing, reported.trial).await? {
                    return Ok(outcome);
                }
            }
        }
    }
    Err(StoreError::busy().into())
}
