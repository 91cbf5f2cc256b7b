//! A context scores the same whatever else shares its batch: `gapwise score --batch 1`
//! and `--batch 64` store equal numbers (within 1e-6; sentences run packed, each
//! attending to itself only, so the arithmetic of one sentence does not depend on the
//! others). And a sentence longer than a batch's token budget runs alone and scores
//! as it does among others.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use candle_core::Device;
use gapwise_scorer::{load, Context, Conventions, LoadedModel, MaskedScoring, WordLogProbs};

const TOLERANCE: f64 = 1e-6;

/// 64 contexts: the 50 WordNet items, then the first 14 again.
fn items() -> Vec<(String, String, String)> {
    let text = include_str!("../../fixtures/wordnet_sanity_items.tsv");
    let rows: Vec<(String, String, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0].to_owned(), c[2].to_owned(), c[3].to_owned())
        })
        .collect();
    rows.iter().cycle().take(64).cloned().collect()
}

fn contexts(items: &[(String, String, String)]) -> Vec<Context<'_>> {
    items
        .iter()
        .map(|(text, target, distractor)| {
            let start = text.find(target.as_str()).expect("the target is in its sentence");
            Context { text, blank: (start, start + target.len()), target, distractor }
        })
        .collect()
}

fn check(model: &LoadedModel, what: &str) {
    let items = items();
    let contexts = contexts(&items);
    let together = model.scorer.score_contexts(&contexts).expect("batch of 64");
    let mut worst = 0.0f64;
    for (context, batched) in contexts.iter().zip(&together) {
        let alone: WordLogProbs = model.scorer.score_contexts(std::slice::from_ref(context)).expect("alone")[0];
        for (a, b) in [(alone.target, batched.target), (alone.distractor, batched.distractor)] {
            worst = worst.max((a - b).abs());
        }
    }
    println!("{what}: largest difference between batch 1 and batch 64: {worst:e}");
    assert!(worst <= TOLERANCE, "{what}: {worst}");
}

fn fixture(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(dir)
}

#[test]
fn the_default_causal_model_scores_alike_in_any_batch() {
    let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
    check(&load(Path::new(&path), &Device::Cpu, &Conventions::default()).expect("load"), "SmolLM2");
}

#[test]
fn hugging_face_causal_families_score_alike_in_any_batch() {
    // Gemma 3: windowed layers, q/k norms; Qwen2: biases, no BOS
    for dir in ["families/gemma3", "families/qwen2"] {
        let tmp = tempfile::tempdir().expect("tmp");
        for entry in std::fs::read_dir(fixture(dir)).expect("dir") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), tmp.path().join(entry.file_name())).expect("copy");
        }
        check(&load(tmp.path(), &Device::Cpu, &Conventions::default()).expect("load"), dir);
    }
}

#[test]
fn masked_models_score_alike_in_any_batch() {
    for masked in [MaskedScoring::Mask, MaskedScoring::PllWordL2r] {
        let conventions = Conventions { masked, ..Conventions::default() };
        check(&load(&fixture("mlm/bert"), &Device::Cpu, &conventions).expect("load"), &format!("bert {masked}"));
    }
}

/// A sentence of about 1,500 tokens (three times a batch's budget) runs alone, in
/// bounded memory, and scores as it does beside a short one.
#[test]
fn a_long_sentence_runs_alone_and_scores_the_same() {
    let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
    let lm = gapwise_scorer::causal::CausalLm::from_gguf(Path::new(&path), &Device::Cpu, &Conventions::default()).expect("load");
    let long = "the cat that the dog chased ran up the old oak tree and ".repeat(120);
    let alone = lm.score(&[&long]).expect("alone");
    assert!(alone[0].ids.len() > 3 * gapwise_scorer::causal::BATCH_TOKENS, "{} tokens", alone[0].ids.len());
    let beside = lm.score(&["A short one.", &long]).expect("beside");
    assert_eq!(alone[0].log_probs, beside[1].log_probs);
}
