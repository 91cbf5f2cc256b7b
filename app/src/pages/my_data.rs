//! "My data": everything stored about the player, a download of it, erasure of all
//! of it, and a feedback form.

use gapwise_store::model::{MyData, MAX_FEEDBACK_CHARS};
use leptos::prelude::*;

use crate::api::{fetch_my_data, EraseMe, SendFeedback, ERASE_CONFIRMATION};
use crate::components::{ActionError, ErrorNote};

#[component]
pub fn MyDataPage() -> impl IntoView {
    let feedback = ServerAction::<SendFeedback>::new();
    let erase = ServerAction::<EraseMe>::new();
    let data = Resource::new(move || feedback.version().get(), |_| fetch_my_data(false));
    let sent = move || matches!(feedback.value().get(), Some(Ok(())));
    view! {
        <h1>"My data"</h1>
        <p>
            "Gapwise is a research game: researchers compare how people and language models tell words apart "
            "from their contexts. This page shows everything stored about you."
        </p>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! { <Stored d/> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> <p><a href="/">"Start playing"</a></p> }.into_any(),
                }
            })}
        </Suspense>
        <h2>"Feedback"</h2>
        <ActionForm action=feedback attr:class="feedback-form">
            <label>"Tell us what you think (at most " {MAX_FEEDBACK_CHARS} " characters) "
                <textarea name="message" rows="4" maxlength=MAX_FEEDBACK_CHARS required></textarea>
            </label>
            <button type="submit">"Send"</button>
        </ActionForm>
        <Show when=sent><p class="ok" role="status">"Thank you: your message was sent."</p></Show>
        <ActionError value=feedback.value()/>
        <h2>"Erase everything"</h2>
        <p>
            "This deletes your pseudonym, every answer, rating, proposal and message, and signs you out. "
            "It cannot be undone. Word pairs of yours that are already in the game stay, without your name."
        </p>
        <ActionForm action=erase attr:class="erase-form">
            <label>"Type " <strong>{ERASE_CONFIRMATION}</strong> " to confirm "
                <input type="text" name="confirm" autocomplete="off" required/>
            </label>
            <button type="submit" class="danger" id="erase">"Erase everything"</button>
        </ActionForm>
        <ActionError value=erase.value()/>
    }
}

/// The stored records, as lists and tables.
#[component]
fn Stored(d: MyData) -> impl IntoView {
    let right = d.answers.iter().filter(|a| a.correct).count();
    view! {
        <p><a href="/api/my-data?download=true" download="gapwise-my-data.json" id="download">"Download all of it (JSON)"</a></p>
        <dl class="counts my-data">
            <div><dt>"Pseudonym"</dt><dd class="pseudonym">{d.pseudonym}</dd></div>
            <div><dt>"Consent version"</dt><dd>{d.consent_version}</dd></div>
            <div><dt>"Since"</dt><dd>{d.joined}</dd></div>
            <div><dt>"Password set"</dt><dd>{if d.has_password { "yes" } else { "no" }}</dd></div>
            <div><dt>"Signed-in browsers"</dt><dd>{d.sessions}</dd></div>
            <div><dt>"Items shown"</dt><dd>{d.servings}</dd></div>
            <div><dt>"Answers"</dt><dd id="answer-count">{d.answers.len()}</dd></div>
            <div><dt>"Right"</dt><dd>{right}</dd></div>
            <div><dt>"Ratings"</dt><dd>{d.ratings.len()}</dd></div>
            <div><dt>"Proposals"</dt><dd>{d.suggestions.len()}</dd></div>
            <div><dt>"Pairs of yours in the game"</dt><dd>{d.pairs_created}</dd></div>
            <div><dt>"Messages"</dt><dd>{d.feedback.len()}</dd></div>
            <div><dt>"Random export ID"</dt><dd>{if d.has_export_id { "made" } else { "none yet" }}</dd></div>
        </dl>
        <h2>"Answers"</h2>
        <div class="scroll"><table class="answers">
            <thead><tr>
                <th scope="col">"When"</th><th scope="col">"Item"</th><th scope="col">"k"</th><th scope="col">"Chosen"</th>
                <th scope="col">"Right"</th><th scope="col">"Time (ms)"</th>
            </tr></thead>
            <tbody>
                {d.answers.into_iter().map(|a| view! {
                    <tr>
                        <td>{a.at}</td><td class="num">{a.item_id}</td><td class="num">{a.k}</td><td>{a.chosen}</td>
                        <td>{if a.correct { "yes" } else { "no" }}</td>
                        <td class="num">{a.client_ms.unwrap_or(a.server_ms)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        <h2>"Ratings"</h2>
        <Listed empty=d.ratings.is_empty()>
            <ul>{d.ratings.into_iter().map(|r| view! { <li>{format!("{}: item {}, rated {}", r.at, r.item_id, r.rating)}</li> }).collect_view()}</ul>
        </Listed>
        <h2>"Proposals"</h2>
        <Listed empty=d.suggestions.is_empty()>
            <ul>{d.suggestions.into_iter().map(|s| view! { <li>{format!("{} / {} ({}): {:?}", s.target, s.distractor, s.language, s.status)}</li> }).collect_view()}</ul>
        </Listed>
        <h2>"Messages"</h2>
        <Listed empty=d.feedback.is_empty()>
            <ul class="messages">{d.feedback.into_iter().map(|f| view! { <li>{f.at} ": " {f.message}</li> }).collect_view()}</ul>
        </Listed>
    }
}

/// A list, or "None." when there is nothing in it.
#[component]
fn Listed(empty: bool, children: Children) -> impl IntoView {
    if empty {
        view! { <p class="none">"None."</p> }.into_any()
    } else {
        children().into_any()
    }
}
