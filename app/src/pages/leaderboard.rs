//! The public leaderboard: players by pseudonym and the scored models among them.

use gapwise_model::{Contender, Period, Standing};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{leaderboard, whoami};
use crate::components::ErrorNote;
use crate::i18n::{msg, use_i18n, Msg};

#[component]
pub fn Leaderboard() -> impl IntoView {
    let query = use_query_map();
    let period = Memo::new(move |_| Period::parse(query.read().get("period").as_deref()));
    let standings = Resource::new(move || period.get(), leaderboard);
    // the player's own pseudonym, to mark their row
    let me = Resource::new(|| (), |_| whoami());
    let i18n = use_i18n();
    let tab = move |which: Period, href: &'static str, key: Msg| {
        let current = move || (period.get() == which).then_some("page");
        view! { <a href=href aria-current=current class="k-choice">{i18n.t(key)}</a> }
    };
    view! {
        <Title text=i18n.t(msg::NAV_LEADERBOARD)/>
        <h1>{i18n.t(msg::NAV_LEADERBOARD)}</h1>
        <nav class="k-chooser periods" aria-label=i18n.t(msg::LEADERBOARD_PERIOD)>
            {tab(Period::Week, "/leaderboard", msg::LEADERBOARD_WEEK)}
            {tab(Period::AllTime, "/leaderboard?period=all", msg::LEADERBOARD_ALL_TIME)}
        </nav>
        <p>{i18n.t(msg::LEADERBOARD_INTRO)}</p>
        <Suspense fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match standings.await {
                    Ok(list) if list.is_empty() => view! { <p>{i18n.t(msg::LEADERBOARD_EMPTY)}</p> }.into_any(),
                    Ok(list) => {
                        let me = me.await.ok().flatten();
                        view! { <StandingsTable list me/> }.into_any()
                    }
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The standings, the row of the player `me` (if they stand there) marked as theirs.
#[component]
fn StandingsTable(list: Vec<Standing>, me: Option<String>) -> impl IntoView {
    let i18n = use_i18n();
    let rows = list
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let rate = format!("{:.0} %", 100.0 * s.rate());
            let mine = matches!(&s.who, Contender::Player(p) if me.as_ref() == Some(p));
            let (name, class) = match &s.who {
                Contender::Player(p) if mine => (
                    view! { <span>{p.clone()} " " <strong class="badge you">{i18n.t(msg::LEADERBOARD_YOU)}</strong></span> }.into_any(),
                    "player me",
                ),
                Contender::Player(p) => (view! { <span>{p.clone()}</span> }.into_any(), "player"),
                Contender::Model(m) => {
                    (view! { <span>{m.clone()} " " <span class="badge">{i18n.t(msg::LEADERBOARD_MODEL)}</span></span> }.into_any(), "model")
                }
            };
            view! {
                <tr class=class aria-current=mine.then_some("true")>
                    <td>{i + 1}</td>
                    <td>{name}</td>
                    <td class="num">{rate}</td>
                    <td class="num">{s.correct} " / " {s.answered}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="scroll">
            <table class="standings">
                <caption class="visually-hidden">{i18n.t(msg::LEADERBOARD_CAPTION)}</caption>
                <thead><tr>
                    <th scope="col">"#"</th>
                    <th scope="col">{i18n.t(msg::LEADERBOARD_WHO)}</th>
                    <th scope="col">{i18n.t(msg::LEADERBOARD_SUCCESS)}</th>
                    <th scope="col">{i18n.t(msg::LEADERBOARD_RIGHT_ANSWERED)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
