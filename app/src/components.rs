//! Small pieces shared by the pages.

use gapwise_model::{Context, Preparation, LANGUAGES};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::api::being_prepared;
use crate::i18n::use_i18n;
use crate::AppError;

/// The item's sentences, each with its blank shown, or filled with `filled` after
/// the answer.
#[component]
pub fn Contexts(contexts: Vec<Context>, #[prop(optional)] filled: Option<String>) -> impl IntoView {
    let blank = use_i18n().t("blank");
    let items = contexts
        .into_iter()
        .map(|c| {
            let gap = match filled.clone() {
                Some(word) => view! { <mark class="filled">{word}</mark> }.into_any(),
                None => view! { <span class="blank" role="img" aria-label=blank.clone()>"_____"</span> }.into_any(),
            };
            view! { <li class="context">{c.before}{gap}{c.after}</li> }
        })
        .collect_view();
    view! { <ol class="contexts">{items}</ol> }
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
    view! { <nav class="k-chooser languages interface" aria-label=i18n.t("interface-language")>{links}</nav> }
}

/// Links that choose the language of the items (the sentences and words shown):
/// `base` followed by `lang=<code>`, e.g. `/play?k=3&` or `/rate?`.
#[component]
pub fn LanguageChooser(language: Memo<&'static str>, base: Signal<String>) -> impl IntoView {
    let links = LANGUAGES
        .into_iter()
        .map(|(code, name)| {
            let current = move || (language.get() == code).then_some("page");
            view! { <a href=move || format!("{}lang={code}", base.get()) aria-current=current hreflang=code lang=code class="k-choice">{name}</a> }
        })
        .collect_view();
    let label = use_i18n().t("items-language");
    let shown = format!("{label}:");
    view! {
        <nav class="k-chooser languages" aria-label=label>
            <span>{shown}</span>
            {links}
        </nav>
    }
}

/// An error as the user reads it.
#[component]
pub fn ErrorNote(error: AppError) -> impl IntoView {
    let message = match error {
        AppError::Internal => use_i18n().t("error-internal"),
        other => other.to_string(),
    };
    view! { <p class="error" role="alert">{message}</p> }
}

/// The body of a page that serves rounds (Likert, word and definition, next word):
/// a loading note, then the round `show` renders, the message `none` (a catalogue
/// key) when nothing is left for the player, or the error with a way home. When the
/// rounds are made by the demo's model preparation step `made_by` (when it says one)
/// and that step is still to run, the page says they are being prepared instead.
#[component]
pub fn RoundView<T, F, V>(
    round: Resource<Result<Option<T>, AppError>>,
    none: &'static str,
    show: F,
    #[prop(optional, into)] made_by: Option<Signal<Option<Preparation>>>,
) -> impl IntoView
where
    T: Clone + Send + Sync + serde::Serialize + serde::de::DeserializeOwned + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let i18n = use_i18n();
    // a resource, so that the server's answer travels with the page to hydration
    let preparing = Resource::new(
        move || made_by.and_then(|step| step.get()),
        |step| async move {
            match step {
                Some(step) => being_prepared(step.code().to_owned()).await.unwrap_or(false),
                None => false,
            }
        },
    );
    view! {
        <Transition fallback=move || view! { <p class="loading">{i18n.t("loading")}</p> }>
            {move || {
                let show = show.clone();
                Suspend::new(async move {
                    match round.await {
                        Ok(Some(card)) => show(card).into_any(),
                        Ok(None) => {
                            let preparing = preparing.await;
                            let note = if preparing { "being-prepared" } else { none };
                            view! { <p class="exhausted" class:preparing=preparing>{i18n.t(note)}</p> }.into_any()
                        }
                        Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t("start-home")}</a></p> }.into_any(),
                    }
                })
            }}
        </Transition>
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

/// The rounds a page shows, one request each: fetched with `fetch` when the page
/// asks for them (the first load, or `key`, its language or task, changed), and
/// otherwise taken from what the last answer sent with `action` brought (`next` of
/// its outcome), once per answer; an answer that failed fetches the round again.
pub fn answered_rounds<S, K, C, Fut>(
    action: ServerAction<S>,
    key: impl Fn() -> K + Send + Sync + 'static,
    fetch: impl Fn(K) -> Fut + Copy + Send + Sync + 'static,
    next: fn(S::Output) -> Option<C>,
) -> Resource<Result<Option<C>, AppError>>
where
    S: server_fn::ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
    K: PartialEq + Clone + Send + Sync + 'static,
    C: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Option<C>, AppError>> + Send + 'static,
{
    // the action's version whose outcome was last taken
    let shown = StoredValue::new(0);
    Resource::new(
        move || (key(), action.version().get()),
        move |(key, version)| async move {
            if shown.get_value() != version {
                shown.set_value(version);
                if let Some(Ok(output)) = action.value().get_untracked() {
                    return Ok(next(output));
                }
            }
            fetch(key).await
        },
    )
}

/// Shows the error of the last run of a server action, if any.
#[component]
pub fn ActionError<T: Clone + Send + Sync + 'static>(value: MappedSignal<Option<Result<T, AppError>>>) -> impl IntoView {
    move || match value.get() {
        Some(Err(error)) => Some(view! { <ErrorNote error/> }),
        _ => None,
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
            <li>{i18n.t("consent-pseudonym")}</li>
            <li>{i18n.t("consent-record")}</li>
            <li>{i18n.t("consent-share")}</li>
            <li>{i18n.t("consent-voluntary")} " " <a href="/my-data">{i18n.t("nav-my-data")}</a></li>
        </ul>
    }
}

/// The box a player ticks in a start form to consent.
#[component]
pub fn ConsentBox() -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" name="consent" value="yes" required/>
            " " {use_i18n().t("consent-agree")}
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
    }
}
