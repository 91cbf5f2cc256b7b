//! Server functions of the word-definition game (W2D and D2W).

use gapwise_model::{DefinitionCard, DefinitionPick};
use leptos::prelude::*;

use crate::AppError;

/// The caller's round of `task` (`w2d` or `d2w`) from groups of at most `cap`
/// members (5, 10 or 20), or `None` when they have played every such group.
#[server(endpoint = "definition-round")]
pub async fn definition_round(task: String, cap: u32) -> Result<Option<DefinitionCard>, AppError> {
    use crate::ssr::{context, require_session};
        use gapwise_model::{DefinitionTask, DEFINITION_CAPS};

    let ctx = context()?;
    let bad = |message: String| AppError::BadRequest(message).with_status();
    let task = DefinitionTask::parse(&task).ok_or_else(|| bad(format!("task must be w2d or d2w, not {task:?}")))?;
    if !DEFINITION_CAPS.contains(&cap) {
        return Err(bad(format!("cap must be one of {DEFINITION_CAPS:?}, not {cap}")));
    }
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.definition_round(&session.annotator.id, task, cap).await?)
}

/// Picks the option at `position` (0 = first shown) of the round `serving_id`.
/// `client_ms` as for the game's answers. Picking an option twice is harmless.
#[server(endpoint = "definition-pick")]
pub async fn pick_definition(serving_id: String, position: usize, client_ms: Option<String>) -> Result<DefinitionPick, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let client_ms = super::client_ms_of(client_ms)?;
    Ok(ctx.store.pick_definition(&session.annotator.id, &serving_id, position, client_ms).await?)
}
