//! Small pieces shared by the pages.

use gapwise_model::{Context, Mode, Waiting, LANGUAGES};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::address::POSTED_ERROR;
use crate::api::being_prepared;
use crate::i18n::{msg, use_i18n, Msg};
use crate::AppError;

/// The item's sentences, each with its blank shown, or filled with `filled` after
/// the answer; in their `language`, which a screen reader reads them in.
#[component]
pub fn Contexts(contexts: Vec<Context>, language: &'static str, #[prop(optional)] filled: Option<String>) -> impl IntoView {
    let i18n = use_i18n();
    let blank = i18n.t(msg::BLANK);
    let items = contexts
        .into_iter()
        .map(|c| {
            let gap = match filled.clone() {
                Some(word) => view! { <mark class="filled">{word}</mark> }.into_any(),
                // the blank's name is the interface's word
                None => view! { <span class="blank" role="img" aria-label=blank.clone() lang=i18n.0>"_____"</span> }.into_any(),
            };
            view! { <li class="context">{c.before}{gap}{c.after}</li> }
        })
        .collect_view();
    view! { <ol class="contexts" lang=language>{items}</ol> }
}

/// Links that choose the interface language (`GET /language`, which sets the
/// cookie and comes back here with a full page load, as the server renders the words).
#[component]
pub fn InterfaceLanguage() -> impl IntoView {
    let i18n = use_i18n();
    let location = use_location();
    let back = move || {
        let search = location.search.get();
        let here = match search.trim_start_matches('?') {
            "" => location.pathname.get(),
            query => format!("{}?{query}", location.pathname.get()),
        };
        form_urlencoded::byte_serialize(here.as_bytes()).collect::<String>()
    };
    let links = LANGUAGES
        .into_iter()
        .map(|(code, name)| {
            let current = (i18n.0 == code).then_some("true");
            view! {
                <a href=move || format!("/language?to={code}&back={}", back()) rel="external" aria-current=current
                    hreflang=code lang=code class="k-choice">{name}</a>
            }
        })
        .collect_view();
    view! { <nav class="k-chooser languages interface" aria-label=i18n.t(msg::INTERFACE_LANGUAGE)>{links}</nav> }
}

/// Links that choose the language of the items (the sentences and words shown):
/// `base` followed by `lang=<code>`, e.g. `/play?k=3&` or `/rate?`.
#[component]
pub fn LanguageChooser(language: &'static str, #[prop(into)] base: String) -> impl IntoView {
    let links = LANGUAGES
        .into_iter()
        .map(|(code, name)| {
            let current = (language == code).then_some("page");
            view! { <a href=format!("{base}lang={code}") aria-current=current hreflang=code lang=code class="k-choice">{name}</a> }
        })
        .collect_view();
    let label = use_i18n().t(msg::ITEMS_LANGUAGE);
    let shown = format!("{label}:");
    view! {
        <nav class="k-chooser languages" aria-label=label>
            <span>{shown}</span>
            {links}
        </nav>
    }
}

/// What the form post that came back to this page says it did: the query's `key`
/// (`done` or `notice`, see `ssr::back_with`); nothing when the post failed (Leptos
/// then adds the error to the page's query, beside what an earlier post said).
pub fn after_post(key: &str) -> Option<String> {
    let query = use_query_map();
    let query = query.read_untracked();
    POSTED_ERROR.iter().all(|error| query.get(error).is_none()).then(|| query.get(key)).flatten()
}

/// The confirmation `message` (a catalogue key) on a page that a form post came
/// back to with `?done=<done>`.
#[component]
pub fn Done(done: &'static str, message: Msg) -> impl IntoView {
    let shown = after_post("done").as_deref() == Some(done);
    shown.then(|| view! { <p class="ok" role="status">{use_i18n().t(message)}</p> })
}

