//! The n-gram and static-vector baselines against values computed independently
//! in Python (fixtures/make_baseline_reference.py): 40 WordNet items, 31 of them
//! with their sentence in the corpus (scored leave-one-out).

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::PathBuf;

use gapwise_scorer::baseline::{NgramLm, StaticVectors};
use gapwise_scorer::{Context, ContextScorer};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    k: f64,
    items: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    text: String,
    blank: (usize, usize),
    target: String,
    distractor: String,
    unigram: (f64, f64),
    bigram: (f64, f64),
    vectors: (f64, f64),
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(&manifest_dir()).join("fixtures/baseline").join(name)
}

fn check(scorer: &dyn ContextScorer, which: fn(&Item) -> (f64, f64), tolerance: f64) {
    let reference: Reference = serde_json::from_str(include_str!("../../fixtures/baseline/reference.json")).expect("json");
    let contexts: Vec<Context<'_>> =
        reference.items.iter().map(|i| Context { text: &i.text, blank: i.blank, target: &i.target, distractor: &i.distractor }).collect();
    let got = scorer.score_contexts(&contexts).expect("score");
    for (item, g) in reference.items.iter().zip(got) {
        let (t, d) = which(item);
        assert!((g.target - t).abs() <= tolerance && (g.distractor - d).abs() <= tolerance, "{:?}: {g:?} vs ({t}, {d})", item.text);
    }
}

fn k() -> f64 {
    serde_json::from_str::<Reference>(include_str!("../../fixtures/baseline/reference.json")).expect("json").k
}

#[test]
fn unigram_add_k_matches_python() {
    let lm = NgramLm::from_corpus(&fixture("corpus.txt"), 1, k()).expect("count");
    check(&lm, |i| i.unigram, 1e-9);
}

#[test]
fn bigram_add_k_leave_one_out_matches_python() {
    let lm = NgramLm::from_corpus(&fixture("corpus.txt"), 2, k()).expect("count");
    check(&lm, |i| i.bigram, 1e-9);
}

#[test]
fn static_vector_cosines_match_numpy() {
    let v = StaticVectors::from_text(&fixture("vectors.txt")).expect("load");
    check(&v, |i| i.vectors, 1e-6);
}

#[test]
fn npy_vectors_score_like_the_text_file() {
    let v = StaticVectors::from_npy(&fixture("vectors.npy")).expect("load");
    check(&v, |i| i.vectors, 1e-6);
}

#[test]
fn bad_baseline_inputs_are_clear_errors() {
    let missing = fixture("nope.txt");
    let e = NgramLm::from_corpus(&missing, 2, 0.5).err().expect("missing").to_string();
    assert!(e.contains("nope.txt"), "{e}");
    assert!(NgramLm::from_corpus(&fixture("corpus.txt"), 3, 0.5).is_err());
    assert!(NgramLm::from_corpus(&fixture("corpus.txt"), 2, 0.0).is_err());
    let tmp = tempfile::tempdir().expect("tmp");
    let bad = tmp.path().join("v.txt");
    std::fs::write(&bad, "cat 0.1 0.2\ndog 0.3\n").expect("write");
    let e = StaticVectors::from_text(&bad).err().expect("ragged").to_string();
    assert!(e.contains("line 2"), "{e}");
    std::fs::write(&bad, "cat 0.1 x\n").expect("write");
    assert!(StaticVectors::from_text(&bad).err().expect("not a number").to_string().contains("line 1"));
    let e = StaticVectors::from_npy(&tmp.path().join("none.npy")).err().expect("no vocab").to_string();
    assert!(e.contains("none.vocab"), "{e}");
    let v = StaticVectors::from_text(&fixture("vectors.txt")).expect("load");
    let c = Context { text: "the whole thing", blank: (4, 9), target: "whole", distractor: "zzzqqq" };
    let e = v.score_contexts(&[c]).expect_err("no vector").to_string();
    assert!(e.contains("zzzqqq"), "{e}");
}

/// The package folder, read when the test runs (a test binary reused from a build in
/// another checkout must not look in that checkout).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")
}
