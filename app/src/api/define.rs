//! Server functions of the word-definition game (W2D and D2W).

use gapwise_model::{DefinitionCard, DefinitionPick, WithNext};
use leptos::prelude::*;

use crate::AppError;

/// The caller's round of `task` (`w2d` or `d2w`) from groups of at most `cap`
/// members (5, 10 or 20), or `None` when they have played every such group.
#[server(endpoint = "define-round")]
pub async fn define_round(task: String, cap: u32) -> Result<Option<DefinitionCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let (task, cap) = round_of(&task, cap)?;
    Ok(ctx.engine.define().round(&session.player.id, task, cap).await?)
}

/// Picks the option at `position` (0 = first shown) of the round `serving_id`.
/// `client_ms` and `trial` as for the game's answers. Picking an option twice is harmless.
/// With the page's `task` and `cap`, the outcome brings what `define-round`
/// would return next (this round while it goes on): one request a pick.
#[server(endpoint = "define-pick")]
pub async fn pick_define(
    serving_id: String,
    position: usize,
    client_ms: Option<String>,
    #[server(default)] trial: Option<String>,
    #[server(default)] task: Option<String>,
    #[server(default)] cap: Option<u32>,
) -> Result<WithNext<DefinitionPick, DefinitionCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let reported = super::reported_of(client_ms, trial)?;
    let round = task.zip(cap).map(|(task, cap)| round_of(&task, cap)).transpose()?;
    let given = ctx.engine.define().pick(&session.player.id, &gapwise_model::ServingId::new(serving_id), position, reported).await?;
    let next = match round {
        Some((task, cap)) => ctx.engine.define().round(&session.player.id, task, cap).await?,
        None => None,
    };
    Ok(WithNext { given, next })
}

/// A round's task and cap as asked for, checked.
#[cfg(feature = "ssr")]
fn round_of(task: &str, cap: u32) -> Result<(gapwise_model::DefinitionTask, u32), AppError> {
    use gapwise_model::{DefinitionTask, DEFINITION_CAPS};

    let bad = |message: String| AppError::BadRequest(message).with_status();
    let task = DefinitionTask::parse(task).ok_or_else(|| bad(format!("task must be w2d or d2w, not {task:?}")))?;
    if !DEFINITION_CAPS.contains(&cap) {
        return Err(bad(format!("cap must be one of {DEFINITION_CAPS:?}, not {cap}")));
    }
    Ok((task, cap))
}
