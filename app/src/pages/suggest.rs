//! Players propose word pairs for others to play and follow what became of them.

use gapwise_store::model::{Suggestion, SuggestionStatus, LANGUAGES};
use leptos::prelude::*;

use crate::api::{my_suggestions, SuggestPair};
use crate::components::{ActionError, ErrorNote};

#[component]
pub fn Suggest() -> impl IntoView {
    let suggest = ServerAction::<SuggestPair>::new();
    let mine = Resource::new(move || suggest.version().get(), |_| my_suggestions());
    let sent = move || matches!(suggest.value().get(), Some(Ok(_)));
    view! {
        <h1>"Propose a word pair"</h1>
        <p>"Two words that could fill the same blank, like " <em>"two / three"</em> " or " <em>"red / green"</em>
           ". Sentences with the first word are shown with it blanked, and players guess which of the two it was. "
           "The hardest pairs, the ones people cannot tell apart, are the most valuable."</p>
        <ActionForm action=suggest attr:class="suggest">
            <label>"Language "
                <select name="language">
                    {LANGUAGES.into_iter().map(|(code, name)| view! { <option value=code lang=code>{name}</option> }).collect_view()}
                </select>
            </label>
            <label>"Word in the sentences " <input type="text" name="target" required autocomplete="off"/></label>
            <label>"Other word " <input type="text" name="distractor" required autocomplete="off"/></label>
            <button type="submit" class="primary">"Propose"</button>
        </ActionForm>
        <Show when=sent><p class="ok" role="status">"Thank you: an admin will look at it."</p></Show>
        <ActionError value=suggest.value()/>
        <h2>"Your proposals"</h2>
        <Transition fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match mine.await {
                    Ok(list) if list.is_empty() => view! { <p>"None yet."</p> }.into_any(),
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
    let note = match (s.status, s.reason) {
        (SuggestionStatus::Rejected, Some(reason)) => format!(": {reason}"),
        (SuggestionStatus::Approved, Some(edit)) => format!(" ({edit})"),
        _ => String::new(),
    };
    view! {
        <li>
            <strong>{s.target}</strong> " / " <strong>{s.distractor}</strong> " (" {s.language} ") "
            <span class=format!("status {status}")>{status}</span>{note}
        </li>
    }
}
