//! The home page: what Gapwise is for, and informed consent before play.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::StartPlaying;
use crate::components::{ActionError, ConsentBox, ConsentTerms, Done};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn Landing() -> impl IntoView {
    let start = ServerAction::<StartPlaying>::new();
    let query = use_query_map();
    let erased = move || query.read().get("erased").is_some();
    let i18n = use_i18n();
    view! {
        <Show when=erased>
            <p class="ok" role="status">{i18n.t(msg::LANDING_ERASED)}</p>
        </Show>
        <Done done="signed-out" message=msg::LANDING_SIGNED_OUT/>
        <section class="intro">
            <h1>{i18n.t(msg::LANDING_TITLE)}</h1>
            <p>{i18n.t(msg::LANDING_WHAT)}</p>
            <p>{i18n.t(msg::LANDING_WHY)}</p>
        </section>
        <section class="consent" aria-labelledby="consent-title">
            <h2 id="consent-title">{i18n.t(msg::CONSENT_TITLE)}</h2>
            <ConsentTerms/>
            <ActionForm action=start attr:class="consent-form">
                <ConsentBox/>
                <button type="submit" class="primary" id="start">{i18n.t(msg::NAV_PLAY)}</button>
            </ActionForm>
            <ActionError value=start.value()/>
        </section>
    }
}
