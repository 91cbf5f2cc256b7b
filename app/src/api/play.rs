//! Server functions of the main game: the state to show, answers, moving on, and
//! the player's progress.

use gapwise_model::{Feedback, PlayState, Round, K};
use leptos::prelude::*;

use crate::AppError;

/// A challenge id from a request; none when left out or blank.
#[cfg(feature = "ssr")]
fn challenge_of(raw: Option<String>) -> Option<gapwise_model::ChallengeId> {
    raw.as_deref().map(str::trim).filter(|c| !c.is_empty()).map(gapwise_model::ChallengeId::new)
}

/// What the player sees now with `k` sentences per item in `language` (English when
/// left out), or in `challenge`; serves an item if needed. A crowd participant
/// always gets their study's items; a k above the player's level comes back `Locked`.
#[server(endpoint = "play")]
pub async fn get_play_state(
    k: K,
    #[server(default)] language: Option<String>,
    #[server(default)] challenge: Option<String>,
) -> Result<PlayState, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.game().play(&session, k, language, challenge_of(challenge).as_ref()).await?)
}

/// Answers the item served as `answer_id` with the button at position `choice`
/// (0 or 1). `client_ms` is the browser-measured response time and `trial` what
/// the browser saw of the trial (`gapwise_model::Trial`); both empty without
/// JavaScript, when the server-measured time stands in. Idempotent.
#[server(endpoint = "answer")]
pub async fn submit_answer(
    answer_id: String,
    choice: usize,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
) -> Result<Feedback, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    Ok(ctx.engine.game().answer(&session, &gapwise_model::ServingId::new(answer_id), choice, reported).await?)
}

/// Leaves the feedback of the last answer for the next item.
#[server(endpoint = "next")]
pub async fn next_item() -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    ctx.engine.game().next_item(&session).await?;
    Ok(())
}

/// `answer`, then `play` with `k`, `language` and `challenge` once the player moved
/// on, in one request: the feedback, and the next item already served. For clients
/// that show the feedback with the next item ready (the load tool plays this way).
#[server(endpoint = "answer-next")]
pub async fn answer_and_next(
    answer_id: String,
    choice: usize,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
    k: K,
    #[server(default)] language: Option<String>,
    #[server(default)] challenge: Option<String>,
) -> Result<Round, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    play_round(&ctx, &session, (answer_id, choice, reported), k, language, challenge).await
}

/// `answer-next` with what the game page shows beside the item: the player's
/// progress and crowd study after the answer. The page's whole round in one
/// request when it runs JavaScript (without, it posts `answer` and `next`).
#[server(endpoint = "answer-round")]
pub async fn answer_round(
    answer_id: String,
    choice: usize,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
    k: K,
    #[server(default)] language: Option<String>,
    #[server(default)] challenge: Option<String>,
) -> Result<gapwise_model::PageRound, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    let round = play_round(&ctx, &session, (answer_id, choice, reported), k, language, challenge).await?;
    let progress = ctx.engine.game().progress_after(&session, round.feedback.score.answered).await?;
    let crowd = if session.in_crowd { ctx.store.crowd().progress(&session.player.id).await? } else { None };
    Ok(gapwise_model::PageRound { round, pseudonym: session.player.pseudonym, progress, crowd })
}

/// The answer (id, choice, what the browser reported) and the next play state.
#[cfg(feature = "ssr")]
async fn play_round(
    ctx: &crate::ssr::ServerContext,
    session: &gapwise_store::Session,
    answer: (String, usize, gapwise_model::Reported),
    k: K,
    language: Option<String>,
    challenge: Option<String>,
) -> Result<Round, AppError> {
    let language = super::language_of(language)?;
    let (serving, choice, reported) = answer;
    let answer = (&gapwise_model::ServingId::new(serving), choice, reported);
    Ok(ctx.engine.game().answer_and_play(session, answer, k, language, challenge_of(challenge).as_ref()).await?)
}

/// The caller's points, level, streaks and answers today.
#[server(endpoint = "progress")]
pub async fn get_progress() -> Result<gapwise_model::Progress, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.game().progress(&session.player.id).await?)
}
