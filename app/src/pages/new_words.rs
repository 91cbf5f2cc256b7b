//! The invented-word game (`/new-words`, WinoDict, 003_e0d4aede4cc7e323.txt): a
//! Winograd sentence whose key word is an invented word, a known word given another
//! meaning, or the key word itself, with or without the sentence that defines it;
//! the player picks which of two phrases fills the blank. The item and its
//! condition are the server's choice; the sentences are WinoGrande's, in English.

use gapwise_model::{Mode, NewWordsCard, NewWordsPick, WithNext};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::{new_words_round, PickNewWords};
use crate::components::{
    answered_rounds, island_action, keyboard_shortcuts, outcome_from_round, posted_error, ActionError, FirstRound, RoundView,
};
use crate::i18n::{msg, use_i18n};
use crate::response_clock::response_clock;
use crate::AppError;

/// The language of the items (WinoGrande's sentences).
const ITEMS: &str = gapwise_model::Language::En.code();

#[component]
pub fn NewWordsPage() -> impl IntoView {
    let i18n = use_i18n();
    // the error a plain form post of a round came back with, for the island
    let failed = posted_error::<PickNewWords>();
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::NewWords))/>
        <h1>{i18n.t(msg::NEW_WORDS_TITLE)}</h1>
        <p>{i18n.t(msg::NEW_WORDS_INTRO)}</p>
        <FirstRound first=new_words_round() island=move |first, preparing| view! { <NewWordsRounds first preparing failed/> }/>
    }
}

/// The rounds (an island): each pick says how it went and brings the next item.
#[island]
fn NewWordsRounds(
    first: Result<Option<NewWordsCard>, AppError>,
    preparing: Option<gapwise_model::Waiting>,
    failed: Option<AppError>,
) -> impl IntoView {
    let pick = island_action::<PickNewWords>(failed);
    let round = answered_rounds(pick, first, new_words_round, |picked| picked.next);
    keyboard_shortcuts();
    // the last answer: from the pick here, or (a page loaded after a plain form post,
    // without JavaScript) from the round the server sends
    let verdict = move || match pick.value().get() {
        Some(Ok(WithNext { given: p, .. })) => Some(outcome(&p)),
        _ => None,
    };
    view! {
        {verdict}
        <RoundView round=round none=msg::NEW_WORDS_NONE preparing show=move |card: NewWordsCard| {
            let told = outcome_from_round(pick, card.last.as_ref()).map(outcome);
            view! { {told} <Item card pick/> }
        }/>
        <ActionError value=pick.value()/>
    }
}

/// Whether an answer was right, with the right option in the sentence it answered
/// (set apart from the next item, whose sentence differs).
fn outcome(p: &NewWordsPick) -> impl IntoView {
    let i18n = use_i18n();
    let (class, key) = if p.correct { ("feedback right", msg::NEW_WORDS_RIGHT) } else { ("feedback wrong", msg::NEW_WORDS_WRONG) };
    let (before, after) = blank_split(&p.sentence);
    view! {
        <div class="told">
            <p class=class id="verdict" data-correct=p.correct.to_string() role="status">{i18n.t_words(key, &[("answer", &p.answer)], ITEMS)}</p>
            <p class="context" id="told-sentence" lang=ITEMS>{before}<mark class="filled">{p.answer.clone()}</mark>{after}</p>
        </div>
    }
}

/// A sentence's text before and after its blank (`_`).
fn blank_split(sentence: &str) -> (String, String) {
    sentence.split_once('_').map_or((sentence.to_owned(), String::new()), |(b, a)| (b.to_owned(), a.to_owned()))
}

/// The sentence, the definition when it is shown, and the two options.
#[component]
fn Item(card: NewWordsCard, pick: ServerAction<PickNewWords>) -> impl IntoView {
    let (clock, stamp) = response_clock();
    let i18n = use_i18n();
    let pending = pick.pending();
    let tally = i18n.t_with(msg::NEW_WORDS_TALLY, &[("right", card.right.into()), ("n", card.answered.into())]);
    let (before, after) = blank_split(&card.sentence);
    let definition = card.definition.map(|d| {
        view! {
            <p class="definition" id="new-word-definition"><span class="label">{i18n.t(msg::NEW_WORDS_DEFINITION)}</span> " " <span lang=ITEMS>{d}</span></p>
        }
    });
    let options = card.options.into_iter().enumerate().map(move |(i, option)| view! {
        <button type="submit" name="choice" value=i.to_string() class="option" data-key=(i + 1).to_string() lang=ITEMS on:click=stamp disabled=move || pending.get()>
            <kbd>{i + 1}</kbd> " " {option}
        </button>
    }).collect_view();
    view! {
        <p class="status"><span class="score" id="new-words-answered" data-answered=card.answered.to_string()>{tally}</span></p>
        <ActionForm action=pick attr:class="item new-words">
            <input type="hidden" name="serving_id" value=card.serving_id.to_string()/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
            {definition}
            <p class="context" id="new-word-sentence" lang=ITEMS>
                {before}<span class="blank" aria-label=i18n.t(msg::NEW_WORDS_BLANK) lang=i18n.0>"_____"</span>{after}
            </p>
            <div class="options" role="group" aria-labelledby="new-word-sentence">{options}</div>
        </ActionForm>
    }
}
