use crate::i18n::msg;
use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
        res.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    let i18n = crate::i18n::use_i18n();
    view! {
        <h1>{i18n.t(msg::NOT_FOUND_TITLE)}</h1>
        <p><a href="/">{i18n.t(msg::NOT_FOUND_BACK)}</a></p>
    }
}
