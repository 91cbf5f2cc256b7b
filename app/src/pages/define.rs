//! The word-definition game (`/define?task=w2d|d2w&cap=5|10|20`, 001_bf5d15b61b58df06.txt):
//! a word and the definitions of its taxonomic sisters (W2D), or a definition and
//! the sisters' words (D2W). The player picks until they find the right one; a
//! wrong pick is crossed out. The cap is the difficulty: groups of at most that
//! many candidates, all of them shown. The definitions are WordNet's, in English.

use gapwise_model::{DefinitionCard, DefinitionPick, DefinitionTask, Mode, DEFAULT_DEFINITION_CAP, DEFINITION_CAPS};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{define_round, PickDefine};
use crate::components::{
    answered_rounds, island_action, keyboard_shortcuts, outcome_from_round, posted_error, ActionError, FirstRound, RoundView,
};
use crate::i18n::{msg, use_i18n};
use crate::response_clock::response_clock;
use crate::AppError;

/// The language of WordNet's words and definitions.
const WORDNET: &str = gapwise_model::Language::En.code();

#[component]
pub fn DefinePage() -> impl IntoView {
    let i18n = use_i18n();
    // the error a plain form post of a round came back with, for the island
    let failed = posted_error::<PickDefine>();
    let query = use_query_map();
    let task = query.read_untracked().get("task").and_then(|t| DefinitionTask::parse(&t)).unwrap_or(DefinitionTask::W2d);
    let cap = query
        .read_untracked()
        .get("cap")
        .and_then(|c| c.parse::<u32>().ok())
        .filter(|c| DEFINITION_CAPS.contains(c))
        .unwrap_or(DEFAULT_DEFINITION_CAP);
    let link = move |task: DefinitionTask, cap: u32| format!("/define?task={}&cap={cap}", task.code());
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::Define))/>
        <h1>{i18n.t(msg::DEFINE_TITLE)}</h1>
        <nav class="k-chooser" aria-label=i18n.t(msg::DEFINE_TASK)>
            {DefinitionTask::ALL.map(|t| view! {
                <a class="k-choice" href=link(t, cap) aria-current=(task == t).then_some("page")>
                    {i18n.t(if t == DefinitionTask::W2d { msg::DEFINE_W2D } else { msg::DEFINE_D2W })}
                </a>
            }).collect_view()}
        </nav>
        <nav class="k-chooser" aria-label=i18n.t(msg::DEFINE_CAP)>
            <span>{i18n.t(msg::DEFINE_CAP)} ":"</span>
            {DEFINITION_CAPS.map(|c| view! {
                <a class="k-choice" href=link(task, c) aria-current=(cap == c).then_some("page")>
                    {i18n.t_with(msg::DEFINE_CAP_N, &[("n", i64::from(c).into())])}
                </a>
            }).collect_view()}
        </nav>
        <p>{i18n.t(if task == DefinitionTask::W2d { msg::DEFINE_INTRO_W2D } else { msg::DEFINE_INTRO_D2W })} " " {i18n.t(msg::DEFINE_CAP_HINT)}</p>
        <FirstRound first=define_round(task.code().to_owned(), cap) island=move |first, preparing| view! { <DefineRounds task cap first preparing failed/> }/>
    }
}

/// The rounds (an island): picks until the right one, each bringing the round as it
/// stands or the next.
#[island]
fn DefineRounds(
    task: DefinitionTask,
    cap: u32,
    first: Result<Option<DefinitionCard>, AppError>,
    preparing: Option<gapwise_model::Waiting>,
    failed: Option<AppError>,
) -> impl IntoView {
    let pick = island_action::<PickDefine>(failed);
    let round = answered_rounds(pick, first, move || define_round(task.code().to_owned(), cap), |picked| picked.next);
    keyboard_shortcuts();
    // a round just finished: from the pick here, or (a page loaded after a plain form
    // post, without JavaScript) from the round the server sends
    let found = move || match pick.value().get() {
        Some(Ok(p)) if p.given.correct => Some(found_view(&p.given)),
        _ => None,
    };
    view! {
        {found}
        <RoundView round=round none=msg::DEFINE_NONE preparing show=move |card: DefinitionCard| {
            let told = outcome_from_round(pick, card.last.as_ref()).map(found_view);
            view! { {told} <Round card pick cap/> }
        }/>
        <ActionError value=pick.value()/>
    }
}

/// A round found: in how many picks, and the word with its definition.
fn found_view(p: &DefinitionPick) -> impl IntoView {
    let i18n = use_i18n();
    let solution = p.solution.clone().map(|s| {
        view! { <p class="solution" id="solution" lang=WORDNET><strong>{s.word}</strong> ": " {s.definition}</p> }
    });
    view! {
        <div class="feedback right" id="found" role="status">
            <p>{i18n.t_with(msg::DEFINE_FOUND, &[("n", p.attempts.into())])}</p>
            {solution}
        </div>
    }
}

/// The prompt and the options of one round.
#[component]
fn Round(card: DefinitionCard, pick: ServerAction<PickDefine>, cap: u32) -> impl IntoView {
    let (clock, stamp) = response_clock();
    let i18n = use_i18n();
    let pending = pick.pending();
    let finished = i18n.t_with(msg::DEFINE_FINISHED, &[("n", card.finished.into())]);
    let picked = card.picked;
    let options: Vec<_> = card
        .options
        .into_iter()
        .enumerate()
        .map(move |(i, option)| {
            let wrong = picked.iter().any(|&(p, right)| p == i && !right);
            view! {
                <button type="submit" name="position" value=i.to_string() class="option" class:wrong=wrong data-key=(i + 1).to_string() lang=WORDNET
                    on:click=stamp disabled=move || wrong || pending.get()>
                    <kbd>{i + 1}</kbd> " " {option}
                </button>
            }
        })
        .collect();
    let kind = if card.task == DefinitionTask::W2d { "word" } else { "definition" };
    view! {
        <p class="status"><span class="score" id="rounds-finished" data-finished=card.finished.to_string()>{finished}</span></p>
        <ActionForm action=pick attr:class="item definitions">
            <input type="hidden" name="serving_id" value=card.serving_id.to_string()/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
            <input type="hidden" name="task" value=card.task.code()/>
            <input type="hidden" name="cap" value=cap.to_string()/>
            <p class="prompt" id="define-prompt" data-kind=kind lang=WORDNET>{card.prompt}</p>
            <div class="options stacked" role="group" aria-labelledby="define-prompt">{options}</div>
        </ActionForm>
    }
}
