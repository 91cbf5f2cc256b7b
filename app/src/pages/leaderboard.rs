//! The public leaderboard: players by pseudonym and the scored models among them.

use gapwise_store::model::{Contender, Standing};
use leptos::prelude::*;

use crate::api::leaderboard;
use crate::components::ErrorNote;

#[component]
pub fn Leaderboard() -> impl IntoView {
    let standings = Resource::new(|| (), |_| leaderboard());
    view! {
        <h1>"Leaderboard"</h1>
        <p>"Success rate of the best players (10 answers or more) and of the language models that play the same items. "
           "A model answers each item people have played; it is right when it gives the hidden word a higher probability."</p>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match standings.await {
                    Ok(list) if list.is_empty() => view! { <p>"Nobody is ranked yet: play 10 items to appear here."</p> }.into_any(),
                    Ok(list) => view! { <StandingsTable list/> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn StandingsTable(list: Vec<Standing>) -> impl IntoView {
    let rows = list
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let rate = format!("{:.0} %", 100.0 * s.rate());
            let (name, class) = match &s.who {
                Contender::Player(p) => (view! { <span>{p.clone()}</span> }.into_any(), "player"),
                Contender::Model(m) => (view! { <span>{m.clone()} " " <span class="badge">"model"</span></span> }.into_any(), "model"),
            };
            view! {
                <tr class=class>
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
                <caption class="visually-hidden">"Players and models by success rate"</caption>
                <thead><tr><th scope="col">"#"</th><th scope="col">"Who"</th><th scope="col">"Success"</th><th scope="col">"Right / answered"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
