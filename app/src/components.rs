//! Small pieces shared by the pages.

use gapwise_store::model::Context;
use leptos::prelude::*;

use crate::AppError;

/// The item's sentences, each with its blank shown, or filled with `filled` after
/// the answer.
#[component]
pub fn Contexts(contexts: Vec<Context>, #[prop(optional)] filled: Option<String>) -> impl IntoView {
    let items = contexts
        .into_iter()
        .map(|c| {
            let gap = match filled.clone() {
                Some(word) => view! { <mark class="filled">{word}</mark> }.into_any(),
                None => view! { <span class="blank" role="img" aria-label="blank">"_____"</span> }.into_any(),
            };
            view! { <li class="context">{c.before}{gap}{c.after}</li> }
        })
        .collect_view();
    view! { <ol class="contexts">{items}</ol> }
}

/// An error as the user reads it.
#[component]
pub fn ErrorNote(error: AppError) -> impl IntoView {
    view! { <p class="error" role="alert">{error.to_string()}</p> }
}

/// Shows the error of the last run of a server action, if any.
#[component]
pub fn ActionError<T: Clone + Send + Sync + 'static>(value: MappedSignal<Option<Result<T, AppError>>>) -> impl IntoView {
    move || match value.get() {
        Some(Err(error)) => Some(view! { <ErrorNote error/> }),
        _ => None,
    }
}
