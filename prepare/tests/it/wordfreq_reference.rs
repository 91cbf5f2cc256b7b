//! The wordfreq reader against wordfreq itself: Zipf frequencies of words from the
//! head of wordfreq 3.1.1's English and Russian data, as `wordfreq.zipf_frequency`
//! computed them (prepare/fixtures/make_wordfreq_reference.py).

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use gapwise_prepare::wordfreq::WordFrequencies;

#[test]
fn zipf_frequencies_match_wordfreq() {
    let dir = Path::new(&manifest_dir()).join("fixtures/wordfreq");
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).expect("reference")).expect("JSON");
    for language in ["en", "ru"] {
        let frequencies = WordFrequencies::from_file(&dir.join(format!("{language}_head.msgpack.gz"))).expect("read");
        let expected = reference["zipf"][language].as_object().expect("words");
        assert!(expected.len() >= 40);
        for (word, zipf) in expected {
            let zipf = zipf.as_f64().expect("number");
            let got = frequencies.zipf(word).unwrap_or(0.0);
            assert!((got - zipf).abs() < 1e-9, "{language} {word}: {got} vs wordfreq {zipf}");
        }
    }
}

#[test]
fn other_files_are_refused() {
    let dir = Path::new(&manifest_dir()).join("fixtures");
    assert!(WordFrequencies::from_file(&dir.join("wordfreq/reference.json")).is_err(), "not gzip");
    assert!(WordFrequencies::from_file(&dir.join("wordfreq/missing.msgpack.gz")).is_err());
}

/// The package folder, read when the test runs (a test binary reused from a build in
/// another checkout must not look in that checkout).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")
}
