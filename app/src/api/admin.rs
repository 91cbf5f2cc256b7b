//! Server functions of the admin page: the suggestions queue, item building, the
//! overview, gold items, redundancy and crowd studies. Admins only; every change
//! lands in the audit log.

use gapwise_model::{AdminOverview, K};
use leptos::prelude::*;

use crate::AppError;

/// Table sizes, pending suggestions and the latest audit entries.
#[server(endpoint = "admin-overview")]
pub async fn get_admin_overview() -> Result<AdminOverview, AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    Ok(ctx.store.admin().overview().await?)
}

/// Accepts suggestion `id` as a word pair, with the words as the admin left them.
#[server(endpoint = "approve-suggestion")]
pub async fn approve_suggestion(id: i64, target: String, distractor: String) -> Result<(), AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    ctx.store.suggestions().approve(&admin.name, id, &target, &distractor).await?;
    Ok(())
}

/// Turns suggestion `id` down, with a reason the proposer sees.
#[server(endpoint = "reject-suggestion")]
pub async fn reject_suggestion(id: i64, reason: String) -> Result<(), AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    Ok(ctx.store.suggestions().reject(&admin.name, id, &reason).await?)
}

/// Builds items for every active pair that has none; returns how many were made.
#[server(endpoint = "build-items")]
pub async fn build_items() -> Result<u64, AppError> {
    use crate::ssr::{back_with, context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    let built = ctx.store.admin().build_items_as(&admin.name).await?.items;
    back_with("notice", &crate::notice::Notice::Built { items: built }.code());
    Ok(built)
}

/// One page of a language's word pairs, newest first.
#[server(endpoint = "admin-pairs")]
pub async fn admin_pairs(language: String, page: i64) -> Result<Vec<gapwise_model::PairRow>, AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    Ok(ctx.store.admin().pair_rows(super::language_of(Some(language))?, page).await?)
}

/// Retires a pair (`active` false: its items are no longer served) or activates it.
#[server(endpoint = "set-pair-active")]
pub async fn set_pair_active(id: i64, active: bool) -> Result<(), AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    Ok(ctx.store.admin().set_pair_active(&admin.name, gapwise_model::PairId(id), active).await?)
}

/// Pair `pair` with its items (contexts, k, kind) and what they collected.
#[server(endpoint = "admin-pair-items")]
pub async fn admin_pair_items(pair: i64) -> Result<gapwise_model::PairItems, AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    let items = ctx.store.admin().pair_items(gapwise_model::PairId(pair)).await?;
    items.ok_or_else(|| AppError::NotFound(format!("there is no word pair {pair}")).with_status())
}

/// Marks item `id` gold (its answer verified: served to everyone, checks players)
/// or takes the mark off.
#[server(endpoint = "set-item-gold")]
pub async fn set_item_gold(id: i64, gold: bool) -> Result<(), AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    Ok(ctx.store.admin().set_item_gold(&admin.name, gapwise_model::ItemId(id), gold).await?)
}

/// Sets the per-item redundancy: answers an item collects before it retires.
#[server(endpoint = "set-answers-per-item")]
pub async fn set_answers_per_item(n: i64) -> Result<(), AppError> {
    use crate::ssr::{context, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    Ok(ctx.store.admin().set_answers_per_item(&admin.name, n).await?)
}

/// Sets up a crowd study; returns its id (its entry URL is on the admin page).
#[allow(clippy::too_many_arguments, reason = "a server function takes its form's fields one by one")]
#[server(endpoint = "create-study")]
pub async fn create_study(
    platform: String,
    name: String,
    k: K,
    language: String,
    items_target: i64,
    max_minutes: i64,
    #[server(default)] completion_code: String,
    #[server(default)] item_policy: String,
) -> Result<String, AppError> {
    use crate::ssr::{context, require_admin};
    use gapwise_model::{ItemPolicy, Platform};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    let platform = Platform::parse(&platform)
        .ok_or_else(|| AppError::BadRequest(format!("platform must be prolific or mturk, not {platform:?}")).with_status())?;
    let policy = match item_policy.trim() {
        "" => ItemPolicy::default(),
        code => ItemPolicy::parse(code)
            .ok_or_else(|| AppError::BadRequest(format!("item_policy must be fewest or information, not {code:?}")).with_status())?,
    };
    let language = super::language_of(Some(language))?;
    let study = gapwise_model::StudySettings { platform, name, k, language, items_target, max_minutes, completion_code, policy };
    Ok(ctx.store.crowd().create_study(&admin.name, &study).await?.to_string())
}
