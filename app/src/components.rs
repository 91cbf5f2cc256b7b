//! Small pieces shared by the pages.

use gapwise_model::{Context, LANGUAGES};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

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
/// key) when nothing is left for the player, or the error with a way home.
#[component]
pub fn RoundView<T, F, V>(round: Resource<Result<Option<T>, AppError>>, none: &'static str, show: F) -> impl IntoView
where
    T: Clone + Send + Sync + serde::Serialize + serde::de::DeserializeOwned + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let i18n = use_i18n();
    view! {
        <Transition fallback=move || view! { <p class="loading">{i18n.t("loading")}</p> }>
            {move || {
                let show = show.clone();
                Suspend::new(async move {
                    match round.await {
                        Ok(Some(card)) => show(card).into_any(),
                        Ok(None) => view! { <p class="exhausted">{i18n.t(none)}</p> }.into_any(),
                        Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t("start-home")}</a></p> }.into_any(),
                    }
                })
            }}
        </Transition>
    }
}

/// What the last answer sent with `action` brought for the page to show next,
/// taken once: its outcome when it is newer than the round shown (`shown` keeps
/// the action's version last taken); `None` when the page is to fetch its round
/// (the first load, another language or task chosen, an answer that failed). With
/// it a page's round is one request: the answer, which returns the next round.
pub fn brought<S>(action: ServerAction<S>, shown: StoredValue<usize>) -> Option<S::Output>
where
    S: server_fn::ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    let version = action.version().get_untracked();
    if shown.get_value() == version {
        return None;
    }
    shown.set_value(version);
    action.value().get_untracked().and_then(Result::ok)
}

/// Shows the error of the last run of a server action, if any.
#[component]
pub fn ActionError<T: Clone + Send + Sync + 'static>(value: MappedSignal<Option<Result<T, AppError>>>) -> impl IntoView {
    move || match value.get() {
        Some(Err(error)) => Some(view! { <ErrorNote error/> }),
        _ => None,
    }
}

/// The timing of an item as the browser sees it: the hidden `client_ms` and `trial`
/// inputs to put in its form (a page may leave `trial` out), and the click handler
/// of its options, which fills them. The onset is the timestamp of the animation
/// frame in which the item is first painted; the response time runs from it to
/// the click event's own timestamp. The trial (see [`gapwise_model::Trial`]) holds
/// the input that answered, the times the page went hidden after the onset, the
/// step of the browser's clock and the interval to the next frame. Left empty
/// without JavaScript, when the server's time stands in.
#[derive(Clone, Copy)]
pub struct ResponseClock {
    pub client_ms: NodeRef<leptos::html::Input>,
    pub trial: NodeRef<leptos::html::Input>,
}

pub fn response_clock() -> (ResponseClock, impl Fn(leptos::ev::MouseEvent) + Copy) {
    let clock = ResponseClock { client_ms: NodeRef::new(), trial: NodeRef::new() };
    let watch = TrialWatch::start();
    let stamp = move |ev: leptos::ev::MouseEvent| {
        let Some((client_ms, trial)) = watch.response(&ev) else { return };
        if let Some(input) = clock.client_ms.get() {
            input.set_value(&client_ms.to_string());
        }
        if let Some(input) = clock.trial.get() {
            input.set_value(&trial.to_form());
        }
    };
    (clock, stamp)
}

/// What a shown item's trial has seen so far (read in the browser only).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
#[derive(Clone, Copy)]
struct TrialWatch {
    /// The first frame's timestamp (ms on the page's clock).
    onset: StoredValue<Option<f64>>,
    frame_us: StoredValue<Option<u32>>,
    hidden: StoredValue<u32>,
}

