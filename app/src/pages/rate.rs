//! Likert rounds (`/rate?lang=xx`): one sentence with a blank, rated on a five-point
//! scale from "surely <left word>" to "surely <right word>" (Section 6 of the paper).

use gapwise_model::{Mode, RateCard};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::{rate_round, Rate};
use crate::components::{
    answered_rounds, island_action, keyboard_shortcuts, posted_error, ActionError, Contexts, FirstRound, LanguageChooser, RoundView,
};
use crate::i18n::{language_of, msg, query_language, use_i18n, Msg};
use crate::response_clock::response_clock;
use crate::AppError;

#[component]
pub fn RatePage() -> impl IntoView {
    let i18n = use_i18n();
    // the error a plain form post of a round came back with, for the island
    let failed = posted_error::<Rate>();
    let language = query_language();
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::Rate))/>
        <h1>{i18n.t(msg::RATE_TITLE)}</h1>
        <LanguageChooser language base="/rate?"/>
        <p>{i18n.t(msg::RATE_INTRO)}</p>
        <FirstRound first=rate_round(Some(language.to_owned())) made_by=Some((Mode::Rate, language))
            island=move |first, preparing| view! { <RateRounds language=language.to_owned() first preparing failed/> }/>
    }
}

/// The rating rounds (an island): each rating brings the next sentence.
#[island]
fn RateRounds(
    language: String,
    first: Result<Option<RateCard>, AppError>,
    preparing: Option<gapwise_model::Waiting>,
    failed: Option<AppError>,
) -> impl IntoView {
    let language = language_of(&language);
    let rate = island_action::<Rate>(failed);
    let card = answered_rounds(rate, first, move || rate_round(Some(language.to_owned())), |next| next);
    keyboard_shortcuts();
    view! {
        <RoundView round=card none=msg::RATE_NONE preparing show=move |card| view! { <Scale card rate language/> }/>
        <ActionError value=rate.value()/>
    }
}

/// The sentence and the five buttons of the scale.
#[component]
fn Scale(card: RateCard, rate: ServerAction<Rate>, language: &'static str) -> impl IntoView {
    let (clock, stamp) = response_clock();
    let i18n = use_i18n();
    // the words are the corpus's, in its language
    let word = |key: Msg, word: &str| i18n.t_words(key, &[("word", word)], language).into_any();
    let labels = [
        word(msg::RATE_SURELY, &card.left),
        word(msg::RATE_PROBABLY, &card.left),
        i18n.t(msg::RATE_CANNOT_TELL).into_any(),
        word(msg::RATE_PROBABLY, &card.right),
        word(msg::RATE_SURELY, &card.right),
    ];
    let rated = i18n.t_with(msg::RATE_COUNT, &[("n", card.rated.into())]);
    let pending = rate.pending();
    view! {
        <p class="status"><span class="score">{rated}</span></p>
        <ActionForm action=rate attr:class="item likert">
            <input type="hidden" name="serving_id" value=card.serving_id.to_string()/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
            <input type="hidden" name="language" value=language/>
            <Contexts contexts=vec![card.context] language/>
            <p class="prompt" id="scale-prompt">{i18n.t(msg::RATE_PROMPT)}</p>
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
