//! Server functions of the admin page: the suggestions queue, item building and
//! the overview. Admins only; every change lands in the audit log.

use gapwise_store::model::AdminOverview;
use leptos::prelude::*;

use crate::AppError;

/// Table sizes, pending suggestions and the latest audit entries.
#[server(endpoint = "admin-overview")]
pub async fn get_admin_overview() -> Result<AdminOverview, AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    ctx.store.admin_overview().await.map_err(fail)
}

/// Accepts suggestion `id` as a word pair, with the words as the admin left them.
#[server(endpoint = "approve-suggestion")]
pub async fn approve_suggestion(id: i64, target: String, distractor: String) -> Result<(), AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    ctx.store.approve_suggestion(&admin.name, id, &target, &distractor).await.map_err(fail)?;
    Ok(())
}

/// Turns suggestion `id` down, with a reason the proposer sees.
#[server(endpoint = "reject-suggestion")]
pub async fn reject_suggestion(id: i64, reason: String) -> Result<(), AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    ctx.store.reject_suggestion(&admin.name, id, &reason).await.map_err(fail)
}

/// Builds items for every active pair that has none; returns how many were made.
#[server(endpoint = "build-items")]
pub async fn build_items() -> Result<u64, AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    Ok(ctx.store.build_items_as(&admin.name).await.map_err(fail)?.items)
}

/// One page of a language's word pairs, newest first.
#[server(endpoint = "admin-pairs")]
pub async fn admin_pairs(language: String, page: i64) -> Result<Vec<gapwise_store::model::PairRow>, AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    ctx.store.pair_rows(&language, page).await.map_err(fail)
}

/// Retires a pair (`active` false: its items are no longer served) or activates it.
#[server(endpoint = "set-pair-active")]
pub async fn set_pair_active(id: i64, active: bool) -> Result<(), AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    let admin = require_admin(&ctx.store).await?;
    ctx.store.set_pair_active(&admin.name, id, active).await.map_err(fail)
}

/// Pair `pair` with its items (contexts, k, kind) and what they collected.
#[server(endpoint = "admin-pair-items")]
pub async fn admin_pair_items(pair: i64) -> Result<gapwise_store::model::PairItems, AppError> {
    use crate::ssr::{context, fail, require_admin};

    let ctx = context()?;
    require_admin(&ctx.store).await?;
    ctx.store
        .pair_items(pair)
        .await
        .map_err(fail)?
        .ok_or_else(|| fail(gapwise_store::StoreError::NotFound(format!("there is no word pair {pair}"))))
}
