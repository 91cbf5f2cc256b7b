//! The game page. It renders the player's state as the server keeps it (see
//! `gapwise_engine`), so it plays the same with and without JavaScript. Without,
//! an answer posts `answer` and "next" posts `next`, each a page load. With
//! JavaScript, a round is one request (`answer-round`): the feedback, the next item
//! already served, the progress and the crowd study come back together, and
//! "next" shows that item without asking the server again. The response time is
//! measured in the browser from the frame the item is painted to the click, and
//! keys 1/2 choose, Enter continues. The server renders the page from the player's
//! state; the rounds are an island ([`PlayRounds`]) that takes over from there.
//!
//! `?challenge=<id>` plays a challenge's ten items; a crowd participant sees their
//! study's progress and a way to give it back, and is sent to the platform at the end.

use futures_util::future::join;
use gapwise_model::{
    level_threshold, unlock_level, Achievement, CrowdProgress, Feedback, ItemCard, Mode, PageRound, PlayState, Progress, Score, DAILY_GOAL,
    K,
};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{
    crowd_return, get_crowd_progress, get_play_state, get_progress, next_item, AnswerRound, CrowdReturn, NextItem, SubmitAnswer,
};
use crate::components::{keyboard_shortcuts, posted_error, ActionError, Contexts, ErrorNote, LanguageChooser};
use crate::i18n::{achievement_messages, language_of, msg, query_language, use_i18n};
use crate::response_clock::response_clock;
use crate::AppError;

#[component]
pub fn Play() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map();
    let k = query.read_untracked().get("k").and_then(|raw| K::parse(&raw)).unwrap_or(K::DEFAULT);
    let challenge = query.read_untracked().get("challenge").filter(|c| !c.is_empty());
    let language = query_language();
    // the error a plain form post of the game's came back with (an answer, "next",
    // giving the study back)
    let failed = posted_error::<SubmitAnswer>().or_else(posted_error::<NextItem>).or_else(posted_error::<CrowdReturn>);
    // the page is rendered whole on the server; its island starts from what it read
    let page = async move {
        let (state, above) = join(get_play_state(k, Some(language.to_owned()), challenge.clone()), Above::read()).await;
        view! { <PlayRounds k language=language.to_owned() challenge state above failed/> }
    };
    view! {
        <Title text=i18n.t(crate::i18n::mode_name(Mode::Play))/>
        <h1 class="visually-hidden">{i18n.t(msg::NAV_PLAY)}</h1>
        <Suspense fallback=|| ()>{Suspend::new(page)}</Suspense>
    }
}

/// What the game shows above the item: the player's progress, or their crowd study.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Above {
    progress: Option<Progress>,
    study: Option<CrowdProgress>,
}

impl Above {
    /// As the server has it now (none of it for a visitor who has not started).
    async fn read() -> Self {
        let (progress, study) = join(get_progress(), get_crowd_progress()).await;
        Above { progress: progress.ok(), study: study.ok().flatten() }
    }
}

/// The game as the browser plays it (an island), from the server's `state` and
/// what is `above` it: each answer is one request that brings its feedback, the next
/// item and what is above anew. `failed`: the error of the plain form post the page
/// came back from, shown until the game goes on.
#[island]
fn PlayRounds(
    k: K,
    language: String,
    challenge: Option<String>,
    state: Result<PlayState, AppError>,
    above: Above,
    failed: Option<AppError>,
) -> impl IntoView {
    let round = ServerAction::<AnswerRound>::new();
    let failed = RwSignal::new(failed);
    let play = Play {
        k,
        language: language_of(&language),
        challenge: StoredValue::new(challenge),
        round,
        shown: RwSignal::new(state),
        upcoming: StoredValue::new(None),
        above: RwSignal::new(above),
        news: RwSignal::new(None),
        reloads: StoredValue::new(0),
    };
    Effect::new(move |_| {
        if let Some(Ok(PageRound { round: r, pseudonym, progress: now, crowd })) = round.value().get() {
            failed.set(None);
            // a level reached or an achievement earned by the answer, said with its
            // feedback: against the progress the page knew before it; a crowd
            // participant plays a study, not the game, and hears none of it
            let before = play.above.with_untracked(|above| above.progress.as_ref().map(|before| now.news_since(before)));
            play.news.set(before.filter(|_| crowd.is_none()).and_then(|news| news_text(&news)));
            play.above.set(Above { progress: Some(now), study: crowd });
            // the answer's feedback first, then what comes next (an item, or the end
            // of a crowd study with its completion code)
            play.upcoming.set_value(Some(r.next));
            play.shown.set(Ok(PlayState::Feedback { feedback: r.feedback, pseudonym }));
        }
    });
    keyboard_shortcuts();
    view! {
        {move || failed.get().map(|error| view! { <ErrorNote error/> })}
        {move || above_view(play.above.get(), play)}
        {move || state_view(play.shown.get(), play)}
        <ActionError value=round.value()/>
    }
}

