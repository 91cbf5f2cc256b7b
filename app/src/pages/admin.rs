//! The admin page: table sizes, the corpora, the suggestions queue (approve, maybe after
//! editing, or reject with a reason), item building, the audit log, quality control
//! and crowd studies (in `admin_quality`). Admins only.

use gapwise_model::{
    AdminOverview, PairRow, Suggestion, DEFAULT_LANGUAGE, FAST_ANSWER_FLOOR_MS, LANGUAGES, MAX_PAIR_PAGE, MAX_REASON_CHARS, PAIRS_PER_PAGE,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::admin_quality::{Quality, QualityActions};
use crate::api::{admin_pairs, get_admin_overview, ApproveSuggestion, BuildItems, RejectSuggestion, SetPairActive};
use crate::components::{after_post, ActionError, ErrorNote, StaffBar};
use crate::notice::Notice;

#[component]
pub fn Admin() -> impl IntoView {
    let approve = ServerAction::<ApproveSuggestion>::new();
    let reject = ServerAction::<RejectSuggestion>::new();
    let build = ServerAction::<BuildItems>::new();
    let quality = QualityActions::new();
    // what the last post did (an import, a build), as the server sent the page back;
    // shown to admins only
    let notice = StoredValue::new(after_post("notice").as_deref().and_then(Notice::parse));
    let overview = Resource::new(|| (), |_| get_admin_overview());
    // everything but the refusal is for admins: a player or researcher who opens the
    // page sees only why they may not
    view! {
        <Title text="Admin"/>
        <div class="wide">
            <h1>"Admin"</h1>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Ok(o) => view! {
                            <StaffBar/>
                            {notice.get_value().map(|n| view! { <p class="notice" role="status">{n.to_string()}</p> })}
                            <ActionError value=approve.value()/>
                            <ActionError value=reject.value()/>
                            <ActionError value=quality.redundancy.value()/>
                            <Overview o=o.clone() approve reject/>
                            <Quality o actions=quality/>
                            <Import/>
                            <h2>"Items"</h2>
                            <ActionForm action=build><button type="submit" id="build-items">"Build items for new pairs"</button></ActionForm>
                            <ActionError value=build.value()/>
                            <Pairs/>
                        }.into_any(),
                        Err(error) => view! { <ErrorNote error/> <p><a href="/staff">"Staff sign-in"</a></p> }.into_any(),
                    }
                })}
            </Transition>
        </div>
    }
}

/// A small sentence or pair file (TSV or JSONL, up to 8 MiB), all or nothing; what
/// was imported comes back in `?notice=` (a [`Notice`]'s code), shown atop the page,
/// and a refused file gets its problems as the answer. A plain form: it works without JavaScript.
#[component]
fn Import() -> impl IntoView {
    view! {
        <h2>"Import a file"</h2>
        <form method="post" action="/api/admin/import" enctype="multipart/form-data" class="import">
            <label>"Holds "
                <select name="kind">
                    <option value="sentences">"sentences (lang text source genre)"</option>
                    <option value="pairs">"word pairs (lang target distractor strategy)"</option>
                </select>
            </label>
            <label>"File (.tsv or .jsonl) " <input type="file" name="file" accept=".tsv,.jsonl,.ndjson" required/></label>
            <button type="submit">"Import"</button>
        </form>
    }
}

/// A language's word pairs, a page at a time, with Retire / Activate.
#[component]
fn Pairs() -> impl IntoView {
    let query = use_query_map();
    let language = Memo::new(move |_| query.read().get("language").unwrap_or_else(|| DEFAULT_LANGUAGE.into()));
    let page = Memo::new(move |_| query.read().get("page").and_then(|p| p.parse::<i64>().ok()).unwrap_or(0).clamp(0, MAX_PAIR_PAGE));
    let toggle = ServerAction::<SetPairActive>::new();
    let pairs = Resource::new(move || (language.get(), page.get()), |(l, p)| admin_pairs(l, p));
    let languages = LANGUAGES.map(|(code, _)| {
        let current = move || (language.get() == code).then_some("page");
        view! { <a href=format!("/admin?language={code}") aria-current=current>{code}</a> " " }
    });
    view! {
        <h2>"Word pairs"</h2>
        <nav class="languages" aria-label="Language of the pairs">{languages}</nav>
        <ActionError value=toggle.value()/>
        <Transition fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match pairs.await {
                    Ok(rows) => {
                        let more = rows.len() >= usize::from(PAIRS_PER_PAGE);
                        view! {
                            <div class="scroll"><table class="pairs">
                                <thead><tr>
                                    <th scope="col">"Pair"</th><th scope="col">"Strategy"</th><th scope="col">"Items"</th>
                                    <th scope="col">"Answers"</th><th scope="col">"Success"</th><th scope="col">"Status"</th>
                                </tr></thead>
                                <tbody>{rows.into_iter().map(|row| view! { <PairLine row toggle/> }).collect_view()}</tbody>
                            </table></div>
                            <p class="pager">
                                <Show when=move || page.get() != 0>
                                    <a href=move || format!("/admin?language={}&page={}", language.get(), page.get() - 1)>"Newer"</a>" "
                                </Show>
                                <Show when=move || more>
                                    <a href=move || format!("/admin?language={}&page={}", language.get(), page.get() + 1)>"Older"</a>
                                </Show>
                            </p>
                        }.into_any()
                    }
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn PairLine(row: PairRow, toggle: ServerAction<SetPairActive>) -> impl IntoView {
    let success = if row.answers == 0 { "–".to_owned() } else { format!("{:.0} %", 100.0 * row.correct as f64 / row.answers as f64) };
    let (label, next) = if row.active { ("Retire", "false") } else { ("Activate", "true") };
    view! {
        <tr class:retired=!row.active>
            <td>{row.target} " / " {row.distractor}</td>
            <td>{row.strategy}</td>
            <td class="num"><a href=format!("/admin/items?pair={}", row.id)>{row.items}</a></td>
            <td class="num">{row.answers}</td>
            <td class="num">{success}</td>
            <td>
                {if row.active { "active" } else { "retired" }} " "
                <ActionForm action=toggle attr:class="inline">
                    <input type="hidden" name="id" value=row.id.to_string()/>
                    <input type="hidden" name="active" value=next/>
                    <button type="submit">{label}</button>
                </ActionForm>
            </td>
        </tr>
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
        <p class="flags" id="too-fast">
            "Answers flagged too fast (under " {FAST_ANSWER_FLOOR_MS} " ms): " {o.too_fast.0} ", from " {o.too_fast.1}
            " players. They are kept; exports mark them in the flag column."
        </p>
        <h2>"Corpora"</h2>
        <div class="scroll">
            <table class="corpora">
                <thead><tr><th scope="col">"Language"</th><th scope="col">"Source"</th><th scope="col">"Genre"</th><th scope="col">"Sentences"</th></tr></thead>
                <tbody>
                    {o.corpora.into_iter().map(|c| view! { <tr><td>{c.language}</td><td>{c.source}</td><td>{c.genre}</td><td class="num">{c.sentences}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </div>
        <h2>"Suggested pairs"</h2>
        {queue}
        <h2>"Feedback"</h2>
        <ul class="messages">{o.feedback.into_iter().map(|f| view! { <li>{f.at} ": " {f.message}</li> }).collect_view()}</ul>
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
                <label>"Reason " <input type="text" name="reason" required maxlength=MAX_REASON_CHARS.to_string()/></label>
                <button type="submit">"Reject"</button>
            </ActionForm>
        </section>
    }
}
