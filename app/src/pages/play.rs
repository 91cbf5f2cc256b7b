//! The game page. It renders the player's state as the server keeps it (see
//! `gapwise_store::game`), so it plays the same with and without JavaScript.
//! With JavaScript, the response time is measured in the browser from the frame the
//! item is painted to the click, and keys 1/2 choose, Enter continues.

use gapwise_store::model::{
    level_threshold, parse_k, parse_language, Achievement, Feedback, ItemCard, PlayState, Progress, Score, ALLOWED_K, DAILY_GOAL, DEFAULT_K,
};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::{get_play_state, get_progress, NextItem, SubmitAnswer};
use crate::components::{keyboard_shortcuts, response_clock, ActionError, Contexts, ErrorNote, LanguageChooser};
use crate::i18n::use_i18n;

#[component]
pub fn Play() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map();
    let k = Memo::new(move |_| query.read().get("k").and_then(|raw| parse_k(&raw)).unwrap_or(DEFAULT_K));
    let language = Memo::new(move |_| query.read().get("lang").and_then(|raw| parse_language(&raw)).unwrap_or(i18n.0));
    let answer = ServerAction::<SubmitAnswer>::new();
    let next = ServerAction::<NextItem>::new();
    let state = Resource::new(
        move || (k.get(), language.get(), answer.version().get(), next.version().get()),
        |(k, language, _, _)| get_play_state(k, Some(language.to_owned())),
    );
    let progress = Resource::new(move || answer.version().get(), |_| get_progress());
    keyboard_shortcuts();
    view! {
        <LanguageChooser language base=Signal::derive(move || format!("/play?k={}&", k.get()))/>
        <Transition fallback=|| ()>
            {move || Suspend::new(async move { progress.await.ok().map(|p| view! { <ProgressBar p/> }) })}
        </Transition>
        <KChooser k language/>
        <Transition fallback=move || view! { <p class="loading">{i18n.t("loading")}</p> }>
            {move || Suspend::new(async move {
                match state.await {
                    Ok(PlayState::Item { card, score, pseudonym }) => view! {
                        <Status score pseudonym/>
                        <Item card answer/>
                    }.into_any(),
                    Ok(PlayState::Feedback { feedback, pseudonym }) => view! {
                        <Status score=feedback.score pseudonym/>
                        <Outcome feedback next/>
                    }.into_any(),
                    Ok(PlayState::Exhausted { k, score, pseudonym }) => view! {
                        <Status score pseudonym/>
                        <p class="exhausted">{i18n.t_with("play-exhausted", &[("k", usize::from(k).into())])}</p>
                    }.into_any(),
                    Err(error) => view! {
                        <ErrorNote error/>
                        <p><a href="/">{i18n.t("start-home")}</a></p>
                    }.into_any(),
                }
            })}
        </Transition>
        <ActionError value=answer.value()/>
    }
}

/// Links that choose how many sentences an item shows.
#[component]
fn KChooser(k: Memo<u8>, language: Memo<&'static str>) -> impl IntoView {
    let label = use_i18n().t("play-k-label");
    let links = ALLOWED_K
        .into_iter()
        .map(|choice| {
            let current = move || (k.get() == choice).then_some("page");
            view! { <a href=move || format!("/play?k={choice}&lang={}", language.get()) aria-current=current class="k-choice">{choice}</a> }
        })
        .collect_view();
    view! {
        <nav class="k-chooser" aria-label=label.clone()>
            <span>{label.clone()} " "</span>
            {links}
        </nav>
    }
}

