//! The game page. It renders the player's state as the server keeps it (see
//! `gapwise_engine`), so it plays the same with and without JavaScript. Without,
//! an answer posts `answer` and "next" posts `next`, each a page load. With
//! JavaScript, a round is one request (`answer-round`): the feedback, the next item
//! already served, the progress and the crowd study come back together, and
//! "next" shows that item without asking the server again. The response time is
//! measured in the browser from the frame the item is painted to the click, and
//! keys 1/2 choose, Enter continues.
//!
//! `?challenge=<id>` plays a challenge's ten items; a crowd participant sees their
//! study's progress and a way to give it back, and is sent to the platform at the end.

use gapwise_model::{
    level_threshold, parse_language, unlock_level, Achievement, CrowdProgress, Feedback, ItemCard, PageRound, PlayState, Progress, Score,
    DAILY_GOAL, K,
};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{get_crowd_progress, get_play_state, get_progress, AnswerRound, CrowdReturn, NextItem, SubmitAnswer};
use crate::components::{keyboard_shortcuts, ActionError, Contexts, ErrorNote, LanguageChooser};
use crate::i18n::use_i18n;
use crate::response_clock::response_clock;

#[component]
pub fn Play() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map();
    let k = Memo::new(move |_| query.read().get("k").and_then(|raw| K::parse(&raw)).unwrap_or(K::DEFAULT));
    let language = Memo::new(move |_| query.read().get("lang").and_then(|raw| parse_language(&raw)).unwrap_or(i18n.0));
    let challenge = Memo::new(move |_| query.read().get("challenge").filter(|c| !c.is_empty()));
    let next = ServerAction::<NextItem>::new();
    let give_back = ServerAction::<CrowdReturn>::new();
    let round = ServerAction::<AnswerRound>::new();
    let state = Resource::new(
        move || (k.get(), language.get(), challenge.get(), next.version().get(), give_back.version().get()),
        |(k, language, challenge, ..)| get_play_state(k, Some(language.to_owned()), challenge),
    );
    // read again when the page changes; between, each round brings them (`standing`)
    let progress = Resource::new(move || (k.get(), language.get(), challenge.get(), give_back.version().get()), |_| get_progress());
    let crowd = Resource::new(move || (k.get(), language.get(), challenge.get(), give_back.version().get()), |_| get_crowd_progress());
    // what the last round brought: shown instead of the resources until the page's
    // k, language or challenge changes (or the server is asked again)
    let shown = RwSignal::new(None::<PlayState>);
    let upcoming = StoredValue::new(None::<PlayState>);
    let standing = RwSignal::new(None::<(Progress, Option<CrowdProgress>)>);
    Effect::new(move |_| {
        let _ = (k.get(), language.get(), challenge.get(), next.version().get(), give_back.version().get());
        shown.set(None);
        upcoming.set_value(None);
        standing.set(None);
    });
    // a level reached or an achievement earned by the last answer, said with its
    // feedback: against the progress the page last knew (a round's, kept across the
    // page's changes of k or language, else the page's first reading)
    let news = RwSignal::new(None::<String>);
    let known = StoredValue::new(None::<Progress>);
    Effect::new(move |_| {
        if let Some(Ok(PageRound { round: r, pseudonym, progress: now, crowd })) = round.value().get() {
            let before = known.get_value().or_else(|| progress.get_untracked().and_then(Result::ok));
            news.set(before.and_then(|before| news_text(&now.news_since(&before))));
            known.set_value(Some(now.clone()));
            standing.set(Some((now, crowd)));
            // the answer's feedback first, then what comes next (an item, or the end
            // of a crowd study with its completion code)
            upcoming.set_value(Some(r.next));
            shown.set(Some(PlayState::Feedback { feedback: r.feedback, pseudonym }));
        }
    });
    let play = Play { k, language, challenge, round, next, shown, upcoming, news };
    keyboard_shortcuts();
    view! {
        <Title text=i18n.t("nav-play")/>
        <h1 class="visually-hidden">{i18n.t("nav-play")}</h1>
        <Transition fallback=|| ()>
            {move || match standing.get() {
                Some((p, study)) => header(p, study, k, language, challenge, give_back),
                None => Suspend::new(async move {
                    match (crowd.await, progress.await) {
                        (Ok(study), Ok(p)) => header(p, study, k, language, challenge, give_back),
                        (Ok(Some(study)), Err(_)) => view! { <CrowdBar study give_back/> }.into_any(),
                        _ => ().into_any(),
                    }
                })
                .into_any(),
            }}
        </Transition>
        <Transition fallback=move || view! { <p class="loading">{i18n.t("loading")}</p> }>
            {move || match shown.get() {
                Some(local) => state_view(Ok(local), play),
                None => Suspend::new(async move { state_view(state.await, play) }).into_any(),
            }}
        </Transition>
        <ActionError value=round.value()/>
    }
}

