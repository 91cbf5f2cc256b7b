//! Server functions of a player's rights: everything stored about them (also as a
//! download: `GET /api/my-data`), erasing it all, and feedback.

use gapwise_model::MyData;
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::AppError;

/// What a player types to confirm erasure: the word of their interface language
/// (`erase-word`: "erase", "borrar", "effacer", "cancella", "удалить"), in any case;
/// the English word is taken in every language too.
pub fn confirms_erasure(typed: &str, word: &str) -> bool {
    let typed = typed.trim().to_lowercase();
    typed == word.to_lowercase() || typed == "erase"
}

/// Everything stored about the caller. Also a plain GET, which a link downloads as
/// `gapwise-my-data.json`.
#[server(endpoint = "my-data", input = GetUrl)]
pub async fn fetch_my_data(#[server(default)] download: bool) -> Result<MyData, AppError> {
    use crate::ssr::{context, require_session};
    use axum::http::{header, HeaderValue};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let data = ctx.store.rights().my_data(&session.player.id).await?;
    if download {
        if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
            res.insert_header(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"gapwise-my-data.json\""));
        }
    }
    Ok(data)
}

/// Erases every record of the caller (answers, ratings, proposals, feedback,
/// sessions, the pseudonym) once they typed the confirmation word
/// ([`confirms_erasure`]); irreversible.
#[server(endpoint = "erase-me")]
pub async fn erase_me(confirm: String) -> Result<(), AppError> {
    use crate::i18n::msg;
    use crate::ssr::{clear_session_cookie, context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    let i18n = crate::i18n::detect();
    let word = i18n.t(msg::ERASE_WORD);
    if !confirms_erasure(&confirm, &word) {
        return Err(AppError::BadRequest(i18n.t_with(msg::ERROR_ERASE_CONFIRM, &[("word", word.into())])).with_status());
    }
    let erased = ctx.store.rights().erase(&session.player.id).await?;
    tracing::info!(rows = erased.rows, "a player erased their data");
    clear_session_cookie(ctx.secure_cookies)?;
    leptos_axum::redirect("/?erased=1");
    Ok(())
}

/// Leaves a message for the team (1 to 2,000 characters).
#[server(endpoint = "feedback")]
pub async fn send_feedback(message: String) -> Result<(), AppError> {
    use crate::ssr::{back_with, context, require_session};

    let ctx = context()?;
    let session = require_session(&ctx.store).await?;
    ctx.store.rights().leave_feedback(&session.player.id, &message).await?;
    back_with("done", "feedback");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::confirms_erasure;

    #[test]
    fn the_confirmation_is_the_players_word_or_the_english_one() {
        assert!(confirms_erasure(" Удалить ", "удалить"));
        assert!(confirms_erasure("erase", "удалить"));
        assert!(!confirms_erasure("delete", "effacer"));
        assert!(!confirms_erasure("", "borrar"));
    }
}
