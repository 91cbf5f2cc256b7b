//! Likert rounds (`/rate?lang=xx`): one sentence with a blank, rated on a five-point
//! scale from "surely <left word>" to "surely <right word>" (Section 6 of the paper).

use gapwise_store::model::{parse_language, LikertCard, DEFAULT_LANGUAGE};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::{likert_next, Rate};
use crate::components::{keyboard_shortcuts, response_clock, ActionError, Contexts, ErrorNote, LanguageChooser};

#[component]
pub fn RatePage() -> impl IntoView {
    let query = use_query_map();
    let language = Memo::new(move |_| query.read().get("lang").and_then(|raw| parse_language(&raw)).unwrap_or(DEFAULT_LANGUAGE));
    let rate = ServerAction::<Rate>::new();
    let card = Resource::new(move || (language.get(), rate.version().get()), |(language, _)| likert_next(Some(language.to_owned())));
    keyboard_shortcuts();
    view! {
        <h1>"Rate sentences"</h1>
        <LanguageChooser language base=Signal::stored("/rate?".to_owned())/>
        <p>"How sure are you which word was in the blank? There is no time limit, and no right answer is shown."</p>
        <Transition fallback=|| view! { <p class="loading">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match card.await {
                    Ok(Some(card)) => view! { <Scale card rate/> }.into_any(),
                    Ok(None) => view! { <p class="exhausted">"No sentence in this language needs your rating now. Thank you!"</p> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> <p><a href="/">"Start on the home page"</a></p> }.into_any(),
                }
            })}
        </Transition>
        <ActionError value=rate.value()/>
    }
}

/// The sentence and the five buttons of the scale.
#[component]
fn Scale(card: LikertCard, rate: ServerAction<Rate>) -> impl IntoView {
    let (client_ms, stamp) = response_clock();
    let labels = [
        format!("surely {}", card.left),
        format!("probably {}", card.left),
        "can't tell".to_owned(),
        format!("probably {}", card.right),
        format!("surely {}", card.right),
    ];
    let pending = rate.pending();
    view! {
        <p class="status"><span class="score">{card.rated} " rated"</span></p>
        <ActionForm action=rate attr:class="item likert">
            <input type="hidden" name="serving_id" value=card.serving_id/>
            <input type="hidden" name="client_ms" value="" node_ref=client_ms/>
            <Contexts contexts=vec![card.context]/>
            <p class="prompt" id="scale-prompt">"Which word was in the blank?"</p>
            <div class="scale" role="group" aria-labelledby="scale-prompt">
                {labels.into_iter().enumerate().map(|(i, label)| view! {
                    <button type="submit" name="position" value=(i + 1).to_string() class="option" data-key=(i + 1).to_string()
                        on:click=stamp disabled=pending>
                        <kbd>{i + 1}</kbd> " " {label}
                    </button>
                }).collect_view()}
            </div>
        </ActionForm>
    }
}
