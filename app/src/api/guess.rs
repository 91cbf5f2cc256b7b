//! Server functions of the next-word game (the "Shannon game").

use gapwise_model::{GuessCard, GuessResult, WithNext};
use leptos::prelude::*;

use crate::AppError;

/// The caller's sentence in `language` (English when left out) in `mode` (`type`,
/// or `choose` for a model's suggestions as well), or `None` when none is left.
#[server(endpoint = "guess-round")]
pub async fn guess_round(#[server(default)] language: Option<String>, mode: String) -> Result<Option<GuessCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let mode = mode_of(&mode)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.guess().round(&session.player.id, language, mode).await?)
}

/// Guesses word `position` (1 = the second word) of the sentence `serving_id`:
/// `guess` as typed, or `rank`, the 1-based place of a suggestion picked.
/// `client_ms` and `trial` as for the game's answers. Guessing a position twice is harmless.
/// With the page's `mode` (and `language`), the outcome brings what `guess-round`
/// would return next (this sentence while it goes on): one request a guess.
#[allow(clippy::too_many_arguments, reason = "a server function takes its form's fields one by one")]
#[server(endpoint = "guess")]
pub async fn guess_word(
    serving_id: String,
    position: usize,
    #[server(default)] guess: Option<String>,
    #[server(default)] rank: Option<usize>,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
    #[server(default)] language: Option<String>,
    #[server(default)] mode: Option<String>,
) -> Result<WithNext<GuessResult, GuessCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    let language = super::language_of(language)?;
    let mode = mode.as_deref().map(mode_of).transpose()?;
    let guess = guess.unwrap_or_default();
    let given =
        ctx.engine.guess().guess(&session.player.id, &gapwise_model::ServingId::new(serving_id), position, &guess, rank, reported).await?;
    let next = match mode {
        Some(mode) => ctx.engine.guess().round(&session.player.id, language, mode).await?,
        None => None,
    };
    Ok(WithNext { given, next })
}

/// A guessing mode as asked for, checked.
#[cfg(feature = "ssr")]
fn mode_of(mode: &str) -> Result<gapwise_model::GuessMode, AppError> {
    gapwise_model::GuessMode::parse(mode)
        .ok_or_else(|| AppError::BadRequest(format!("mode must be type or choose, not {mode:?}")).with_status())
}
