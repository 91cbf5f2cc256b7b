//! Server functions: the game's HTTP API, called by the hydrated pages and, as
//! plain form posts, by browsers without JavaScript. Endpoints are fixed (no hash
//! suffix) so that scripts and tests can call them: `POST /api/<endpoint>`.

use gapwise_model::{Feedback, PlayState, Round};
use leptos::prelude::*;

use crate::AppError;

mod admin;
mod crowd;
mod define;
mod guess;
mod rights;
mod social;
mod staff;
mod new_words;
pub use admin::*;
pub use crowd::*;
pub use define::*;
pub use guess::*;
pub use rights::*;
pub use social::*;
pub use staff::*;
pub use new_words::*;


/// Starts playing: records consent, creates a pseudonymous annotator and its
/// session cookie (or keeps the current one), then sends the browser to /play.
#[server(endpoint = "start")]
pub async fn start_playing(consent: Option<String>) -> Result<(), AppError> {
    use crate::ssr::{context, current_session, set_session_cookie};
    use gapwise_store::CONSENT_VERSION;

    let ctx = context()?;
    require_consent(consent.as_deref())?;
    if current_session(&ctx.store).await?.is_none() {
        let annotator = ctx.store.create_annotator(CONSENT_VERSION).await?;
        let token = ctx.store.create_session(&annotator.id).await?;
        set_session_cookie(token, ctx.secure_cookies)?;
    }
    leptos_axum::redirect("/play");
    Ok(())
}

/// Refuses a start form whose consent box was not ticked (422), before anything is stored.
#[cfg(feature = "ssr")]
pub(crate) fn require_consent(consent: Option<&str>) -> Result<(), AppError> {
    match consent {
        Some(_) => Ok(()),
        None => Err(AppError::BadRequest(crate::i18n::detect().t("error-consent")).with_status()),
    }
}

/// A language code from a request: one of the game's, English when left out.
#[cfg(feature = "ssr")]
pub(crate) fn language_of(raw: Option<String>) -> Result<&'static str, AppError> {
    use gapwise_model::{parse_language, DEFAULT_LANGUAGE, LANGUAGES};

    match raw.as_deref().map(str::trim) {
        None | Some("") => Ok(DEFAULT_LANGUAGE),
        Some(code) => parse_language(code).ok_or_else(|| {
            AppError::BadRequest(format!("language must be one of {}, not {code:?}", LANGUAGES.map(|(c, _)| c).join(", "))).with_status()
        }),
    }
}

/// A challenge id from a request; none when left out or blank.
#[cfg(feature = "ssr")]
fn challenge_of(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|c| !c.is_empty())
}

/// A browser-measured time from a form: empty when it was not measured.
#[cfg(feature = "ssr")]
fn client_ms_of(raw: Option<String>) -> Result<Option<i64>, AppError> {
    gapwise_model::parse_client_ms(raw.as_deref().unwrap_or_default())
        .map_err(|message| AppError::BadRequest(message).with_status())
}

/// What the player sees now with `k` sentences per item in `language` (English when
/// left out), or in `challenge`; serves an item if needed. A crowd participant
/// always gets their study's items; a k above the player's level comes back `Locked`.
#[server(endpoint = "play")]
pub async fn get_play_state(
    k: u8,
    #[server(default)] language: Option<String>,
    #[server(default)] challenge: Option<String>,
) -> Result<PlayState, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.play(&session, k, language, challenge_of(challenge.as_deref())).await?)
}

/// Answers the item served as `answer_id` with the button at position `choice`
/// (0 or 1). `client_ms` is the browser-measured response time; empty without
/// JavaScript, when the server-measured time stands in for it. Idempotent.
#[server(endpoint = "answer")]
pub async fn submit_answer(answer_id: String, choice: usize, client_ms: Option<String>) -> Result<Feedback, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let client_ms = client_ms_of(client_ms)?;
    Ok(ctx.engine.answer(&session, &answer_id, choice, client_ms).await?)
}

/// Leaves the feedback of the last answer for the next item.
#[server(endpoint = "next")]
pub async fn next_item() -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    ctx.engine.next_item(&session).await?;
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
    k: u8,
    #[server(default)] language: Option<String>,
    #[server(default)] challenge: Option<String>,
) -> Result<Round, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = language_of(language)?;
    let client_ms = client_ms_of(client_ms)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.answer_and_play(&session, (&answer_id, choice, client_ms), k, language, challenge_of(challenge.as_deref())).await?)
}

/// The caller's pseudonym, if they have a game session.
#[server(endpoint = "whoami")]
pub async fn whoami() -> Result<Option<String>, AppError> {
    use crate::ssr::{context, current_session};

    let ctx = context()?;
    Ok(current_session(&ctx.store).await?.map(|s| s.annotator.pseudonym))
}

/// Sets a password so that the player can resume on another device.
#[server(endpoint = "set-password")]
pub async fn set_password(password: String) -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.set_password(&session.annotator.id, &password).await?)
}

/// Resumes a pseudonym's play on this device.
#[server(endpoint = "login")]
pub async fn log_in(pseudonym: String, password: String) -> Result<(), AppError> {
    use crate::ssr::{context, set_session_cookie};

    let ctx = context()?;
    let token = ctx.store.login(&pseudonym, &password).await?;
    set_session_cookie(token, ctx.secure_cookies)?;
    leptos_axum::redirect("/play");
    Ok(())
}

/// The public leaderboard of `period`: the best players by pseudonym, and the
/// scored models.
#[server(endpoint = "leaderboard")]
pub async fn leaderboard(period: gapwise_model::Period) -> Result<Vec<gapwise_model::Standing>, AppError> {
    use crate::ssr::{context};

    let ctx = context()?;
    Ok(ctx.store.leaderboard(period).await?)
}

/// Proposes a word pair for others to play, after instant checks (two different
/// single words, both in our sentences, not in the game or proposed already).
#[server(endpoint = "suggest")]
pub async fn suggest_pair(
    target: String,
    distractor: String,
    #[server(default)] language: Option<String>,
) -> Result<gapwise_model::Suggestion, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.suggest_pair(&session.annotator.id, language, &target, &distractor).await?)
}

/// The player's proposals and where they stand, newest first.
#[server(endpoint = "my-suggestions")]
pub async fn my_suggestions() -> Result<Vec<gapwise_model::Suggestion>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.suggestions_of(&session.annotator.id).await?)
}

/// The next Likert item of `language` (English when left out) for the caller, or
/// `None` when they have rated every one that still needs raters.
#[server(endpoint = "likert-next")]
pub async fn likert_next(#[server(default)] language: Option<String>) -> Result<Option<gapwise_model::LikertCard>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let language = language_of(language)?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.next_likert(&session.annotator.id, language).await?)
}

/// Rates the Likert item served as `serving_id`: `position` 1 (surely the word at
/// the left of the scale) to 5 (surely the one at the right). `client_ms` as for answers.
#[server(endpoint = "rate")]
pub async fn rate(serving_id: String, position: u8, client_ms: Option<String>) -> Result<(), AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let client_ms = client_ms_of(client_ms)?;
    Ok(ctx.store.rate_likert(&session.annotator.id, &serving_id, position, client_ms).await?)
}

/// The caller's points, level, streaks and answers today.
#[server(endpoint = "progress")]
pub async fn get_progress() -> Result<gapwise_model::Progress, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.engine.progress(&session.annotator.id).await?)
}
