//! The cloze game (`/cloze?lang=xx`): a sentence with one word blanked out; the
//! player types the word, then sees whether it was right, the word that was there,
//! and the words a language model predicted there (when one predicted the sentence
//! in the next-word game). The page has no island: its form posts as without
//! JavaScript and comes back with `answered=<serving>` in the query, where the page
//! shows the outcome and a link to the next sentence.

use gapwise_model::{ClozeCard, ClozeResult, Mode, MAX_GUESS_CHARS};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{cloze_round, cloze_told, ClozeAnswer};
use crate::components::{ActionError, ErrorNote, LanguageChooser};
use crate::i18n::{msg, query_language, use_i18n};

#[component]
pub fn ClozePage() -> impl IntoView {
    let i18n = use_i18n();
    let language = query_language();
    let answered = use_query_map().read_untracked().get("answered");
    // a refused plain post comes back with its error in the query, which the action reads
    let answer = ServerAction::<ClozeAnswer>::new();
    let next = format!("/cloze?lang={language}");
    let shown = async move {
        match answered {
            Some(serving) => match cloze_told(serving).await {
                Ok(Some(result)) => view! { <Outcome result language next/> }.into_any(),
                // not answered yet: the sentence is still the one to play
                Ok(None) => view! { <p><a href=next id="next" class="button primary">{i18n.t(msg::CLOZE_NEXT)}</a></p> }.into_any(),
                Err(error) => view! { <ErrorNote error/> }.into_any(),
            },
            None => match cloze_round(Some(language.to_owned())).await {
                Ok(Some(card)) => view! { <Round card language answer/> }.into_any(),
                Ok(None) => view! { <p class="exhausted">{i18n.t(msg::CLOZE_NONE)}</p> }.into_any(),
                Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t(msg::START_HOME)}</a></p> }.into_any(),
            },
        }
    };
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::Cloze))/>
        <h1>{i18n.t(msg::CLOZE_TITLE)}</h1>
        <LanguageChooser language base="/cloze?"/>
        <p>{i18n.t(msg::CLOZE_INTRO)}</p>
        <Suspense fallback=|| ()>{Suspend::new(shown)}</Suspense>
        <ActionError value=answer.value()/>
    }
}

/// The sentence around its blank (in its `language`, which a screen reader reads
/// it in), and the box the word is typed in, described by the sentence.
#[component]
fn Round(card: ClozeCard, language: &'static str, answer: ServerAction<ClozeAnswer>) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <ActionForm action=answer attr:class="item cloze">
            <input type="hidden" name="serving_id" value=card.serving_id.to_string()/>
            <p class="contexts cloze-sentence" id="cloze-sentence" lang=language>
                <span id="cloze-before">{card.before}</span>
                <span class="blank" role="img" aria-label=i18n.t(msg::BLANK) lang=i18n.0>"_____"</span>
                <span id="cloze-after">{card.after}</span>
            </p>
            <label>
                {i18n.t(msg::CLOZE_LABEL)} " "
                <input type="text" name="typed" id="typed" lang=language aria-describedby="cloze-sentence" autocomplete="off" autocapitalize="off" spellcheck="false"
                    maxlength=MAX_GUESS_CHARS.to_string() required autofocus/>
            </label>
            <button type="submit" id="cloze-submit">{i18n.t(msg::CLOZE_SUBMIT)}</button>
        </ActionForm>
    }
}

/// How the answer went: right or wrong, the word, a model's words there, and the
/// link to the next sentence (`next`); the sentence and the model's words are in
/// the game's `language`.
#[component]
fn Outcome(result: ClozeResult, language: &'static str, next: String) -> impl IntoView {
    let i18n = use_i18n();
    let words = [("word", result.word.as_str()), ("typed", result.typed.as_str())];
    let verdict = i18n.t_words(if result.right { msg::CLOZE_RIGHT } else { msg::CLOZE_WRONG }, &words, language);
    let model = if result.model_words.is_empty() {
        i18n.t(msg::CLOZE_NO_MODEL_WORDS).into_any()
    } else {
        i18n.t_words(msg::CLOZE_MODEL_WORDS, &[("words", &result.model_words.join(", "))], language).into_any()
    };
    let right = result.right;
    view! {
        <section class="feedback" id="cloze-outcome">
            <p class="verdict" class:right=right class:wrong={!right} id="cloze-verdict" data-right=right.to_string() role="status">
                {verdict}
            </p>
            <p class="contexts cloze-sentence" id="cloze-whole" lang=language>{result.before}<mark class="filled">{result.word}</mark>{result.after}</p>
            <p id="cloze-model-words">{model}</p>
            <p><a href=next id="next" class="button primary">{i18n.t(msg::CLOZE_NEXT)}</a></p>
        </section>
    }
}
