//! How long a player took over an item, as exactly as a browser can say (issue
//! 29): the onset from the animation frame that first painted the item, the
//! response from the input event's own timestamp, and the trial around them
//! (`gapwise_model::Trial`). Every mode's item uses it and sends both.

use leptos::prelude::*;

/// The timing of an item as the browser sees it: the hidden `client_ms` and `trial`
/// inputs to put in its form, and the click handler
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
