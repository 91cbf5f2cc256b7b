//! An answer as a browser posts it (a URL-encoded form): the fields the server reads
//! from it parse or are refused, and nothing panics.
#![no_main]

use gapwise_model::{parse_client_ms, parse_language, Trial, K};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(fields) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(data) else { return };
    for (name, value) in fields {
        match name.as_str() {
            "client_ms" => {
                if let Ok(Some(ms)) = parse_client_ms(&value) {
                    // a number came back: the text was a finite number
                    assert!(value.trim().parse::<f64>().is_ok_and(f64::is_finite), "{value:?} -> {ms}");
                }
            }
            "k" => assert!(K::parse(&value).is_none_or(|k| [1, 3, 5].contains(&k.get()))),
            "language" => {
                let _ = parse_language(&value);
            }
            // a trial that parses writes itself back as what it read
            "trial" => {
                if let Ok(trial) = Trial::parse(&value) {
                    assert_eq!(Trial::parse(&trial.to_form()), Ok(trial), "{value:?}");
                }
            }
            _ => {}
        }
    }
});
