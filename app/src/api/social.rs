//! Server functions of friends and challenges (see `gapwise_model::social`).

use gapwise_model::{Challenge, Friend, K};
use leptos::prelude::*;

use crate::AppError;

/// The caller's friends and challenges.
#[server(endpoint = "friends")]
pub async fn friends_and_challenges() -> Result<(Vec<Friend>, Vec<Challenge>), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let me = require_session(&ctx.store).await?.player.id;
    Ok((ctx.store.social().friends(&me).await?, ctx.store.social().challenges(&me).await?))
}

/// Adds the player called `pseudonym` as a friend: their pairs come first in the game.
#[server(endpoint = "add-friend")]
pub async fn add_friend(pseudonym: String) -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let me = require_session(&ctx.store).await?.player.id;
    Ok(ctx.store.social().add_friend(&me, &pseudonym).await?)
}

/// Takes the player called `pseudonym` off the caller's friends.
#[server(endpoint = "remove-friend")]
pub async fn remove_friend(pseudonym: String) -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let me = require_session(&ctx.store).await?.player.id;
    Ok(ctx.store.social().remove_friend(&me, &pseudonym).await?)
}

/// Challenges the friend `pseudonym` to ten items with `k` sentences in `language`
/// and starts playing them.
#[server(endpoint = "challenge")]
pub async fn challenge_friend(
    pseudonym: String,
    k: K,
    #[server(default)] language: Option<String>,
) -> Result<gapwise_model::ChallengeId, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = super::language_of(language)?;
    let me = require_session(&ctx.store).await?.player.id;
    let id = ctx.store.social().create_challenge(&me, &pseudonym, k, language).await?;
    leptos_axum::redirect(&format!("/play?k={k}&lang={language}&challenge={id}"));
    Ok(id)
}
