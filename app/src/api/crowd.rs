//! Server functions of crowd studies: a participant's entry and progress, and the
//! admin's set-up (see `gapwise_model::crowd`).

use gapwise_model::{CrowdEntry, CrowdProgress};
use leptos::prelude::*;

use crate::AppError;

/// What study `study` asks of a participant, before they consent.
#[server(endpoint = "crowd-entry")]
pub async fn get_crowd_entry(study: String) -> Result<CrowdEntry, AppError> {
    use crate::ssr::context;
    use gapwise_model::StudyId;

    Ok(context()?.store.crowd().entry(&StudyId::new(study)).await?)
}

/// Starts the caller's assignment on `study` once they consented, with the
/// platform's participant and session ids, or resumes it in the browser that began
/// it, then sends them to the game: `None`. A completed assignment's re-entry gets
/// no session, only its completion code (`Some`), and goes back to the platform with
/// it. Someone else with the same participant id is refused (see
/// `gapwise_store::Crowd::enter_study`).
#[server(endpoint = "crowd-start")]
pub async fn crowd_start(
    study: String,
    participant: String,
    platform_session: String,
    consent: Option<String>,
) -> Result<Option<String>, AppError> {
    use crate::ssr::{context, current_session, set_session_cookie};
    use gapwise_model::StudyId;
    use gapwise_store::StudyEntry;

    let ctx = context()?;
    super::require_consent(consent.as_deref())?;
    let current = current_session(&ctx.store).await?.map(|s| s.player.id);
    match ctx.store.crowd().enter_study(&StudyId::new(study), &participant, &platform_session, current.as_ref()).await? {
        StudyEntry::Session(token) => {
            set_session_cookie(token, ctx.secure_cookies)?;
            leptos_axum::redirect("/play");
            Ok(None)
        }
        StudyEntry::Completed { redirect, code } => {
            leptos_axum::redirect(&redirect);
            Ok(Some(code))
        }
    }
}

/// How far the caller is in their crowd study; `None` outside one.
#[server(endpoint = "crowd-progress")]
pub async fn get_crowd_progress() -> Result<Option<CrowdProgress>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.crowd().progress(&session.player.id).await?)
}

/// Gives the caller's study back: its items go to other participants.
#[server(endpoint = "crowd-return")]
pub async fn crowd_return() -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.crowd().return_assignment(&session.player.id).await?)
}