/// The game's round: its query, the action that answers, and what it brought.
#[derive(Clone, Copy)]
struct Play {
    k: K,
    language: &'static str,
    challenge: StoredValue<Option<String>>,
    round: ServerAction<AnswerRound>,
    shown: RwSignal<Result<PlayState, AppError>>,
    /// What comes after the feedback shown, as the answer brought it.
    upcoming: StoredValue<Option<PlayState>>,
    above: RwSignal<Above>,
    /// What the last answer brought besides its verdict (see [`news_text`]).
    news: RwSignal<Option<String>>,
    /// How many times the page asked the server for its state (see `then_reload`).
    reloads: StoredValue<u64>,
}

impl Play {
    /// After `asked` (moving on without the next item at hand, or giving the study
    /// back): the server's state anew, and with `above`, what is above it too.
    /// Only the latest of such requests is shown (a double press of "next").
    fn then_reload(self, asked: impl std::future::Future<Output = Result<(), AppError>> + 'static, above: bool) {
        self.reloads.update_value(|n| *n += 1);
        let this = self.reloads.get_value();
        leptos::task::spawn_local(async move {
            let state = match asked.await {
                Ok(()) => get_play_state(self.k, Some(self.language.to_owned()), self.challenge.get_value()).await,
                Err(error) => Err(error),
            };
            let read = if above { Some(Above::read().await) } else { None };
            if self.reloads.get_value() == this {
                if let Some(read) = read {
                    self.above.set(read);
                }
                self.shown.set(state);
            }
        });
    }
}

/// A level reached and achievements earned, in words; `None` for nothing new.
fn news_text((level, earned): &(Option<i64>, Vec<Achievement>)) -> Option<String> {
    let i18n = use_i18n();
    let mut parts: Vec<String> = level.iter().map(|&level| i18n.t_with(msg::PLAY_LEVEL_UP, &[("level", level.into())])).collect();
    parts.extend(earned.iter().map(|a| i18n.t_with(msg::PLAY_NEW_ACHIEVEMENT, &[("name", i18n.t(achievement_messages(*a).0).into())])));
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Above the item: the crowd study, or the language, progress and k chooser.
fn above_view(Above { progress, study }: Above, play: Play) -> AnyView {
    let i18n = use_i18n();
    match (progress, study) {
        (_, Some(study)) => view! { <CrowdBar study play/> }.into_any(),
        (Some(p), None) => view! {
            <LanguageChooser language=play.language base=format!("/play?k={}&", play.k)/>
            <ProgressBar p=p.clone()/>
            {match play.challenge.get_value() {
                None => view! { <KChooser k=play.k language=play.language level=p.level/> }.into_any(),
                Some(_) => view! { <p class="challenge-note">{i18n.t(msg::PLAY_CHALLENGE)}</p> }.into_any(),
            }}
        }
        .into_any(),
        (None, None) => ().into_any(),
    }
}

/// What the player sees of `state`.
fn state_view(state: Result<PlayState, AppError>, play: Play) -> AnyView {
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
            {match challenge.get_value() {
                Some(_) => view! { <p class="exhausted">{i18n.t(msg::PLAY_CHALLENGE_DONE)} " " <a href="/friends">{i18n.t(msg::NAV_FRIENDS)}</a></p> }.into_any(),
                None => view! { <p class="exhausted">{i18n.t_with(msg::PLAY_EXHAUSTED, &[("k", usize::from(k).into())])}</p> }.into_any(),
            }}
        }.into_any(),
        Ok(PlayState::Locked { k, level, pseudonym }) => view! {
            <p class="status"><span class="pseudonym">{pseudonym}</span></p>
            <p class="locked">{i18n.t_with(msg::PLAY_LOCKED, &[("k", usize::from(k).into()), ("level", level.into())])}</p>
            <p><a href=format!("/play?k=5&lang={language}")>{i18n.t(msg::PLAY_LOCKED_BACK)}</a></p>
        }.into_any(),
        Ok(PlayState::Completed { redirect, code }) => view! { <Completed redirect code/> }.into_any(),
        Ok(PlayState::Returned { platform }) => view! {
            <section class="completed returned" role="status">
                <h2>{i18n.t(msg::CROWD_RETURNED_TITLE)}</h2>
                <p id="returned">{i18n.t_with(msg::CROWD_RETURNED, &[("platform", platform.name().into())])}</p>
            </section>
        }.into_any(),
        Err(error) => view! {
            <ErrorNote error/>
            <p><a href="/">{i18n.t(msg::START_HOME)}</a></p>
        }.into_any(),
    }
}

