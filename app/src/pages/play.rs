//! The game page. It renders the player's state as the server keeps it (see
//! `gapwise_store::game`), so it plays the same with and without JavaScript.
//! With JavaScript, the response time is measured in the browser from the frame the
//! item is painted to the click, and keys 1/2 choose, Enter continues.

use gapwise_store::model::{
    level_threshold, parse_k, parse_language, Feedback, ItemCard, PlayState, Progress, Score, ALLOWED_K, DAILY_GOAL, DEFAULT_K, DEFAULT_LANGUAGE,
};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::{get_play_state, get_progress, NextItem, SubmitAnswer};
use crate::components::{keyboard_shortcuts, response_clock, ActionError, Contexts, ErrorNote, LanguageChooser};

#[component]
pub fn Play() -> impl IntoView {
    let query = use_query_map();
    let k = Memo::new(move |_| query.read().get("k").and_then(|raw| parse_k(&raw)).unwrap_or(DEFAULT_K));
    let language = Memo::new(move |_| query.read().get("lang").and_then(|raw| parse_language(&raw)).unwrap_or(DEFAULT_LANGUAGE));
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
        <Transition fallback=|| view! { <p class="loading">"Loading…"</p> }>
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
                        <p class="exhausted">
                            "You have played every item with " {k} " sentences. Try another number of sentences above."
                        </p>
                    }.into_any(),
                    Err(error) => view! {
                        <ErrorNote error/>
                        <p><a href="/">"Start on the home page"</a></p>
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
    let links = ALLOWED_K
        .into_iter()
        .map(|choice| {
            let current = move || (k.get() == choice).then_some("page");
            view! { <a href=move || format!("/play?k={choice}&lang={}", language.get()) aria-current=current class="k-choice">{choice}</a> }
        })
        .collect_view();
    view! {
        <nav class="k-chooser" aria-label="Sentences per item">
            <span>"Sentences per item: "</span>
            {links}
        </nav>
    }
}

/// Level, points towards the next level, streak and the daily goal.
#[component]
fn ProgressBar(p: Progress) -> impl IntoView {
    let level_start = level_threshold(p.level);
    let goal_met = p.today >= DAILY_GOAL;
    view! {
        <div class="progress" aria-live="polite">
            <span class="level">"Level " {p.level}</span>
            <label>
                <progress max=(p.next_level_at - level_start).to_string() value=(p.points - level_start).to_string()></progress>
                <span class="points">{p.points} " points"</span>
            </label>
            <span class="streak">"Streak " {p.streak} " (best " {p.best_streak} ")"</span>
            <span class="daily" class:done=goal_met>"Today " {p.today.min(DAILY_GOAL)} " of " {DAILY_GOAL}</span>
        </div>
    }
}

#[component]
fn Status(score: Score, pseudonym: String) -> impl IntoView {
    view! {
        <p class="status">
            <span class="pseudonym">{pseudonym}</span>
            <span class="score" aria-live="polite">{score.correct} " right of " {score.answered}</span>
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
            <p class="prompt" id="prompt">"Which word fills the blank?"</p>
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
    let verdict = if feedback.correct {
        view! { <p class="verdict right">"Right! It was " <strong>{feedback.target.clone()}</strong> "."</p> }.into_any()
    } else {
        view! { <p class="verdict wrong">"Not this time: it was " <strong>{feedback.target.clone()}</strong> ", not " {feedback.chosen.clone()} "."</p> }.into_any()
    };
    view! {
        <section class="feedback" aria-live="polite" data-correct=feedback.correct.to_string()>
            {verdict}
            <Contexts contexts=feedback.contexts filled=feedback.target/>
            <ActionForm action=next>
                <button type="submit" class="primary" id="next" autofocus>"Next item " <kbd>"Enter"</kbd></button>
            </ActionForm>
        </section>
    }
}
