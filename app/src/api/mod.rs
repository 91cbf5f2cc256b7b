//! Server functions: the game's HTTP API, called by the pages' islands and, as
//! plain form posts, by the pages' other forms and browsers without JavaScript. Endpoints are fixed (no hash
//! suffix) so that scripts and tests can call them: `POST /api/<endpoint>`.

use leptos::prelude::*;

use crate::AppError;

mod admin;
mod cloze;
mod crowd;
mod define;
mod guess;
mod new_words;
mod play;
mod rate;
mod rights;
mod social;
mod staff;
pub use admin::*;
pub use cloze::*;
pub use crowd::*;
pub use define::*;
pub use guess::*;
pub use new_words::*;
pub use play::*;
pub use rate::*;
pub use rights::*;
pub use social::*;
pub use staff::*;

/// Starts playing: records consent, creates a pseudonymous annotator and its
/// session cookie (or keeps the current one), then sends the browser to /play.
#[server(endpoint = "start")]
pub async fn start_playing(consent: Option<String>) -> Result<(), AppError> {
    use crate::ssr::{context, current_session, set_session_cookie};
    use gapwise_store::CONSENT_VERSION;

    let ctx = context()?;
    require_consent(consent.as_deref())?;
    if current_session(&ctx.store).await?.is_none() {
        let annotator = ctx.store.players().create_player(CONSENT_VERSION).await?;
        let token = ctx.store.players().create_session(&annotator.id).await?;
        set_session_cookie(token, ctx.secure_cookies)?;
    }
    leptos_axum::redirect("/play");
    Ok(())
}

/// Whether the demo's model preparation is still to make material of `mode` in
/// `language`, and if so how long that will take: a page whose material it makes
/// says "being prepared" rather than "none left".
#[server(endpoint = "being-prepared")]
pub async fn being_prepared(mode: gapwise_model::Mode, language: String) -> Result<Option<gapwise_model::Waiting>, AppError> {
    use crate::ssr::context;
    use gapwise_model::{minutes_to_wait, Pending, Waiting};

    let store = &context()?.store;
    let pending = Pending(store.first_start().steps_to_prepare().await?);
    let Some(ahead) = pending.waiting_for(mode, language_of(Some(language))?) else { return Ok(None) };
    let since = store.first_start().preparing_since().await?.unwrap_or_else(gapwise_store::now_ms);
    let minutes = minutes_to_wait(ahead, pending.done(), gapwise_store::now_ms() - since);
    Ok(Some(Waiting { ahead, minutes }))
}

/// Refuses a start form whose consent box was not ticked (422), before anything is stored.
#[cfg(feature = "ssr")]
pub(crate) fn require_consent(consent: Option<&str>) -> Result<(), AppError> {
    match consent {
        Some(_) => Ok(()),
        None => {
            let refusal = gapwise_model::Refusal::new(gapwise_model::RefusalKey::Consent, "consent is needed to play");
            Err(crate::ssr::refused(&refusal, axum::http::StatusCode::UNPROCESSABLE_ENTITY).with_status())
        }
    }
}

/// The language a request names: one of the game's, English when left out. The
/// one place a request's language is parsed; the engine and the store take it as is.
#[cfg(feature = "ssr")]
pub(crate) fn language_of(raw: Option<String>) -> Result<gapwise_model::Language, AppError> {
    use gapwise_model::{Language, LANGUAGES};

    match raw.as_deref().map(str::trim) {
        None | Some("") => Ok(Language::En),
        Some(code) => Language::parse(code).ok_or_else(|| {
            AppError::BadRequest(format!("language must be one of {}, not {code:?}", LANGUAGES.map(|(c, _)| c).join(", "))).with_status()
        }),
    }
}

/// A browser-measured time from a form: empty when it was not measured.
#[cfg(feature = "ssr")]
fn client_ms_of(raw: Option<String>) -> Result<Option<i64>, AppError> {
    gapwise_model::parse_client_ms(raw.as_deref().unwrap_or_default()).map_err(|message| AppError::BadRequest(message).with_status())
}