/// The error a plain form post to `S` came back with, which Leptos puts in the
/// page's query: the server reads it for an island, which takes it as a prop (see
/// [`island_action`]).
pub fn posted_error<S>() -> Option<AppError>
where
    S: server_fn::ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    ServerAction::<S>::new().value().get_untracked().and_then(Result::err).map(AppError::from_address)
}

/// An island's action, holding the error its last plain form post came back with
/// (`failed`, from [`posted_error`]). On the server the action reads that from the
/// page's query itself; an island in the browser has no router to read it with, so
/// it takes it from its props, and both render the same.
pub fn island_action<S>(failed: Option<AppError>) -> ServerAction<S>
where
    S: server_fn::ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    let action = ServerAction::<S>::new();
    if failed.is_some() {
        action.value().set(failed.map(Err));
    }
    action
}

/// An error as the user reads it.
#[component]
pub fn ErrorNote(error: AppError) -> impl IntoView {
    let message = match error {
        AppError::Internal => use_i18n().t(msg::ERROR_INTERNAL),
        other => other.to_string(),
    };
    view! { <p class="error" role="alert">{message}</p> }
}

/// A page's rounds, begun on the server: `first` fetches the first round (the page is
/// rendered whole before it is sent), and `island` renders the page's island with it
/// and, when there is none, whether such rounds are still being prepared (by the
/// demo's model preparation of the mode and language `made_by`, when it says one).
#[component]
pub fn FirstRound<T, Fut, I, V>(first: Fut, #[prop(default = None)] made_by: Option<(Mode, &'static str)>, island: I) -> impl IntoView
where
    T: Send + 'static,
    Fut: std::future::Future<Output = Result<Option<T>, AppError>> + Send + 'static,
    I: FnOnce(Result<Option<T>, AppError>, Option<Waiting>) -> V + Send + 'static,
    V: IntoView + 'static,
{
    let page = async move {
        let round = first.await;
        let preparing = match (&round, made_by) {
            (Ok(None), Some((mode, language))) => being_prepared(mode, language.to_owned()).await.unwrap_or(None),
            _ => None,
        };
        island(round, preparing)
    };
    view! { <Suspense fallback=|| ()>{Suspend::new(page)}</Suspense> }
}

/// The round a page shows: `show` renders it; else the message `none` (a catalogue
/// key) when nothing is left for the player, or "being prepared" (with how long) when
/// the rounds are still to be made (`preparing`), or the error with a way home.
#[component]
pub fn RoundView<T, F, V>(round: RwSignal<Result<Option<T>, AppError>>, none: Msg, preparing: Option<Waiting>, show: F) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    F: Fn(T) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let i18n = use_i18n();
    move || match round.get() {
        Ok(Some(card)) => show(card).into_any(),
        Ok(None) => {
            let note = match preparing {
                Some(Waiting { ahead, minutes }) => i18n.t_with(
                    msg::BEING_PREPARED,
                    &[("ahead", i64::try_from(ahead).unwrap_or(i64::MAX).into()), ("minutes", minutes.into())],
                ),
                None => i18n.t(none),
            };
            view! { <p class="exhausted" class:preparing=preparing.is_some()>{note}</p> }.into_any()
        }
        Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t(msg::START_HOME)}</a></p> }.into_any(),
    }
}

/// The outcome of the player's last answer that a round the server sent carries
/// (`last`), unless an answer was given on this page, whose outcome the page tells
/// from the answer itself: so a page loaded after a plain form post (no JavaScript)
/// says how that answer went, and no outcome is told twice.
pub fn outcome_from_round<S, T>(action: ServerAction<S>, last: Option<&T>) -> Option<&T>
where
    S: server_fn::ServerFn + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
    S::Error: Clone + Send + Sync + 'static,
{
    last.filter(|_| action.value().with_untracked(Option::is_none))
}

