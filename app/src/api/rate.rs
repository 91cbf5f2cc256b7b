//! Server functions of the rate mode: the next Likert item, and its rating.

use leptos::prelude::*;

use crate::AppError;

/// The next Likert item of `language` (English when left out) for the caller, or
/// `None` when they have rated every one that still needs raters.
#[server(endpoint = "rate-round")]
pub async fn rate_round(#[server(default)] language: Option<String>) -> Result<Option<gapwise_model::RateCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.rate().round(&session.player.id, language).await?)
}

/// Rates the Likert item served as `serving_id`: `position` 1 (surely the word at
/// the left of the scale) to 5 (surely the one at the right). `client_ms` and `trial` as for
/// answers. Returns what `rate-round` would for `language`: the page's next item
/// in the same request.
#[server(endpoint = "rate")]
pub async fn rate(
    serving_id: String,
    position: u8,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
    #[server(default)] language: Option<String>,
) -> Result<Option<gapwise_model::RateCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    ctx.engine.rate().rate(&session.player.id, &gapwise_model::ServingId::new(serving_id), position, reported).await?;
    Ok(ctx.engine.rate().round(&session.player.id, language).await?)
}
