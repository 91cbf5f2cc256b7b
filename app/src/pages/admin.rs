//! The admin page: table sizes, the suggestions queue (approve, maybe after
//! editing, or reject with a reason), item building and the audit log. Admins only.

use gapwise_store::model::{AdminOverview, Suggestion};
use leptos::prelude::*;

use crate::api::{get_admin_overview, ApproveSuggestion, BuildItems, RejectSuggestion};
use crate::components::{ActionError, ErrorNote};

#[component]
pub fn Admin() -> impl IntoView {
    let approve = ServerAction::<ApproveSuggestion>::new();
    let reject = ServerAction::<RejectSuggestion>::new();
    let build = ServerAction::<BuildItems>::new();
    let overview = Resource::new(
        move || (approve.version().get(), reject.version().get(), build.version().get()),
        |_| get_admin_overview(),
    );
    let built = move || match build.value().get() {
        Some(Ok(n)) => Some(view! { <p class="ok" role="status">{format!("{n} items built.")}</p> }),
        _ => None,
    };
    view! {
        <div class="wide">
            <h1>"Admin"</h1>
            <ActionError value=approve.value()/>
            <ActionError value=reject.value()/>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Ok(o) => view! { <Overview o approve reject/> }.into_any(),
                        Err(error) => view! { <ErrorNote error/> <p><a href="/staff">"Staff sign-in"</a></p> }.into_any(),
                    }
                })}
            </Transition>
            <h2>"Items"</h2>
            <ActionForm action=build><button type="submit" id="build-items">"Build items for new pairs"</button></ActionForm>
            {built}
            <ActionError value=build.value()/>
        </div>
    }
}

#[component]
fn Overview(o: AdminOverview, approve: ServerAction<ApproveSuggestion>, reject: ServerAction<RejectSuggestion>) -> impl IntoView {
    let queue = if o.pending.is_empty() {
        view! { <p>"No suggestion awaits a decision."</p> }.into_any()
    } else {
        o.pending.into_iter().map(|s| view! { <Pending s approve reject/> }).collect_view().into_any()
    };
    view! {
        <dl class="counts">
            {o.counts.into_iter().map(|(table, n)| view! { <div><dt>{table.replace('_', " ")}</dt><dd>{n}</dd></div> }).collect_view()}
        </dl>
        <h2>"Suggested pairs"</h2>
        {queue}
        <h2>"Audit log"</h2>
        <div class="scroll">
            <table class="audit">
                <thead><tr><th scope="col">"When"</th><th scope="col">"Who"</th><th scope="col">"What"</th><th scope="col">"Detail"</th></tr></thead>
                <tbody>
                    {o.audit.into_iter().map(|e| view! { <tr><td>{e.at}</td><td>{e.staff}</td><td>{e.action}</td><td>{e.detail}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// One pending suggestion: its words (editable) with Approve, and a reason with Reject.
#[component]
fn Pending(s: Suggestion, approve: ServerAction<ApproveSuggestion>, reject: ServerAction<RejectSuggestion>) -> impl IntoView {
    let id = s.id.to_string();
    let (approve_id, reject_id) = (id.clone(), id.clone());
    view! {
        <section class="pending-suggestion" data-suggestion=id>
            <ActionForm action=approve attr:class="approve">
                <input type="hidden" name="id" value=approve_id/>
                <label>"Target " <input type="text" name="target" value=s.target required/></label>
                <label>"Distractor " <input type="text" name="distractor" value=s.distractor required/></label>
                <span class="lang">{s.language}</span>
                <button type="submit" class="primary">"Approve"</button>
            </ActionForm>
            <ActionForm action=reject attr:class="reject">
                <input type="hidden" name="id" value=reject_id/>
                <label>"Reason " <input type="text" name="reason" required/></label>
                <button type="submit">"Reject"</button>
            </ActionForm>
        </section>
    }
}
