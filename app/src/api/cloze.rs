//! Server functions of the cloze game: a sentence with one word blanked, the word
//! typed, and what the answer was.

use gapwise_model::{ClozeCard, ClozeResult};
use leptos::prelude::*;

use crate::AppError;

/// The caller's cloze sentence in `language` (English when left out): the one they
/// have not answered yet, else a new one; `None` when none is left for them.
#[server(endpoint = "cloze-round")]
pub async fn cloze_round(#[server(default)] language: Option<String>) -> Result<Option<ClozeCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.cloze().round(&session.player.id, language).await?)
}

/// Answers the cloze sentence served as `serving_id` with the word `typed`:
/// whether it was right, the word, and a model's top words there. `client_ms` and
/// `trial` as for the game's answers. A serving takes one answer; a second is told
/// as the first. A plain form post (no JavaScript) comes back to its page with
/// `answered=<serving_id>` in the query, where the page shows what `cloze-told` says.
#[server(endpoint = "cloze-answer")]
pub async fn cloze_answer(
    serving_id: String,
    #[server(default)] typed: Option<String>,
    #[server(default)] client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
) -> Result<ClozeResult, AppError> {
    use crate::ssr::{back_with, context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    let serving = gapwise_model::ServingId::new(serving_id);
    let result = ctx.engine.cloze().answer(&session.player.id, &serving, &typed.unwrap_or_default(), reported).await?;
    back_with("answered", serving.as_str());
    Ok(result)
}

/// What the caller was told of their answer to the cloze sentence served as
/// `serving_id`; `None` while it has no answer (404 when it is not theirs).
#[server(endpoint = "cloze-told")]
pub async fn cloze_told(serving_id: String) -> Result<Option<ClozeResult>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.cloze().told(&session.player.id, &gapwise_model::ServingId::new(serving_id)).await?)
}
