//! The start token, sentence scores and word scores on the sentence's own pieces,
//! against the field's tools run end to end on the raw text
//! (fixtures/make_conventions_reference.py, fixtures/conventions/), for every tokenizer
//! layout the Hub ships: `auto` is lm-evaluation-harness's `HFLM.prefix_token_id`; a
//! sentence's log-probability is `HFLM.loglikelihood(("", s))`; a continuation's is
//! `HFLM.loglikelihood((start + prefix, continuation))`; a word's pieces are the ones
//! transformers' offsets give, and its log-probability, plain and corrected, the sum
//! of minicons' per-token values (`compute_stats`, `bow_correction` False and True);
//! all within 1e-4.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::Device;
use gapwise_model::words::game_spans;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::{Conventions, StartToken};
use serde::Deserialize;

const TOLERANCE: f64 = 1e-4;

#[derive(Deserialize)]
struct Reference {
    layouts: HashMap<String, Layout>,
    shared: HashMap<String, Shared>,
}

#[derive(Deserialize)]
struct Shared {
    from: String,
    files: Vec<String>,
}

#[derive(Deserialize)]
struct Layout {
    what: String,
    start: Option<u32>,
    sentences: Vec<Sentence>,
    continuations: Vec<Continuation>,
}

#[derive(Deserialize)]
struct Sentence {
    text: String,
    ids: Vec<u32>,
    log_prob: Option<f64>,
    token_log_probs: Vec<Option<f64>>,
    words: Vec<Word>,
}

#[derive(Deserialize)]
struct Word {
    word: String,
    pieces: Vec<usize>,
    aligned: bool,
    log_prob: Option<f64>,
    corrected: Option<f64>,
}

#[derive(Deserialize)]
struct Continuation {
    prefix: String,
    continuation: String,
    log_prob: f64,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conventions")
}

fn reference() -> Reference {
    let text = std::fs::read_to_string(fixtures().join("reference.json")).expect("reference.json");
    serde_json::from_str(&text).expect("reference JSON")
}

/// The layout `name` as the Hub ships it: its own files and those it shares.
fn model_dir(reference: &Reference, name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    let copy = |from: &Path, file: &str| std::fs::copy(from.join(file), dir.path().join(file)).expect("copy");
    for entry in std::fs::read_dir(fixtures().join(name)).expect("fixture dir") {
        copy(&fixtures().join(name), &entry.expect("entry").file_name().to_string_lossy());
    }
    if let Some(shared) = reference.shared.get(name) {
        for file in &shared.files {
            copy(&fixtures().join(&shared.from), file);
        }
    }
    dir
}