impl TrialWatch {
    /// Starts watching once the item is mounted: its next frame is its onset.
    fn start() -> TrialWatch {
        let watch = TrialWatch { onset: StoredValue::new(None), frame_us: StoredValue::new(None), hidden: StoredValue::new(0) };
        #[cfg(feature = "hydrate")]
        {
            Effect::new(move |_| {
                on_frame(move |first| {
                    watch.onset.try_set_value(Some(first));
                    watch.time_frame(first, 3);
                })
            });
            // a hidden page paints no frames: before the onset, hiding is no interruption
            let handle = window_event_listener(leptos::ev::visibilitychange, move |_| {
                let hidden_now = document().visibility_state() == web_sys::VisibilityState::Hidden;
                if hidden_now && watch.onset.try_get_value().flatten().is_some() {
                    watch.hidden.try_update_value(|n| *n += 1);
                }
            });
            on_cleanup(move || handle.remove());
        }
        watch
    }

    /// Sets the frame interval from the next frame whose timestamp is past
    /// `first` (a browser may stamp two callbacks alike), trying `tries` frames.
    #[cfg(feature = "hydrate")]
    fn time_frame(self, first: f64, tries: u8) {
        on_frame(move |next| {
            if next > first {
                self.frame_us.try_set_value(Some(((next - first) * 1000.0).round() as u32));
            } else if tries > 1 {
                self.time_frame(first, tries - 1);
            }
        });
    }

    /// The response time (ms, at least 1) and the trial of an answer given by
    /// `ev`; `None` before the onset or on the server.
    #[cfg_attr(not(feature = "hydrate"), allow(unused_variables))]
    fn response(&self, ev: &leptos::ev::MouseEvent) -> Option<(i64, gapwise_model::Trial)> {
        #[cfg(feature = "hydrate")]
        {
            let onset = self.onset.try_get_value().flatten()?;
            let client_ms = (ev.time_stamp() - onset).max(1.0).round() as i64;
            let trial = gapwise_model::Trial {
                input: Some(input_of(ev)),
                hidden: self.hidden.try_get_value(),
                clock_us: clock_step_us(),
                frame_us: self.frame_us.try_get_value().flatten(),
            };
            Some((client_ms, trial))
        }
        #[cfg(not(feature = "hydrate"))]
        {
            None
        }
    }
}

/// Runs `then` with the timestamp of the next animation frame.
#[cfg(feature = "hydrate")]
fn on_frame(then: impl FnOnce(f64) + 'static) {
    use leptos::wasm_bindgen::{closure::Closure, JsCast};
    let callback = Closure::once_into_js(then);
    let _ = window().request_animation_frame(callback.unchecked_ref());
}

/// What gave a click: a pointer's type, or a key (a click with no count, as a
/// shortcut's or Enter's on a focused button).
#[cfg(feature = "hydrate")]
fn input_of(ev: &leptos::ev::MouseEvent) -> gapwise_model::Input {
    use gapwise_model::Input;
    use leptos::wasm_bindgen::JsCast;
    if ev.detail() == 0 {
        return Input::Key;
    }
    match ev.dyn_ref::<web_sys::PointerEvent>().map(|p| p.pointer_type()).as_deref() {
        Some("touch") => Input::Touch,
        Some("pen") => Input::Pen,
        _ => Input::Mouse,
    }
}

/// Longest the page looks for a step of its clock (ms); a clock that does not
/// step within it is given as this coarse.
#[cfg(feature = "hydrate")]
const CLOCK_PROBE_MS: f64 = 20.0;

/// The smallest step of `performance.now()` in µs, measured once per page load
/// (twenty steps, or [`CLOCK_PROBE_MS`] at most).
#[cfg(feature = "hydrate")]
fn clock_step_us() -> Option<u32> {
    static STEP: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *STEP.get_or_init(|| {
        let clock = window().performance()?;
        let start = clock.now();
        let (mut last, mut smallest, mut steps) = (start, CLOCK_PROBE_MS, 0);
        while steps < 20 {
            let now = clock.now();
            if now - start >= CLOCK_PROBE_MS {
                break;
            }
            if now > last {
                smallest = smallest.min(now - last);
                (last, steps) = (now, steps + 1);
            }
        }
        Some((smallest * 1000.0).round() as u32)
    })
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
            if let Some(button) = document()
                .query_selector(&selector)
                .ok()
                .flatten()
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
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
