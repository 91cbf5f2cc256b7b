//! What the browser saw of one trial besides the response time: the input that
//! answered, whether the page was hidden while the item was shown, and how fine
//! its clock and its frames were. The browser sends it as one form field
//! (`input=key&hidden=0&clock_us=100&frame_us=16667`), empty without JavaScript.

use serde::{Deserialize, Serialize};

/// Steps of the browser's clock coarser than this are flagged `coarse_clock`
/// (µs): Chrome's clock steps 100 µs (5 µs when cross-origin isolated), Firefox's
/// and Safari's 1 ms; privacy modes that round to 16.7 or 100 ms are flagged.
pub const COARSE_CLOCK_US: u32 = 1_000;

/// Values a browser cannot send truthfully are refused above these bounds.
const MOST_HIDDEN: u32 = 10_000;
const MOST_US: u32 = 10_000_000;

/// What answered an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    Mouse,
    Touch,
    Pen,
    /// A key: a shortcut, or Enter or Space on a focused button.
    Key,
}

impl Input {
    pub const ALL: [Input; 4] = [Input::Mouse, Input::Touch, Input::Pen, Input::Key];

    /// Its name in the form, the database and exports.
    pub fn code(self) -> &'static str {
        match self {
            Input::Mouse => "mouse",
            Input::Touch => "touch",
            Input::Pen => "pen",
            Input::Key => "key",
        }
    }

    pub fn parse(code: &str) -> Option<Input> {
        Input::ALL.into_iter().find(|i| i.code() == code)
    }
}

/// One trial as the browser saw it; every field empty when it sent nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trial {
    pub input: Option<Input>,
    /// Times the page went hidden (another tab, a minimised window) between the
    /// item's first frame and the answer.
    pub hidden: Option<u32>,
    /// The smallest step of the browser's clock (`performance.now()`), in µs.
    pub clock_us: Option<u32>,
    /// The time between the item's first frame and the next one, in µs: the
    /// onset's precision.
    pub frame_us: Option<u32>,
}

/// What the browser reports with an answer: its response time and the trial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    /// Milliseconds from the item's first frame to the input, if measured.
    pub client_ms: Option<i64>,
    pub trial: Trial,
}

impl Reported {
    /// A response time alone (no trial seen).
    pub fn ms(client_ms: Option<i64>) -> Reported {
        Reported { client_ms, trial: Trial::default() }
    }
}

impl Trial {
    /// Reads the form field; empty gives an empty trial. Unknown keys and values
    /// that cannot be true are refused, with a message naming them.
    pub fn parse(raw: &str) -> Result<Trial, String> {
        let mut trial = Trial::default();
        for (key, value) in form_urlencoded::parse(raw.trim().as_bytes()) {
            let count = |most: u32| {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n <= most)
                    .ok_or_else(|| format!("trial {key} must be a whole number up to {most}, not {value:?}"))
            };
            match key.as_ref() {
                "input" => {
                    trial.input =
                        Some(Input::parse(&value).ok_or_else(|| format!("trial input must be mouse, touch, pen or key, not {value:?}"))?)
                }
                "hidden" => trial.hidden = Some(count(MOST_HIDDEN)?),
                "clock_us" => trial.clock_us = Some(count(MOST_US)?),
                "frame_us" => trial.frame_us = Some(count(MOST_US)?),
                other => return Err(format!("trial has no field {other:?} (input, hidden, clock_us, frame_us)")),
            }
        }
        Ok(trial)
    }

    /// The form field's value (what [`Trial::parse`] reads).
    pub fn to_form(&self) -> String {
        let mut form = form_urlencoded::Serializer::new(String::new());
        if let Some(input) = self.input {
            form.append_pair("input", input.code());
        }
        for (key, value) in [("hidden", self.hidden), ("clock_us", self.clock_us), ("frame_us", self.frame_us)] {
            if let Some(value) = value {
                form.append_pair(key, &value.to_string());
            }
        }
        form.finish()
    }

    /// Whether the page was hidden while the item was shown.
    pub fn was_hidden(&self) -> bool {
        self.hidden.is_some_and(|n| n > 0)
    }

    /// Whether the browser's clock steps more than [`COARSE_CLOCK_US`].
    pub fn coarse_clock(&self) -> bool {
        self.clock_us.is_some_and(|us| us > COARSE_CLOCK_US)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trial_goes_through_its_form_field_and_back() {
        let trial = Trial { input: Some(Input::Touch), hidden: Some(2), clock_us: Some(100), frame_us: Some(16_667) };
        assert_eq!(trial.to_form(), "input=touch&hidden=2&clock_us=100&frame_us=16667");
        assert_eq!(Trial::parse(&trial.to_form()), Ok(trial));
        assert_eq!(Trial::parse(""), Ok(Trial::default()));
        assert_eq!(Trial::default().to_form(), "");
        assert!(trial.was_hidden() && !trial.coarse_clock());
        assert!(Trial { clock_us: Some(100_000), ..Trial::default() }.coarse_clock());
    }

    #[test]
    fn what_a_browser_cannot_send_is_refused_by_name() {
        for (raw, named) in [
            ("input=voice", "input"),
            ("hidden=-1", "hidden"),
            ("clock_us=x", "clock_us"),
            ("frame_us=99999999999", "frame_us"),
            ("color=red", "color"),
        ] {
            let error = Trial::parse(raw).expect_err(raw);
            assert!(error.contains(named), "{raw}: {error}");
        }
    }
}