/// Level, points towards the next level, streak and the daily goal.
#[component]
fn ProgressBar(p: Progress) -> impl IntoView {
    let i18n = use_i18n();
    let level_start = level_threshold(p.level);
    let goal_met = p.today >= DAILY_GOAL;
    view! {
        <div class="progress" aria-live="polite">
            <span class="level">{i18n.t_with("play-level", &[("level", p.level.into())])}</span>
            <label>
                <progress max=(p.next_level_at - level_start).to_string() value=(p.points - level_start).to_string()></progress>
                <span class="points">{i18n.t_with("play-points", &[("n", p.points.into())])}</span>
            </label>
            <span class="streak">{i18n.t_with("play-streak", &[("streak", p.streak.into()), ("best", p.best_streak.into())])}</span>
            {(p.from_pairs > 0).then(|| view! { <span class="from-pairs">{i18n.t_with("play-from-pairs", &[("n", p.from_pairs.into())])}</span> })}
            <span class="daily" class:done=goal_met>{i18n.t_with("play-today", &[("done", p.today.min(DAILY_GOAL).into()), ("goal", DAILY_GOAL.into())])}</span>
            <Achievements earned=p.achievements/>
        </div>
    }
}

/// Every achievement, the earned ones marked, each with how to get it.
#[component]
fn Achievements(earned: Vec<Achievement>) -> impl IntoView {
    let i18n = use_i18n();
    let summary = i18n.t_with("play-achievements", &[("n", earned.len().into()), ("all", Achievement::ALL.len().into())]);
    let items = Achievement::ALL
        .into_iter()
        .map(|a| {
            let got = earned.contains(&a);
            view! {
                <li class:earned=got>
                    <span aria-hidden="true">{if got { "★ " } else { "☆ " }}</span>
                    <strong>{i18n.t(a.key())}</strong> " " {i18n.t(&format!("{}-how", a.key()))}
                </li>
            }
        })
        .collect_view();
    view! {
        <details class="achievements">
            <summary>{summary}</summary>
            <ul>{items}</ul>
        </details>
    }
}

#[component]
fn Status(score: Score, pseudonym: String) -> impl IntoView {
    let line = use_i18n().t_with("play-score", &[("right", score.correct.into()), ("answered", score.answered.into())]);
    view! {
        <p class="status">
            <span class="pseudonym">{pseudonym}</span>
            <span class="score" aria-live="polite">{line}</span>
        </p>
    }
}

/// One item: its sentences with the blank, and the two words as buttons.
#[component]
fn Item(card: ItemCard, answer: ServerAction<SubmitAnswer>) -> impl IntoView {
    let (client_ms, stamp) = response_clock();
    let pending = answer.pending();
    let [first, second] = card.options;
    view! {
        <ActionForm action=answer attr:class="item">
            <input type="hidden" name="answer_id" value=card.answer_id/>
            <input type="hidden" name="client_ms" value="" node_ref=client_ms/>
            <Contexts contexts=card.contexts/>
            <p class="prompt" id="prompt">{use_i18n().t("play-prompt")}</p>
            <div class="options" role="group" aria-labelledby="prompt">
                <button type="submit" name="choice" value="0" class="option" data-key="1" on:click=stamp disabled=pending>
                    <kbd>"1"</kbd> <span class="word">{first}</span>
                </button>
                <button type="submit" name="choice" value="1" class="option" data-key="2" on:click=stamp disabled=pending>
                    <kbd>"2"</kbd> <span class="word">{second}</span>
                </button>
            </div>
        </ActionForm>
    }
}

/// Right or wrong, the sentences with the word filled in, and the way on.
#[component]
fn Outcome(feedback: Feedback, next: ServerAction<NextItem>) -> impl IntoView {
    let i18n = use_i18n();
    let verdict = if feedback.correct {
        view! { <p class="verdict right">{i18n.t("play-right")} " " <strong>{feedback.target.clone()}</strong></p> }.into_any()
    } else {
        let chosen = i18n.t_with("play-you-chose", &[("word", feedback.chosen.clone().into())]);
        view! {
            <p class="verdict wrong">{i18n.t("play-wrong")} " " <strong>{feedback.target.clone()}</strong></p>
            <p class="chosen">{chosen}</p>
        }.into_any()
    };
    view! {
        <section class="feedback" aria-live="polite" data-correct=feedback.correct.to_string()>
            {verdict}
            <Contexts contexts=feedback.contexts filled=feedback.target/>
            <ActionForm action=next>
                <button type="submit" class="primary" id="next" autofocus>{i18n.t("play-next")} " " <kbd>"Enter"</kbd></button>
            </ActionForm>
        </section>
    }
}
