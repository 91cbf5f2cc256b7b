//! The entry of a crowd study, `/crowd/<study>`: the platform sends participants here
//! with its ids in the query (Prolific: `PROLIFIC_PID`, `SESSION_ID`; MTurk:
//! `workerId`, `assignmentId`). They read what the study is for and consent; then
//! the game serves the study's items.

use gapwise_model::{CrowdEntry, MTURK_PREVIEW};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::{get_crowd_entry, CrowdStart};
use crate::components::{ActionError, ConsentBox, ConsentTerms, ErrorNote};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn CrowdPage() -> impl IntoView {
    let params = use_params_map();
    let study = move || params.read().get("study").unwrap_or_default();
    let entry = Resource::new(study, get_crowd_entry);
    let i18n = use_i18n();
    view! {
        <Suspense fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match entry.await {
                    Ok(e) => view! { <Entry e study=study()/> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Entry(e: CrowdEntry, study: String) -> impl IntoView {
    let start = ServerAction::<CrowdStart>::new();
    let query = use_query_map();
    let (participant_key, session_key) = e.platform.parameters();
    let participant = query.read_untracked().get(participant_key).unwrap_or_default();
    let session = query.read_untracked().get(session_key).unwrap_or_default();
    let preview = session == MTURK_PREVIEW;
    let i18n = use_i18n();
    let task = i18n.t_with(msg::CROWD_TASK, &[("n", e.items_target.into()), ("minutes", e.max_minutes.into())]);
    view! {
        <section class="intro">
            <h1>{e.study}</h1>
            <p>{i18n.t(msg::LANDING_WHY)}</p>
            <p class="crowd-task">{task}</p>
        </section>
        <section class="consent" aria-labelledby="consent-title">
            <h2 id="consent-title">{i18n.t(msg::CONSENT_TITLE)}</h2>
            <ConsentTerms/>
            {if preview {
                view! { <p class="note" role="status">{i18n.t(msg::CROWD_PREVIEW)}</p> }.into_any()
            } else {
                view! {
                    <ActionForm action=start attr:class="consent-form">
                        <input type="hidden" name="study" value=study/>
                        <input type="hidden" name="participant" value=participant/>
                        <input type="hidden" name="platform_session" value=session/>
                        <ConsentBox/>
                        <button type="submit" class="primary" id="start">{i18n.t(msg::CROWD_START)}</button>
                    </ActionForm>
                }.into_any()
            }}
            <ActionError value=start.value()/>
        </section>
    }
}
