//! Each mode's page: an exhaustive `match` on [`Mode`] (the routes in `lib.rs`
//! serve [`page`] at each mode's address; a test asks for every mode's page). Its
//! name in the menu is `i18n::mode_name`.

use gapwise_model::Mode;
use leptos::prelude::*;

/// The page of `mode`.
pub fn page(mode: Mode) -> AnyView {
    match mode {
        Mode::Play => view! { <super::Play/> }.into_any(),
        Mode::Rate => view! { <super::RatePage/> }.into_any(),
        Mode::Define => view! { <super::DefinePage/> }.into_any(),
        Mode::Guess => view! { <super::GuessPage/> }.into_any(),
        Mode::NewWords => view! { <super::NewWordsPage/> }.into_any(),
        Mode::Cloze => view! { <super::ClozePage/> }.into_any(),
    }
}
