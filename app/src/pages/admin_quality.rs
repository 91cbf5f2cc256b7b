//! The admin page's quality control (per-item redundancy, gold items, flagged
//! players) and crowd studies (set one up, follow its assignments).

use gapwise_model::{AdminOverview, ItemPolicy, Platform, GOLD_MISSES_TO_FLAG, K, LANGUAGES, MAX_ANSWERS_PER_ITEM};
use leptos::prelude::*;

use crate::api::{CreateStudy, SetAnswersPerItem};

/// The admin actions of this part, whose errors the page shows.
#[derive(Clone, Copy)]
pub struct QualityActions {
    pub redundancy: ServerAction<SetAnswersPerItem>,
    pub study: ServerAction<CreateStudy>,
}

impl QualityActions {
    pub fn new() -> Self {
        QualityActions { redundancy: ServerAction::new(), study: ServerAction::new() }
    }
}

#[component]
pub fn Quality(o: AdminOverview, actions: QualityActions) -> impl IntoView {
    let flagged = if o.flagged.is_empty() {
        view! { <p>"No player is flagged."</p> }.into_any()
    } else {
        view! {
            <div class="scroll"><table class="flagged">
                <thead><tr><th scope="col">"Player"</th><th scope="col">"Why"</th><th scope="col">"Answers"</th><th scope="col">"Gold right"</th><th scope="col">"Gold missed"</th></tr></thead>
                <tbody>{o.flagged.into_iter().map(|p| view! {
                    <tr><td class="pseudonym">{p.pseudonym}</td><td class="reasons">{p.reasons.join(", ")}</td><td class="num">{p.answers}</td>
                        <td class="num">{p.gold_right}</td><td class="num">{p.gold_missed}</td></tr>
                }).collect_view()}</tbody>
            </table></div>
        }.into_any()
    };
    view! {
        <h2>"Quality control"</h2>
        <ActionForm action=actions.redundancy attr:class="inline">
            <label>"Answers per item before it retires " <input type="number" name="n" min="1" max=MAX_ANSWERS_PER_ITEM value=o.answers_per_item id="answers-per-item"/></label>
            <button type="submit">"Set"</button>
        </ActionForm>
        <p id="gold-items">
            {o.gold_items} " gold items (mark them on a pair's item list). Gold items go to every player, more often to those who miss them; "
            {format!("a player who missed {GOLD_MISSES_TO_FLAG} or more, more than they got right, is flagged gold_failing.")}
        </p>
        <h3>"Flagged players"</h3>
        <p>"Flagged answers are kept; exports carry the reasons in the player_flag column."</p>
        {flagged}
        <Studies studies=o.studies action=actions.study/>
    }
}

#[component]
fn Studies(studies: Vec<gapwise_model::CrowdStudy>, action: ServerAction<CreateStudy>) -> impl IntoView {
    view! {
        <h2>"Crowd studies"</h2>
        <ActionForm action=action attr:class="study-form">
            <label>"Platform " <select name="platform">{Platform::ALL.into_iter().map(|p| view! { <option value=p.code()>{p.code()}</option> }).collect_view()}</select></label>
            <label>"Name " <input type="text" name="name" required maxlength="100"/></label>
            <label>"k " <select name="k">{K::ALL.into_iter().rev().map(|k| view! { <option value=k.get()>{k.get()}</option> }).collect_view()}</select></label>
            <label>"Language " <select name="language">{LANGUAGES.into_iter().map(|(c, n)| view! { <option value=c>{n}</option> }).collect_view()}</select></label>
            <label>"Items " <input type="number" name="items_target" min="1" max="500" value="20" required/></label>
            <label>"Time limit (minutes) " <input type="number" name="max_minutes" min="1" max="1440" value="60" required/></label>
            <label>"Completion code (empty: made up) " <input type="text" name="completion_code" pattern="[A-Za-z0-9]*"/></label>
            <label>"Items served " <select name="item_policy">
                <option value=ItemPolicy::FewestHolders.code()>"fewest holders first"</option>
                <option value=ItemPolicy::MostInformation.code()>"adaptive: most information at the participant's ability"</option>
            </select></label>
            <button type="submit" class="primary">"Create study"</button>
        </ActionForm>
        <crate::components::ActionError value=action.value()/>
        <div class="scroll"><table class="studies">
            <thead><tr><th scope="col">"Study"</th><th scope="col">"Entry URL (after this site's address)"</th><th scope="col">"Code"</th>
                <th scope="col">"Active"</th><th scope="col">"Completed"</th><th scope="col">"Returned"</th><th scope="col">"Abandoned"</th></tr></thead>
            <tbody>{studies.into_iter().map(|study| {
                let s = study.settings;
                let url = s.platform.entry_url("", &study.id);
                view! {
                    <tr>
                        <td>{format!("{} ({}, k = {}, {}, {} items, {} min, {})", s.name, s.platform.code(), s.k, s.language, s.items_target, s.max_minutes, s.policy.code())}</td>
                        <td><code class="entry-url">{url}</code></td>
                        <td><code>{s.completion_code}</code></td>
                        {study.assignments.into_iter().map(|n| view! { <td class="num">{n}</td> }).collect_view()}
                    </tr>
                }
            }).collect_view()}</tbody>
        </table></div>
    }
}