/// The rounds an island shows, one request each: `first` as the server sent it, then
/// what each answer sent with `action` brings (`next` of its outcome); an answer
/// that failed fetches the round again with `fetch`.
pub fn answered_rounds<S, C, Fut>(
    action: ServerAction<S>,
    first: Result<Option<C>, AppError>,
    fetch: impl Fn() -> Fut + Send + Sync + 'static,
    next: fn(S::Output) -> Option<C>,
) -> RwSignal<Result<Option<C>, AppError>>
where
    S: server_fn::ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
    C: Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Option<C>, AppError>> + 'static,
{
    let shown = RwSignal::new(first);
    Effect::new(move |_| match action.value().get() {
        Some(Ok(output)) => shown.set(Ok(next(output))),
        // an error of the page's load (a plain post's) is not the browser's answer
        Some(Err(_)) if action.version().get_untracked() > 0 => {
            let (asked, round) = (action.version().get_untracked(), fetch());
            // unless the player answered again meanwhile: that answer's round wins
            leptos::task::spawn_local(async move {
                let round = round.await;
                if action.version().get_untracked() == asked {
                    shown.set(round);
                }
            });
        }
        _ => {}
    });
    shown
}

/// Shows the error of the last run of a server action, if any.
#[component]
pub fn ActionError<T: Clone + Send + Sync + 'static>(value: MappedSignal<Option<Result<T, AppError>>>) -> impl IntoView {
    move || match value.get() {
        Some(Err(error)) => Some(view! { <ErrorNote error=action_error(error)/> }),
        _ => None,
    }
}

/// An action's error as a page may show it. On the server no action has run while
/// the page renders, so its error came in the page's address (`__err`, which anyone
/// can put in a link) and is said by its code alone ([`AppError::from_address`]); in
/// the browser it is the server's answer to the call just made.
fn action_error(error: AppError) -> AppError {
    if cfg!(feature = "ssr") {
        error.from_address()
    } else {
        error
    }
}

/// Keys 1 to 5 press the option button with that `data-key`; Enter presses "Next item".
pub fn keyboard_shortcuts() {
    #[cfg(feature = "hydrate")]
    {
        use leptos::wasm_bindgen::JsCast;
        let handle = window_event_listener(leptos::ev::keydown, |ev| {
            if ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
                return;
            }
            let in_control = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| matches!(el.tag_name().as_str(), "BUTTON" | "INPUT" | "A" | "TEXTAREA"));
            let key = ev.key();
            let selector = match key.as_str() {
                "1" | "2" | "3" | "4" | "5" => format!("button.option[data-key='{key}']"),
                "Enter" if !in_control => "#next".to_owned(),
                _ => return,
            };
            if let Some(button) =
                document().query_selector(&selector).ok().flatten().and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            {
                ev.prevent_default();
                button.click();
            }
        });
        on_cleanup(move || handle.remove());
    }
}

/// What a player agrees to before any answer of theirs is stored.
#[component]
pub fn ConsentTerms() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <ul>
            <li>{i18n.t(msg::CONSENT_PSEUDONYM)}</li>
            <li>{i18n.t(msg::CONSENT_RECORD)}</li>
            <li>{i18n.t(msg::CONSENT_SHARE)}</li>
            <li>{i18n.t(msg::CONSENT_VOLUNTARY)} " " <a href="/my-data">{i18n.t(msg::NAV_MY_DATA)}</a></li>
        </ul>
    }
}

/// The box a player ticks in a start form to consent.
#[component]
pub fn ConsentBox() -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" name="consent" value="yes" required/>
            " " {use_i18n().t(msg::CONSENT_AGREE)}
        </label>
    }
}

/// The staff pages' bar: the way between research and admin, and signing out.
#[component]
pub fn StaffBar() -> impl IntoView {
    let logout = ServerAction::<crate::api::StaffLogout>::new();
    view! {
        <nav class="staff-bar" aria-label="Staff pages">
            <a href="/research">"Research"</a>
            <a href="/admin">"Admin"</a>
            <ActionForm action=logout attr:class="inline"><button type="submit" class="secondary">"Sign out"</button></ActionForm>
        </nav>
        <ActionError value=logout.value()/>
    }
}