fn load(reference: &Reference, name: &str, conventions: &Conventions) -> CausalLm {
    let dir = model_dir(reference, name);
    CausalLm::from_hf_dir(dir.path(), &Device::Cpu, conventions).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn close(ours: f64, theirs: f64) -> bool {
    (ours - theirs).abs() <= TOLERANCE
}

#[test]
fn auto_is_lm_evaluation_harness_prefix_token_in_every_layout() {
    let reference = reference();
    assert!(reference.layouts.len() >= 12, "every layout of the script");
    for (name, layout) in &reference.layouts {
        let lm = load(&reference, name, &Conventions::default());
        assert_eq!(lm.start_token(), layout.start, "{name} ({}): {}", layout.what, lm.convention());
    }
}

#[test]
fn sentence_log_probabilities_equal_lm_evaluation_harness() {
    let reference = reference();
    for (name, layout) in &reference.layouts {
        let lm = load(&reference, name, &Conventions::default());
        let texts: Vec<&str> = layout.sentences.iter().map(|s| s.text.as_str()).collect();
        for (sentence, got) in layout.sentences.iter().zip(lm.score(&texts).expect("score")) {
            assert_eq!(got.ids, sentence.ids, "{name}: the tokens transformers gives {:?}", sentence.text);
            // no start token: lm-eval has no prefix; minicons scores all but the first token
            let theirs = sentence.log_prob.unwrap_or_else(|| sentence.token_log_probs.iter().flatten().sum());
            assert!(close(got.total(), theirs), "{name}: {:?}: ours {}, reference {theirs}", sentence.text, got.total());
        }
    }
}

#[test]
fn word_log_probabilities_equal_minicons_on_the_sentences_own_pieces() {
    let reference = reference();
    let (mut scored, mut unaligned, mut moved) = (0, 0, 0.0f64);
    for (name, layout) in &reference.layouts {
        let lm = load(&reference, name, &Conventions::default());
        for sentence in &layout.sentences {
            let spans = game_spans(&sentence.text);
            let words: Vec<&str> = spans.iter().map(|&(a, b)| &sentence.text[a..b]).collect();
            let theirs: Vec<&str> = sentence.words.iter().map(|w| w.word.as_str()).collect();
            assert_eq!(words, theirs, "the game's words of {:?}", sentence.text);
            let readings = lm.read_words(&sentence.text, &spans).expect("read");
            for (reading, word) in readings.iter().zip(&sentence.words) {
                let at = format!("{name}: {:?} in {:?}", word.word, sentence.text);
                let before: Vec<u32> = lm.start_token().into_iter().chain(sentence.ids[..word.pieces[0]].iter().copied()).collect();
                assert_eq!(reading.prefix, before, "{at}: the pieces before the word");
                match (&reading.log_prob, word.log_prob, word.corrected) {
                    (Ok(ours), Some(pieces), Some(corrected)) => {
                        assert!(close(ours.pieces, pieces), "{at}: pieces {} vs minicons {pieces}", ours.pieces);
                        assert!(close(ours.corrected, corrected), "{at}: corrected {} vs minicons {corrected}", ours.corrected);
                        scored += 1;
                        moved = moved.max((corrected - pieces).abs());
                    }
                    (Err(why), None, None) => {
                        // a piece shared with the text beside the word, or (no start
                        // token) the sentence's first piece, which nothing predicts
                        let first_unscored = layout.start.is_none() && word.pieces[0] == 0;
                        assert!(word.aligned == first_unscored, "{at}: ours says {why}");
                        assert!(why.contains(if first_unscored { "unscored" } else { "spans" }), "{at}: {why}");
                        unaligned += 1;
                    }
                    (ours, pieces, _) => panic!("{at}: ours {ours:?}, minicons {pieces:?} (aligned: {})", word.aligned),
                }
            }
        }
    }
    println!("{scored} words scored, {unaligned} without a log-probability; the correction moved one by up to {moved:.3} nats");
    assert!(unaligned >= 12 && scored > 500, "the fixture has both kinds of word");
    assert!(moved > 0.5, "the correction is not a no-op on these models");
}

#[test]
fn continuations_equal_lm_evaluation_harness_split() {
    let reference = reference();
    for (name, layout) in &reference.layouts {
        let lm = load(&reference, name, &Conventions::default());
        for c in &layout.continuations {
            let got = lm.continuation_log_probs(&[(&c.prefix, &c.continuation)]).expect("continuation");
            let ours: f64 = got[0].iter().map(|&l| f64::from(l)).sum();
            assert!(close(ours, c.log_prob), "{name}: {:?} after {:?}: ours {ours}, lm-eval {}", c.continuation, c.prefix, c.log_prob);
        }
    }
}

/// A start token asked for that the tokenizer lacks is refused with the file and key
/// that decided it.
#[test]
fn a_missing_start_token_names_what_decided() {
    let reference = reference();
    let bos = Conventions { start: StartToken::Bos, ..Conventions::default() };
    for (name, decided_by) in [("null_bos", "tokenizer_config.json's bos_token"), ("mistral_no_bos", "the default of TokenizersBackend")] {
        let dir = model_dir(&reference, name);
        let e = CausalLm::from_hf_dir(dir.path(), &Device::Cpu, &bos).err().expect("no BOS").to_string();
        assert!(e.contains("--start-token bos") && e.contains(decided_by), "{name}: {e}");
    }
    let lm = load(&reference, "gpt2", &Conventions::default());
    assert!(lm.convention().contains("auto: lm-evaluation-harness's prefix"), "{}", lm.convention());
}
