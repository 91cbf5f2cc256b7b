//! Server functions of the research pages: staff sign-in and sign-out (accounts are
//! made with `gapwise add-staff`), and the report the research page shows.

use gapwise_model::{AnswerFilter, Report};
use leptos::prelude::*;

use crate::AppError;

/// Signs a researcher or admin in and sends the browser to the research page.
#[server(endpoint = "staff-login")]
pub async fn staff_login(name: String, password: String) -> Result<(), AppError> {
    use crate::ssr::{context, set_staff_cookie};

    let ctx = context()?;
    let token = ctx.store.staff().login(&name, &password).await?;
    set_staff_cookie(token, ctx.secure_cookies)?;
    leptos_axum::redirect("/research");
    Ok(())
}

/// Ends the staff session of this browser.
#[server(endpoint = "staff-logout")]
pub async fn staff_logout() -> Result<(), AppError> {
    use crate::ssr::{context, set_staff_cookie, staff_token};

    let ctx = context()?;
    if let Some(token) = staff_token().await {
        ctx.store.staff().end_session(&token).await?;
    }
    set_staff_cookie(String::new(), ctx.secure_cookies)?;
    leptos_axum::redirect("/staff");
    Ok(())
}

/// The paper's tables and figures for the answers `filter` selects (all when it is
/// left out), with every scored model; researchers and admins only.
#[server(endpoint = "research-report")]
pub async fn research_report(
    #[server(default)] filter: AnswerFilter,
    #[server(default)] curve_item: Option<i64>,
) -> Result<Report, AppError> {
    use crate::ssr::{context, require_staff};

    let ctx = context()?;
    require_staff(&ctx.store).await?;
    let models = ctx.store.research().scored_models().await?;
    let options = gapwise_model::ReportOptions { drop_sources: Vec::new(), curve_item: curve_item.map(gapwise_model::ItemId) };
    Ok(gapwise_research::report::build_report(&ctx.store, &models, &filter, &options).await?)
}