/// Links that choose how many sentences an item shows; a k the player's `level` has
/// not unlocked yet is shown with the level that unlocks it.
#[component]
fn KChooser(k: K, language: &'static str, level: i64) -> impl IntoView {
    let i18n = use_i18n();
    let label = i18n.t(msg::PLAY_K_LABEL);
    let links = K::ALL
        .into_iter()
        .map(|choice| {
            let current = (k == choice).then_some("page");
            let needed = unlock_level(choice);
            let lock = (level < needed).then(|| {
                let title = i18n.t_with(msg::PLAY_UNLOCKS_AT, &[("level", needed.into())]);
                view! { <span class="lock" title=title.clone() aria-label=title>"🔒"</span> }
            });
            view! { <a href=format!("/play?k={choice}&lang={language}") aria-current=current class="k-choice">{choice.get()}{lock}</a> }
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
            <span class="level">{i18n.t_with(msg::PLAY_LEVEL, &[("level", p.level.into())])}</span>
            <label>
                <progress max=(p.next_level_at - level_start).to_string() value=(p.points - level_start).to_string()></progress>
                <span class="points">{i18n.t_with(msg::PLAY_POINTS, &[("n", p.points.into())])}</span>
            </label>
            <span class="streak">{i18n.t_with(msg::PLAY_STREAK, &[("streak", p.streak.into()), ("best", p.best_streak.into())])}</span>
            {(p.from_pairs > 0).then(|| view! { <span class="from-pairs">{i18n.t_with(msg::PLAY_FROM_PAIRS, &[("n", p.from_pairs.into())])}</span> })}
            <span class="daily" class:done=goal_met>{i18n.t_with(msg::PLAY_TODAY, &[("done", p.today.min(DAILY_GOAL).into()), ("goal", DAILY_GOAL.into())])}</span>
            <Achievements earned=p.achievements/>
        </div>
    }
}

/// Every achievement, the earned ones marked, each with how to get it.
#[component]
fn Achievements(earned: Vec<Achievement>) -> impl IntoView {
    let i18n = use_i18n();
    let summary = i18n.t_with(msg::PLAY_ACHIEVEMENTS, &[("n", earned.len().into()), ("all", Achievement::ALL.len().into())]);
    let items = Achievement::ALL
        .into_iter()
        .map(|a| {
            let got = earned.contains(&a);
            view! {
                <li class:earned=got>
                    <span aria-hidden="true">{if got { "★ " } else { "☆ " }}</span>
                    <strong>{i18n.t(achievement_messages(a).0)}</strong> " " {i18n.t(achievement_messages(a).1)}
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
    let line = use_i18n().t_with(msg::PLAY_SCORE, &[("right", score.correct.into()), ("answered", score.answered.into())]);
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
    let (answer_id, language) = (card.answer_id.clone(), card.lang.code());
    // with JavaScript the whole round is one request; the form's own post (to
    // `answer`) is what a browser without it sends
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let choice = ev.submitter().and_then(|b| b.get_attribute("value")).and_then(|v| v.parse().ok()).unwrap_or(0);
        let filled = |field: NodeRef<leptos::html::Input>| field.get_untracked().map(|input| input.value()).filter(|v| !v.is_empty());
        play.round.dispatch(AnswerRound {
            answer_id: answer_id.to_string(),
            choice,
            client_ms: filled(clock.client_ms),
            trial: filled(clock.trial),
            k: play.k,
            language: Some(play.language.to_owned()),
            challenge: play.challenge.get_value(),
        });
    };
    view! {
        <form method="post" action=SubmitAnswer::url() class="item" on:submit=submit>
            <input type="hidden" name="answer_id" value=card.answer_id.to_string()/>
            <input type="hidden" name="client_ms" value="" node_ref=clock.client_ms/>
            <input type="hidden" name="trial" value="" node_ref=clock.trial/>
            <Contexts contexts=card.contexts language/>
            <p class="prompt" id="prompt">{use_i18n().t(msg::PLAY_PROMPT)}</p>
            <div class="options" role="group" aria-labelledby="prompt">
                <button type="submit" name="choice" value="0" class="option" data-key="1" on:click=stamp disabled=pending>
                    <kbd>"1"</kbd> <span class="word" lang=language>{first}</span>
                </button>
                <button type="submit" name="choice" value="1" class="option" data-key="2" on:click=stamp disabled=pending>
                    <kbd>"2"</kbd> <span class="word" lang=language>{second}</span>
                </button>
            </div>
        </form>
    }
}

/// Right or wrong, the sentences with the word filled in, and the way on.
#[component]
fn Outcome(feedback: Feedback, play: Play) -> impl IntoView {
    let i18n = use_i18n();
    let language = feedback.lang.code();
    let verdict = if feedback.correct {
        view! { <p class="verdict right">{i18n.t(msg::PLAY_RIGHT)} " " <strong lang=language>{feedback.target.clone()}</strong></p> }
            .into_any()
    } else {
        let chosen = i18n.t_words(msg::PLAY_YOU_CHOSE, &[("word", &feedback.chosen)], language);
        view! {
            <p class="verdict wrong">{i18n.t(msg::PLAY_WRONG)} " " <strong lang=language>{feedback.target.clone()}</strong></p>
            <p class="chosen">{chosen}</p>
        }
        .into_any()
    };
    view! {
        <section class="feedback" aria-live="polite" data-correct=feedback.correct.to_string()>
            {verdict}
            {move || play.news.get().map(|text| view! { <p class="news" role="status">{text}</p> })}
            <Contexts contexts=feedback.contexts language filled=feedback.target/>
            <form method="post" action=NextItem::url() on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                // the next item came with the answer; without it, the server moves on
                match play.upcoming.try_update_value(Option::take).flatten() {
                    Some(state) => play.shown.set(Ok(state)),
                    None => play.then_reload(next_item(), false),
                }
            }>
                <button type="submit" class="primary" id="next" autofocus>{i18n.t(msg::PLAY_NEXT)} " " <kbd>"Enter"</kbd></button>
            </form>
        </section>
    }
}

/// A crowd participant's study: how far they are, and, until every item is
/// answered, a way to give it back, asked twice (a `<details>`, so it works without
/// JavaScript too).
#[component]
fn CrowdBar(study: CrowdProgress, play: Play) -> impl IntoView {
    let i18n = use_i18n();
    let line = i18n.t_with(msg::CROWD_PROGRESS, &[("done", study.answered.into()), ("target", study.target.into())]);
    let give_back = (study.answered < study.target).then(|| {
        view! {
            <details class="give-back">
                <summary id="give-back">{i18n.t(msg::CROWD_RETURN)}</summary>
                <p>{i18n.t(msg::CROWD_RETURN_CONFIRM)}</p>
                <form method="post" action=CrowdReturn::url() class="inline" on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    play.then_reload(crowd_return(), true);
                }>
                    <button type="submit" class="danger" id="confirm-give-back">{i18n.t(msg::CROWD_RETURN_YES)}</button>
                </form>
            </details>
        }
    });
    view! {
        <div class="crowd-bar" aria-live="polite">
            <strong>{study.study}</strong> " "
            <label><progress max=study.target.to_string() value=study.answered.to_string()></progress> " " <span class="crowd-count">{line}</span></label>
            {give_back}
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
            <h2>{i18n.t(msg::CROWD_DONE_TITLE)}</h2>
            <p>{i18n.t(msg::CROWD_DONE)}</p>
            <label>{i18n.t(msg::CROWD_CODE)} " "
                <input type="text" readonly id="completion-code" class="code" value=code size="16"
                    on:focus=|ev| { event_target::<web_sys::HtmlInputElement>(&ev).select() }/>
            </label>
            <p><a class="button primary" href=redirect id="complete">{i18n.t(msg::CROWD_BACK)}</a></p>
        </section>
    }
}
