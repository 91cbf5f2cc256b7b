//! Players propose word pairs for others to play and follow what became of them.

use gapwise_model::{Suggestion, SuggestionStatus, LANGUAGES};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::{my_suggestions, SuggestPair};
use crate::components::{ActionError, Done, ErrorNote};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn Suggest() -> impl IntoView {
    let suggest = ServerAction::<SuggestPair>::new();
    let mine = Resource::new(|| (), |_| my_suggestions());
    let i18n = use_i18n();
    view! {
        <Title text=i18n.t(msg::NAV_PROPOSE)/>
        <h1>{i18n.t(msg::SUGGEST_TITLE)}</h1>
        <p>{i18n.t(msg::SUGGEST_INTRO)}</p>
        <ActionForm action=suggest attr:class="suggest">
            <label>{i18n.t(msg::SUGGEST_LANGUAGE)} " "
                <select name="language">
                    {LANGUAGES.into_iter().map(|(code, name)| view! { <option value=code lang=code>{name}</option> }).collect_view()}
                </select>
            </label>
            <label>{i18n.t(msg::SUGGEST_TARGET)} " " <input type="text" name="target" required autocomplete="off"/></label>
            <label>{i18n.t(msg::SUGGEST_DISTRACTOR)} " " <input type="text" name="distractor" required autocomplete="off"/></label>
            <button type="submit" class="primary">{i18n.t(msg::NAV_PROPOSE)}</button>
        </ActionForm>
        <Done done="suggested" message=msg::SUGGEST_THANKS/>
        <ActionError value=suggest.value()/>
        <h2>{i18n.t(msg::SUGGEST_MINE)}</h2>
        <Transition fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match mine.await {
                    Ok(list) if list.is_empty() => view! { <p>{i18n.t(msg::NONE_YET)}</p> }.into_any(),
                    Ok(list) => view! { <ul class="suggestions">{list.into_iter().map(|s| view! { <SuggestionLine s/> }).collect_view()}</ul> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn SuggestionLine(s: Suggestion) -> impl IntoView {
    let status = s.status.as_str();
    let shown = use_i18n().t_with(msg::SUGGESTION_STATUS, &[("status", status.into())]);
    let note = match (s.status, s.reason) {
        (SuggestionStatus::Rejected, Some(reason)) => format!(": {reason}"),
        (SuggestionStatus::Approved, Some(edit)) => format!(" ({edit})"),
        _ => String::new(),
    };
    view! {
        <li>
            <strong>{s.target}</strong> " / " <strong>{s.distractor}</strong> " (" {s.language} ") "
            <span class=format!("status {status}")>{shown}</span>{note}
        </li>
    }
}
