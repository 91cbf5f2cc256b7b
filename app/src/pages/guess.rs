//! The next-word game (`/guess?lang=xx&mode=type|choose`, 002_07d3f5412720a88c.txt):
//! a sentence revealed word by word; the player types their guess for the next word
//! (or, in the easier mode, may pick one of a model's suggestions), then sees the
//! word that was there.

use gapwise_model::{GuessCard, GuessMode, GuessResult, Mode, WithNext, MAX_GUESS_CHARS};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{guess_round, GuessWord};
use crate::components::{
    answered_rounds, island_action, outcome_from_round, posted_error, ActionError, FirstRound, LanguageChooser, RoundView,
};
use crate::i18n::{language_of, msg, query_language, use_i18n};
use crate::response_clock::response_clock;
use crate::AppError;

#[component]
pub fn GuessPage() -> impl IntoView {
    let i18n = use_i18n();
    // the error a plain form post of a round came back with, for the island
    let failed = posted_error::<GuessWord>();
    let query = use_query_map();
    let language = query_language();
    let mode = query.read_untracked().get("mode").and_then(|m| GuessMode::parse(&m)).unwrap_or(GuessMode::Type);
    let mode_link = move |m: GuessMode| {
        view! {
            <a class="k-choice" href=format!("/guess?mode={}&lang={language}", m.code()) aria-current=(mode == m).then_some("page")>
                {i18n.t(if m == GuessMode::Type { msg::GUESS_MODE_TYPE } else { msg::GUESS_MODE_CHOOSE })}
            </a>
        }
    };
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::Guess))/>
        <h1>{i18n.t(msg::GUESS_TITLE)}</h1>
        <LanguageChooser language base=format!("/guess?mode={}&", mode.code())/>
        <nav class="k-chooser" aria-label=i18n.t(msg::GUESS_MODE)>{mode_link(GuessMode::Type)} {mode_link(GuessMode::Choose)}</nav>
        <p>{i18n.t(if mode == GuessMode::Type { msg::GUESS_INTRO_TYPE } else { msg::GUESS_INTRO_CHOOSE })}</p>
        <FirstRound first=guess_round(Some(language.to_owned()), mode.code().to_owned())
            made_by=(mode == GuessMode::Choose).then_some((Mode::Guess, language))
            island=move |first, preparing| view! { <GuessRounds language=language.to_owned() mode first preparing failed/> }/>
    }
}

/// The rounds (an island): each guess says how it went and brings the next word's.
#[island]
fn GuessRounds(
    language: String,
    mode: GuessMode,
    first: Result<Option<GuessCard>, AppError>,
    preparing: Option<gapwise_model::Waiting>,
    failed: Option<AppError>,
) -> impl IntoView {
    let language = language_of(&language);
    let guess = island_action::<GuessWord>(failed);
    let round =
        answered_rounds(guess, first, move || guess_round(Some(language.to_owned()), mode.code().to_owned()), |guessed| guessed.next);
    // the last guess: from the answer here, or (a page loaded after a plain form
    // post, without JavaScript) from the round the server sends
    let last = move || match guess.value().get() {
        Some(Ok(WithNext { given: r, .. })) => Some(outcome(&r, language)),
        _ => None,
    };
    view! {
        {last}
        <RoundView round=round none=msg::GUESS_NONE preparing show=move |card: GuessCard| {
            let told = outcome_from_round(guess, card.last.as_ref()).map(|r| outcome(r, language));
            view! { {told} <Round card guess language mode/> }
        }/>
        <ActionError value=guess.value()/>
    }
}

/// How a guess went: right or wrong, the word that was there (in the game's
/// `language`), and whether that ended the sentence.
fn outcome(r: &GuessResult, language: &'static str) -> impl IntoView {
    let i18n = use_i18n();
    let words = [("word", r.word.as_str()), ("guess", r.guess.as_str())];
    let text = i18n.t_words(if r.correct { msg::GUESS_RIGHT } else { msg::GUESS_WRONG }, &words, language);
    let done = r.sentence_done.then(|| i18n.t(msg::GUESS_SENTENCE_DONE));
    view! {
        <p class="feedback" class:right=r.correct id="last-guess" data-correct=r.correct.to_string() role="status">
            {text} " " {done}
        </p>
    }
}

/// The sentence so far, the guess box and, in the easier mode, the suggestions.
#[component]
fn Round(card: GuessCard, guess: ServerAction<GuessWord>, language: &'static str, mode: GuessMode) -> impl IntoView {
    let (clock, stamp) = response_clock();
    let i18n = use_i18n();
    let pending = guess.pending();
    // each word starts with an empty box, ready for typing
    let typed = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = typed.get() {
            input.set_value("");
            let _ = input.focus();
        }
    });
    let finished = i18n.t_with(msg::GUESS_FINISHED, &[("n", card.finished.into())]);
    let progress = i18n.t_with(msg::GUESS_PROGRESS, &[("n", (card.position as i64).into()), ("total", (card.positions as i64).into())]);
    let suggestions: Vec<_> = card
        .suggestions
        .iter()
        .enumerate()
        .map(|(i, word)| {
            view! {
                <button type="submit" name="rank" value=(i + 1).to_string() class="option suggestion" lang=language on:click=stamp disabled=pending>
                    {word.clone()}
                </button>
            }
        })
        .collect();
    let has_suggestions = !suggestions.is_empty();
    view! {
        <p class="status">
            <span class="score" id="sentences-finished" data-finished=card.finished.to_string()>{finished}</span>
            <span id="guess-progress" data-position=card.position.to_string()>{progress}</span>
        </p>
        <ActionForm action=guess attr:class="item guessing">
            <input type="hidden" name="serving_id" value=card.serving_id.to_string()/>
            <input type="hidden" name="position" value=card.position.to_string()/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
            <input type="hidden" name="language" value=language/>
            <input type="hidden" name="mode" value=mode.code()/>
            <p class="contexts revealed" id="revealed" lang=language>{card.revealed} " " <span class="blank">"?"</span></p>
            <label>
                {i18n.t(msg::GUESS_LABEL)}
                <input type="text" name="guess" id="guess" lang=language node_ref=typed autocomplete="off" autocapitalize="off" spellcheck="false"
                    maxlength=MAX_GUESS_CHARS.to_string() autofocus/>
            </label>
            <button type="submit" id="guess-submit" on:click=stamp disabled=pending>{i18n.t(msg::GUESS_SUBMIT)}</button>
            {if has_suggestions {
                Some(view! {
                    <p class="prompt">{i18n.t(msg::GUESS_SUGGESTIONS)}</p>
                    <div class="options suggestions" role="group">{suggestions}</div>
                }.into_any())
            } else {
                // a sentence half-typed in the other mode goes on here without them: say why
                (mode == GuessMode::Choose).then(|| view! { <p class="note" id="no-suggestions">{i18n.t(msg::GUESS_NO_SUGGESTIONS)}</p> }.into_any())
            }}
        </ActionForm>
    }
}
