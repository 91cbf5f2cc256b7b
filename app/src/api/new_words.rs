//! Server functions of the invented-word game (WinoDict).

use gapwise_model::{NewWordsCard, NewWordsPick, WithNext};
use leptos::prelude::*;

use crate::AppError;

/// The caller's open item, else a new one; `None` when they have met every item.
#[server(endpoint = "new-words-round")]
pub async fn new_words_round() -> Result<Option<NewWordsCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.new_words().round(&session.player.id).await?)
}

/// Answers the item `serving_id` with option `choice` (0 = the first shown).
/// `client_ms` and `trial` as for the game's answers. Answering twice changes nothing. The
/// outcome brings what `new-words-round` would return next: one request an item.
#[server(endpoint = "new-words-pick")]
pub async fn pick_new_words(
    serving_id: String,
    choice: usize,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
) -> Result<WithNext<NewWordsPick, NewWordsCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    let given = ctx.engine.new_words().pick(&session.player.id, &gapwise_model::ServingId::new(serving_id), choice, reported).await?;
    Ok(WithNext { given, next: ctx.engine.new_words().round(&session.player.id).await? })
}
