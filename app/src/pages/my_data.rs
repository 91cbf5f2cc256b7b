//! "My data": everything stored about the player, a download of it, erasure of all
//! of it, and a feedback form.

use gapwise_model::{MyData, MAX_FEEDBACK_CHARS};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::{fetch_my_data, EraseMe, SendFeedback};
use crate::components::{ActionError, Done, ErrorNote};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn MyDataPage() -> impl IntoView {
    let data = Resource::new(|| (), |_| fetch_my_data(false));
    let i18n = use_i18n();
    // the feedback and erasure forms need a session: someone who has none sees only
    // why the page is empty and where to start
    view! {
        <Title text=i18n.t(msg::NAV_MY_DATA)/>
        <h1>{i18n.t(msg::NAV_MY_DATA)}</h1>
        <p>{i18n.t(msg::MY_DATA_INTRO)}</p>
        <Suspense fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(d) => view! { <Stored d/> <Feedback/> <Erase/> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t(msg::MY_DATA_START)}</a></p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The form that sends the researchers a message.
#[component]
fn Feedback() -> impl IntoView {
    let feedback = ServerAction::<SendFeedback>::new();
    let i18n = use_i18n();
    view! {
        <h2>{i18n.t(msg::FEEDBACK_TITLE)}</h2>
        <ActionForm action=feedback attr:class="feedback-form">
            <label>{i18n.t_with(msg::FEEDBACK_LABEL, &[("max", MAX_FEEDBACK_CHARS.into())])} " "
                <textarea name="message" rows="4" maxlength=MAX_FEEDBACK_CHARS required></textarea>
            </label>
            <button type="submit">{i18n.t(msg::FEEDBACK_SEND)}</button>
        </ActionForm>
        <Done done="feedback" message=msg::FEEDBACK_THANKS/>
        <ActionError value=feedback.value()/>
    }
}

/// The form that erases every record of the player.
#[component]
fn Erase() -> impl IntoView {
    let erase = ServerAction::<EraseMe>::new();
    let i18n = use_i18n();
    view! {
        <h2>{i18n.t(msg::ERASE_TITLE)}</h2>
        <p>{i18n.t(msg::ERASE_EXPLAIN)}</p>
        <ActionForm action=erase attr:class="erase-form">
            <label>{i18n.t_with(msg::ERASE_CONFIRM, &[("word", i18n.t(msg::ERASE_WORD).into())])} " "
                <input type="text" name="confirm" autocomplete="off" required/>
            </label>
            <button type="submit" class="danger" id="erase">{i18n.t(msg::ERASE_TITLE)}</button>
        </ActionForm>
        <ActionError value=erase.value()/>
    }
}

/// The stored records, as lists and tables.
#[component]
fn Stored(d: MyData) -> impl IntoView {
    let right = d.answers.iter().filter(|a| a.correct).count();
    let i18n = use_i18n();
    let t = move |key| i18n.t(key);
    let yes_no = move |yes| t(if yes { msg::YES } else { msg::NO });
    view! {
        <p><a href="/api/my-data?download=true" download="gapwise-my-data.json" id="download">{t(msg::MY_DATA_DOWNLOAD)}</a></p>
        <dl class="counts my-data">
            <div><dt>{t(msg::ACCOUNT_PSEUDONYM)}</dt><dd class="pseudonym">{d.pseudonym}</dd></div>
            <div><dt>{t(msg::MY_DATA_CONSENT_VERSION)}</dt><dd>{d.consent_version}</dd></div>
            <div><dt>{t(msg::MY_DATA_SINCE)}</dt><dd>{d.joined}</dd></div>
            <div><dt>{t(msg::MY_DATA_PASSWORD_SET)}</dt><dd>{yes_no(d.has_password)}</dd></div>
            <div><dt>{t(msg::MY_DATA_BROWSERS)}</dt><dd>{d.sessions}</dd></div>
            <div><dt>{t(msg::MY_DATA_ITEMS_SHOWN)}</dt><dd>{d.servings}</dd></div>
            <div><dt>{t(msg::MY_DATA_ANSWERS)}</dt><dd id="answer-count">{d.answers.len()}</dd></div>
            <div><dt>{t(msg::MY_DATA_RIGHT)}</dt><dd>{right}</dd></div>
            <div><dt>{t(msg::MY_DATA_RATINGS)}</dt><dd>{d.ratings.len()}</dd></div>
            <div><dt>{t(msg::MY_DATA_DEFINITION_PICKS)}</dt><dd id="definition-picks">{d.define_picks}</dd></div>
            <div><dt>{t(msg::MY_DATA_WORD_GUESSES)}</dt><dd id="word-guesses">{d.word_guesses}</dd></div>
            <div><dt>{t(msg::MY_DATA_INVENTED_WORD_ANSWERS)}</dt><dd id="invented-word-answers">{d.invented_word_answers}</dd></div>
            <div><dt>{t(msg::MY_DATA_PROPOSALS)}</dt><dd>{d.suggestions.len()}</dd></div>
            <div><dt>{t(msg::MY_DATA_PAIRS)}</dt><dd>{d.pairs_created}</dd></div>
            <div><dt>{t(msg::MY_DATA_MESSAGES)}</dt><dd>{d.feedback.len()}</dd></div>
            <div><dt>{t(msg::MY_DATA_FRIENDS)}</dt><dd id="friends">{if d.friends.is_empty() { t(msg::NONE) } else { d.friends.join(", ") }}</dd></div>
            <div><dt>{t(msg::MY_DATA_CHALLENGES)}</dt><dd>{d.challenges}</dd></div>
            {d.crowd.map(|(study, participant, status)| view! {
                <div><dt>{t(msg::MY_DATA_CROWD)}</dt><dd>{format!("{study}: {participant} ({status})")}</dd></div>
            })}
            <div><dt>{t(msg::MY_DATA_EXPORT_ID)}</dt><dd>{t(if d.has_export_id { msg::MY_DATA_EXPORT_ID_MADE } else { msg::NONE_YET })}</dd></div>
        </dl>
        <h2>{t(msg::MY_DATA_ANSWERS)}</h2>
        // a region a keyboard can reach and scroll (on a phone the table is wider than the screen)
        <div class="scroll" tabindex="0" role="region" aria-label=t(msg::MY_DATA_ANSWERS_TABLE)><table class="answers">
            <thead><tr>
                <th scope="col">{t(msg::MY_DATA_WHEN)}</th><th scope="col">{t(msg::MY_DATA_ITEM)}</th><th scope="col">"k"</th>
                <th scope="col">{t(msg::MY_DATA_CHOSEN)}</th><th scope="col">{t(msg::MY_DATA_RIGHT)}</th><th scope="col">{t(msg::MY_DATA_TIME)}</th>
            </tr></thead>
            <tbody>
                {d.answers.into_iter().map(|a| view! {
                    <tr>
                        <td>{a.at}</td><td class="num">{a.item_id.get()}</td><td class="num">{a.k.get()}</td><td>{a.chosen}</td>
                        <td>{yes_no(a.correct)}</td>
                        <td class="num">{a.client_ms.unwrap_or(a.server_ms)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table></div>
        <h2>{t(msg::MY_DATA_RATINGS)}</h2>
        <Listed empty=d.ratings.is_empty()>
            <ul>{d.ratings.into_iter().map(|r| {
                let line = i18n.t_with(msg::MY_DATA_RATING_LINE, &[("at", r.at.into()), ("item", r.item_id.get().into()), ("rating", i64::from(r.rating).into())]);
                view! { <li>{line}</li> }
            }).collect_view()}</ul>
        </Listed>
        <h2>{t(msg::MY_DATA_PROPOSALS)}</h2>
        <Listed empty=d.suggestions.is_empty()>
            <ul>{d.suggestions.into_iter().map(|s| {
                let status = i18n.t_with(msg::SUGGESTION_STATUS, &[("status", s.status.as_str().into())]);
                view! { <li>{format!("{} / {} ({}): {status}", s.target, s.distractor, s.language)}</li> }
            }).collect_view()}</ul>
        </Listed>
        <h2>{t(msg::MY_DATA_MESSAGES)}</h2>
        <Listed empty=d.feedback.is_empty()>
            <ul class="messages">{d.feedback.into_iter().map(|f| view! { <li>{f.at} ": " {f.message}</li> }).collect_view()}</ul>
        </Listed>
        <h2>{t(msg::MY_DATA_TABLES)}</h2>
        <p>{t(msg::MY_DATA_TABLES_NOTE)}</p>
        <ul class="tables" id="tables">{d.rows.into_iter().map(|(table, rows)| view! {
            <li data-table=table.clone()>{i18n.table(&table)} ": " {rows}</li>
        }).collect_view()}</ul>
    }
}

/// A list, or "None." when there is nothing in it.
#[component]
fn Listed(empty: bool, children: Children) -> impl IntoView {
    if empty {
        view! { <p class="none">{use_i18n().t(msg::NONE)}</p> }.into_any()
    } else {
        children().into_any()
    }
}
