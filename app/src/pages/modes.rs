//! Each mode's page and its name in the menu: the app's list of modes, an
//! exhaustive `match` on [`Mode`] (the routes in `lib.rs` serve [`page`] at each
//! mode's address; a test asks for every mode's page).

use crate::i18n::{msg, Msg};
use gapwise_model::Mode;
use leptos::prelude::*;

/// The catalogue key naming `mode` in the menu and in its page's title.
pub fn nav_key(mode: Mode) -> Msg {
    match mode {
        Mode::Play => msg::NAV_PLAY,
        Mode::Rate => msg::NAV_RATE,
        Mode::Define => msg::NAV_DEFINE,
        Mode::Guess => msg::NAV_GUESS,
        Mode::NewWords => msg::NAV_NEW_WORDS,
    }
}

/// The page of `mode`.
pub fn page(mode: Mode) -> AnyView {
    match mode {
        Mode::Play => view! { <super::Play/> }.into_any(),
        Mode::Rate => view! { <super::RatePage/> }.into_any(),
        Mode::Define => view! { <super::DefinePage/> }.into_any(),
        Mode::Guess => view! { <super::GuessPage/> }.into_any(),
        Mode::NewWords => view! { <super::NewWordsPage/> }.into_any(),
    }
}
