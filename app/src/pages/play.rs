//! The game page. It renders the player's state as the server keeps it (see
//! `gapwise_store::game`), so it plays the same with and without JavaScript.
//! With JavaScript, the response time is measured in the browser from the frame the
//! item is painted to the click, and keys 1/2 choose, Enter continues.
//!
//! `?challenge=<id>` plays a challenge's ten items; a crowd participant sees their
//! study's progress and a way to give it back, and is sent to the platform at the end.

use gapwise_model::{
    level_threshold, parse_k, parse_language, unlock_level, Achievement, CrowdProgress, Feedback, ItemCard, PlayState, Progress, Score, ALLOWED_K,
    DAILY_GOAL, DEFAULT_K,
};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::{get_crowd_progress, get_play_state, get_progress, CrowdReturn, NextItem, SubmitAnswer};
use crate::components::{keyboard_shortcuts, response_clock, ActionError, Contexts, ErrorNote, LanguageChooser};
use crate::i18n::use_i18n;

#[component]
pub fn Play() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map();
    let k = Memo::new(move |_| query.read().get("k").and_then(|raw| parse_k(&raw)).unwrap_or(DEFAULT_K));
    let language = Memo::new(move |_| query.read().get("lang").and_then(|raw| parse_language(&raw)).unwrap_or(i18n.0));
    let challenge = Memo::new(move |_| query.read().get("challenge").filter(|c| !c.is_empty()));
    let answer = ServerAction::<SubmitAnswer>::new();
    let next = ServerAction::<NextItem>::new();
    let give_back = ServerAction::<CrowdReturn>::new();
    let state = Resource::new(
        move || (k.get(), language.get(), challenge.get(), answer.version().get(), next.version().get(), give_back.version().get()),
        |(k, language, challenge, ..)| get_play_state(k, Some(language.to_owned()), challenge),
    );
    let progress = Resource::new(move || answer.version().get(), |_| get_progress());
    let crowd = Resource::new(move || (answer.version().get(), give_back.version().get()), |_| get_crowd_progress());
    keyboard_shortcuts();
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                match (crowd.await, progress.await) {
                    (Ok(Some(study)), _) => view! { <CrowdBar study give_back/> }.into_any(),
                    (_, Ok(p)) => view! {
                        <LanguageChooser language base=Signal::derive(move || format!("/play?k={}&", k.get()))/>
                        <ProgressBar p=p.clone()/>
                        {move || challenge.get().is_none().then(|| view! { <KChooser k language level=p.level/> })}
                        {move || challenge.get().is_some().then(|| view! { <p class="challenge-note">{i18n.t("play-challenge")}</p> })}
                    }.into_any(),
                    _ => ().into_any(),
                }
            })}
        </Transition>
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
                        {match challenge.get_untracked() {
                            Some(_) => view! { <p class="exhausted">{i18n.t("play-challenge-done")} " " <a href="/friends">{i18n.t("nav-friends")}</a></p> }.into_any(),
                            None => view! { <p class="exhausted">{i18n.t_with("play-exhausted", &[("k", usize::from(k).into())])}</p> }.into_any(),
                        }}
                    }.into_any(),
                    Ok(PlayState::Locked { k, level, pseudonym }) => view! {
                        <p class="status"><span class="pseudonym">{pseudonym}</span></p>
                        <p class="locked">{i18n.t_with("play-locked", &[("k", usize::from(k).into()), ("level", level.into())])}</p>
                        <p><a href=format!("/play?k=5&lang={}", language.get_untracked())>{i18n.t("play-locked-back")}</a></p>
                    }.into_any(),
                    Ok(PlayState::Completed { redirect }) => view! { <Completed redirect/> }.into_any(),
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

/// Links that choose how many sentences an item shows; a k the player's `level` has
/// not unlocked yet is shown with the level that unlocks it.
#[component]
fn KChooser(k: Memo<u8>, language: Memo<&'static str>, level: i64) -> impl IntoView {
    let i18n = use_i18n();
    let label = i18n.t("play-k-label");
    let links = ALLOWED_K
        .into_iter()
        .map(|choice| {
            let current = move || (k.get() == choice).then_some("page");
            let needed = unlock_level(choice);
            let lock = (level < needed).then(|| {
                let title = i18n.t_with("play-unlocks-at", &[("level", needed.into())]);
                view! { <span class="lock" title=title.clone() aria-label=title>"🔒"</span> }
            });
            view! { <a href=move || format!("/play?k={choice}&lang={}", language.get()) aria-current=current class="k-choice">{choice}{lock}</a> }
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

/// A crowd participant's study: how far they are, and a way to give it back.
#[component]
fn CrowdBar(study: CrowdProgress, give_back: ServerAction<CrowdReturn>) -> impl IntoView {
    let i18n = use_i18n();
    let line = i18n.t_with("crowd-progress", &[("done", study.answered.into()), ("target", study.target.into())]);
    view! {
        <div class="crowd-bar" aria-live="polite">
            <strong>{study.study}</strong> " "
            <label><progress max=study.target.to_string() value=study.answered.to_string()></progress> " " <span class="crowd-count">{line}</span></label>
            <ActionForm action=give_back attr:class="inline">
                <button type="submit" class="secondary" id="give-back">{i18n.t("crowd-return")}</button>
            </ActionForm>
        </div>
    }
}

/// The end of a crowd study: the way back to the platform with the completion
/// code, taken at once when the page runs JavaScript.
#[component]
fn Completed(redirect: String) -> impl IntoView {
    let target = redirect.clone();
    Effect::new(move |_| {
        let _ = window().location().set_href(&target);
    });
    let i18n = use_i18n();
    view! {
        <section class="completed" role="status">
            <p>{i18n.t("crowd-done")}</p>
            <p><a class="primary" href=redirect id="complete">{i18n.t("crowd-back")}</a></p>
        </section>
    }
}