/// What a browser reported with an answer: its time and its trial's form field
/// (see `gapwise_model::Trial`), each empty when not measured.
#[cfg(feature = "ssr")]
pub(crate) fn reported_of(client_ms: Option<String>, trial: Option<String>) -> Result<gapwise_model::Reported, AppError> {
    let trial =
        gapwise_model::Trial::parse(trial.as_deref().unwrap_or_default()).map_err(|message| AppError::BadRequest(message).with_status())?;
    Ok(gapwise_model::Reported { client_ms: client_ms_of(client_ms)?, trial })
}

/// The caller's pseudonym, if they have a game session.
#[server(endpoint = "whoami")]
pub async fn whoami() -> Result<Option<String>, AppError> {
    use crate::ssr::{context, current_session};

    let ctx = context()?;
    Ok(current_session(&ctx.store).await?.map(|s| s.player.pseudonym))
}

/// Sets the password that lets the player resume on another device, or changes it:
/// one set before must be given as `current` (empty or left out when there is none).
/// The player's other devices are signed out; this one stays signed in.
#[server(endpoint = "set-password")]
pub async fn set_password(password: String, #[server(default)] current: Option<String>) -> Result<(), AppError> {
    use crate::ssr::{back_with, context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let current = current.as_deref().filter(|typed| !typed.is_empty());
    ctx.store.players().change_password(&session, current, &password).await?;
    back_with("done", "password");
    Ok(())
}

/// Resumes a pseudonym's play on this device.
#[server(endpoint = "login")]
pub async fn log_in(pseudonym: String, password: String) -> Result<(), AppError> {
    use crate::ssr::{context, set_session_cookie};

    let ctx = context()?;
    let token = match ctx.store.players().login(&pseudonym, &password).await {
        Ok(token) => token,
        Err(e) => {
            // the page comes back with the pseudonym still typed in
            let error = AppError::from(e);
            crate::ssr::refused_keeping::<LogIn>(&error, "pseudonym", &pseudonym);
            return Err(error);
        }
    };
    set_session_cookie(token, ctx.secure_cookies)?;
    leptos_axum::redirect("/play");
    Ok(())
}

/// Ends this device's play session and sends the browser home, which says so. The pseudonym and
/// its answers stay; only a password set before lets its player come back to it.
#[server(endpoint = "logout")]
pub async fn log_out() -> Result<(), AppError> {
    use crate::ssr::{clear_session_cookie, context, session_token};

    let ctx = context()?;
    if let Some(token) = session_token().await {
        ctx.store.players().delete_session(&token).await?;
    }
    clear_session_cookie(ctx.secure_cookies)?;
    leptos_axum::redirect("/?done=signed-out");
    Ok(())
}

/// The public leaderboard of `period`: the best players by pseudonym, and the
/// scored models.
#[server(endpoint = "leaderboard")]
pub async fn leaderboard(period: gapwise_model::Period) -> Result<Vec<gapwise_model::Standing>, AppError> {
    use crate::ssr::context;

    let ctx = context()?;
    Ok(ctx.store.game().leaderboard(period).await?)
}

/// Proposes a word pair for others to play, after instant checks (two different
/// single words, both in our sentences, not in the game or proposed already).
#[server(endpoint = "suggest")]
pub async fn suggest_pair(
    target: String,
    distractor: String,
    #[server(default)] language: Option<String>,
) -> Result<gapwise_model::Suggestion, AppError> {
    use crate::ssr::{back_with, context, require_session};

    let ctx = context()?;
    let language = language_of(language)?;
    let session = require_session(&ctx.store).await?;
    let suggestion = ctx.store.suggestions().suggest_pair(&session.player.id, language, &target, &distractor).await?;
    back_with("done", "suggested");
    Ok(suggestion)
}

/// The player's proposals and where they stand, newest first.
#[server(endpoint = "my-suggestions")]
pub async fn my_suggestions() -> Result<Vec<gapwise_model::Suggestion>, AppError> {
    use crate::ssr::{context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    Ok(ctx.store.suggestions().of(&session.player.id).await?)
}