/// The page's round: its query, the action that answers, and what it brought.
#[derive(Clone, Copy)]
struct Play {
    k: Memo<K>,
    language: Memo<&'static str>,
    challenge: Memo<Option<String>>,
    round: ServerAction<AnswerRound>,
    next: ServerAction<NextItem>,
    shown: RwSignal<Option<PlayState>>,
    upcoming: StoredValue<Option<PlayState>>,
    /// What the last answer brought besides its verdict (see [`news_text`]).
    news: RwSignal<Option<String>>,
}

/// A level reached and achievements earned, in words; `None` for nothing new.
fn news_text((level, earned): &(Option<i64>, Vec<Achievement>)) -> Option<String> {
    let i18n = use_i18n();
    let mut parts: Vec<String> = level.iter().map(|&level| i18n.t_with("play-level-up", &[("level", level.into())])).collect();
    parts.extend(earned.iter().map(|a| i18n.t_with("play-new-achievement", &[("name", i18n.t(a.key()).into())])));
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Above the item: the crowd study, or the language, progress and k chooser.
fn header(
    p: Progress,
    study: Option<CrowdProgress>,
    k: Memo<K>,
    language: Memo<&'static str>,
    challenge: Memo<Option<String>>,
    give_back: ServerAction<CrowdReturn>,
) -> AnyView {
    let i18n = use_i18n();
    match study {
        Some(study) => view! { <CrowdBar study give_back/> }.into_any(),
        None => view! {
            <LanguageChooser language base=Signal::derive(move || format!("/play?k={}&", k.get()))/>
            <ProgressBar p=p.clone()/>
            {move || challenge.get().is_none().then(|| view! { <KChooser k language level=p.level/> })}
            {move || challenge.get().is_some().then(|| view! { <p class="challenge-note">{i18n.t("play-challenge")}</p> })}
        }
        .into_any(),
    }
}

/// What the player sees of `state`.
fn state_view(state: Result<PlayState, crate::AppError>, play: Play) -> AnyView {
    let i18n = use_i18n();
    let (challenge, language) = (play.challenge, play.language);
    match state {
        Ok(PlayState::Item { card, score, pseudonym }) => view! {
            <Status score pseudonym/>
            <Item card play/>
        }.into_any(),
        Ok(PlayState::Feedback { feedback, pseudonym }) => view! {
            <Status score=feedback.score pseudonym/>
            <Outcome feedback play/>
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
        Ok(PlayState::Completed { redirect, code }) => view! { <Completed redirect code/> }.into_any(),
        Ok(PlayState::Returned { platform }) => view! {
            <section class="completed returned" role="status">
                <h2>{i18n.t("crowd-returned-title")}</h2>
                <p id="returned">{i18n.t_with("crowd-returned", &[("platform", platform.name().into())])}</p>
            </section>
        }.into_any(),
        Err(error) => view! {
            <ErrorNote error/>
            <p><a href="/">{i18n.t("start-home")}</a></p>
        }.into_any(),
    }
}

/// Links that choose how many sentences an item shows; a k the player's `level` has
/// not unlocked yet is shown with the level that unlocks it.
#[component]
fn KChooser(k: Memo<K>, language: Memo<&'static str>, level: i64) -> impl IntoView {
    let i18n = use_i18n();
    let label = i18n.t("play-k-label");
    let links = K::ALL
        .into_iter()
        .map(|choice| {
            let current = move || (k.get() == choice).then_some("page");
            let needed = unlock_level(choice);
            let lock = (level < needed).then(|| {
                let title = i18n.t_with("play-unlocks-at", &[("level", needed.into())]);
                view! { <span class="lock" title=title.clone() aria-label=title>"🔒"</span> }
            });
            view! { <a href=move || format!("/play?k={choice}&lang={}", language.get()) aria-current=current class="k-choice">{choice.get()}{lock}</a> }
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
fn Item(card: ItemCard, play: Play) -> impl IntoView {
    let (clock, stamp) = response_clock();
    let pending = play.round.pending();
    let [first, second] = card.options;
    let answer_id = card.answer_id.clone();
    // with JavaScript the whole round is one request; the form's own post (to
    // `answer`) is what a browser without it sends
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let choice = ev.submitter().and_then(|b| b.get_attribute("value")).and_then(|v| v.parse().ok()).unwrap_or(0);
        let filled = |field: NodeRef<leptos::html::Input>| field.get_untracked().map(|input| input.value()).filter(|v| !v.is_empty());
        play.round.dispatch(AnswerRound {
            answer_id: answer_id.clone(),
            choice,
            client_ms: filled(clock.client_ms),
            trial: filled(clock.trial),
            k: play.k.get_untracked(),
            language: Some(play.language.get_untracked().to_owned()),
            challenge: play.challenge.get_untracked(),
        });
    };
    view! {
        <form method="post" action=SubmitAnswer::url() class="item" on:submit=submit>
            <input type="hidden" name="answer_id" value=card.answer_id/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
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
        </form>
    }
}

/// Right or wrong, the sentences with the word filled in, and the way on.
#[component]
fn Outcome(feedback: Feedback, play: Play) -> impl IntoView {
    let i18n = use_i18n();
    let verdict = if feedback.correct {
        view! { <p class="verdict right">{i18n.t("play-right")} " " <strong>{feedback.target.clone()}</strong></p> }.into_any()
    } else {
        let chosen = i18n.t_with("play-you-chose", &[("word", feedback.chosen.clone().into())]);
        view! {
            <p class="verdict wrong">{i18n.t("play-wrong")} " " <strong>{feedback.target.clone()}</strong></p>
            <p class="chosen">{chosen}</p>
        }
        .into_any()
    };
    view! {
        <section class="feedback" aria-live="polite" data-correct=feedback.correct.to_string()>
            {verdict}
            {move || play.news.get().map(|text| view! { <p class="news" role="status">{text}</p> })}
            <Contexts contexts=feedback.contexts filled=feedback.target/>
            <form method="post" action=NextItem::url() on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                // the next item came with the answer; without it, the server moves on
                match play.upcoming.try_update_value(Option::take).flatten() {
                    Some(state) => play.shown.set(Some(state)),
                    None => {
                        play.next.dispatch(NextItem {});
                    }
                }
            }>
                <button type="submit" class="primary" id="next" autofocus>{i18n.t("play-next")} " " <kbd>"Enter"</kbd></button>
            </form>
        </section>
    }
}

/// A crowd participant's study: how far they are, and a way to give it back, asked
/// twice (a `<details>`, so it works without JavaScript too).
#[component]
fn CrowdBar(study: CrowdProgress, give_back: ServerAction<CrowdReturn>) -> impl IntoView {
    let i18n = use_i18n();
    let line = i18n.t_with("crowd-progress", &[("done", study.answered.into()), ("target", study.target.into())]);
    view! {
        <div class="crowd-bar" aria-live="polite">
            <strong>{study.study}</strong> " "
            <label><progress max=study.target.to_string() value=study.answered.to_string()></progress> " " <span class="crowd-count">{line}</span></label>
            <details class="give-back">
                <summary id="give-back">{i18n.t("crowd-return")}</summary>
                <p>{i18n.t("crowd-return-confirm")}</p>
                <ActionForm action=give_back attr:class="inline">
                    <button type="submit" class="danger" id="confirm-give-back">{i18n.t("crowd-return-yes")}</button>
                </ActionForm>
            </details>
        </div>
    }
}

/// The end of a crowd study: thanks, the completion code to copy, and the way back
/// to the platform (which takes the code itself where it can).
#[component]
fn Completed(redirect: String, code: String) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <section class="completed" role="status">
            <h2>{i18n.t("crowd-done-title")}</h2>
            <p>{i18n.t("crowd-done")}</p>
            <label>{i18n.t("crowd-code")} " "
                <input type="text" readonly id="completion-code" class="code" value=code size="16"
                    on:focus=|ev| { event_target::<web_sys::HtmlInputElement>(&ev).select() }/>
            </label>
            <p><a class="button primary" href=redirect id="complete">{i18n.t("crowd-back")}</a></p>
        </section>
    }
}
