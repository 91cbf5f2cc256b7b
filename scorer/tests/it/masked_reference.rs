//! Masked LMs against PyTorch `transformers`: tiny random-weight BERT (tokenizer.json,
//! safetensors without the tied decoder weight), DistilBERT (vocab.txt only,
//! pytorch_model.bin) and RoBERTa (byte-level BPE), made and scored by
//! fixtures/make_mlm_reference.py. Every word score — the paper's mask scoring and both
//! PLL variants, for target and distractor — matches within 1e-4.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::define_fixtures;

use std::path::PathBuf;

use candle_core::Device;
use gapwise_scorer::masked::{MaskedLm, MaskedScoring};
use gapwise_scorer::{Context, ContextScorer, ScorerError};
use serde::Deserialize;

const TOLERANCE: f64 = 1e-4;

#[derive(Deserialize)]
struct Reference {
    models: std::collections::HashMap<String, Vec<Item>>,
}

#[derive(Deserialize)]
struct Item {
    text: String,
    blank: (usize, usize),
    target: String,
    distractor: String,
    target_scores: Scores,
    distractor_scores: Scores,
}

#[derive(Deserialize)]
struct Scores {
    mask: f64,
    pll_original: f64,
    pll_word_l2r: f64,
}

impl Scores {
    fn get(&self, scoring: MaskedScoring) -> f64 {
        match scoring {
            MaskedScoring::Mask => self.mask,
            MaskedScoring::PllOriginal => self.pll_original,
            MaskedScoring::PllWordL2r => self.pll_word_l2r,
        }
    }
}

fn dir(name: &str) -> PathBuf {
    PathBuf::from(&manifest_dir()).join("fixtures/mlm").join(name)
}

fn reference() -> Reference {
    serde_json::from_str(include_str!("../../fixtures/mlm/reference.json")).expect("reference.json")
}

fn check(model: &str) {
    check_dir(model, &dir(model));
}

/// Scores `model`'s reference items with the model directory `path`.
fn check_dir(model: &str, path: &std::path::Path) {
    let reference = reference();
    let items = &reference.models[model];
    let contexts: Vec<Context<'_>> =
        items.iter().map(|i| Context { text: &i.text, blank: i.blank, target: &i.target, distractor: &i.distractor }).collect();
    for scoring in [MaskedScoring::Mask, MaskedScoring::PllOriginal, MaskedScoring::PllWordL2r] {
        let lm = MaskedLm::from_dir(path, &Device::Cpu, scoring).expect("load");
        // all contexts in one call (shared, batched forwards) ...
        let together = lm.score_contexts(&contexts).expect("score");
        let mut worst = 0.0f64;
        for ((item, got), context) in items.iter().zip(&together).zip(&contexts) {
            for (ours, theirs, word) in [
                (got.target, item.target_scores.get(scoring), &item.target),
                (got.distractor, item.distractor_scores.get(scoring), &item.distractor),
            ] {
                let d = (ours - theirs).abs();
                worst = worst.max(d);
                assert!(d <= TOLERANCE, "{model} {}: {word:?} in {:?}: ours {ours}, PyTorch {theirs}", scoring.name(), item.text);
            }
            // ... and each alone gives the same numbers
            let alone = lm.score_contexts(std::slice::from_ref(context)).expect("alone")[0];
            assert!((alone.target - got.target).abs() <= TOLERANCE && (alone.distractor - got.distractor).abs() <= TOLERANCE);
        }
        println!("{model} {}: largest difference from PyTorch {worst:.1e}", scoring.name());
    }
}

#[test]
fn bert_matches_pytorch() {
    check("bert");
}

#[test]
fn distilbert_from_vocab_txt_and_pytorch_bin_matches_pytorch() {
    check("distilbert");
}

#[test]
fn roberta_matches_pytorch() {
    check("roberta");
}

/// RoBERTa with its tokenizer rebuilt from vocab.json + merges.txt (no tokenizer.json).
#[test]
fn roberta_from_vocab_json_and_merges_matches_pytorch() {
    let tmp = tempfile::tempdir().expect("tmp");
    for f in ["config.json", "model.safetensors"] {
        std::fs::copy(dir("roberta").join(f), tmp.path().join(f)).expect("copy");
    }
    for f in ["vocab.json", "merges.txt"] {
        std::fs::copy(dir("roberta_vocab_files").join(f), tmp.path().join(f)).expect("copy");
    }
    check_dir("roberta", tmp.path());
}

/// The word-definition tasks (001_bf5d15b61b58df06.txt) on the groups of Tables 1
/// and 9: W2D and D2W scores of every candidate, averaged over Table 3's patterns,
/// against PyTorch (fixtures/make_mlm_definitions_reference.py).
#[test]
fn definition_scores_match_pytorch() {
    #[derive(Deserialize)]
    struct Groups {
        models: std::collections::HashMap<String, Vec<define_fixtures::Group>>,
    }
    let reference: Groups = serde_json::from_str(include_str!("../../fixtures/mlm/definitions_reference.json")).expect("reference");
    for (model, groups) in &reference.models {
        let lm = MaskedLm::from_dir(&dir(model), &Device::Cpu, MaskedScoring::Mask).expect("load");
        for r in define_fixtures::compare(&lm, groups, TOLERANCE, &format!("{model} against PyTorch")) {
            // random tiny weights: the ranks are printed for reading, the scores are what is checked
            println!("{model} {} {}: rank {} of {} (PyTorch {})", r.task, r.target, r.ours, r.candidates, r.theirs);
        }
    }
}

#[test]
fn bad_model_directories_and_inputs_are_clear_errors() {
    let tmp = tempfile::tempdir().expect("tmp");
    let err = |dir: &std::path::Path| MaskedLm::from_dir(dir, &Device::Cpu, MaskedScoring::Mask).err().expect("must fail").to_string();

    let message = err(tmp.path());
    assert!(message.contains("config.json"), "{message}");

    std::fs::write(tmp.path().join("config.json"), r#"{"model_type": "t5"}"#).expect("write");
    let message = err(tmp.path());
    assert!(message.contains("unsupported architecture \"t5\""), "{message}");

    std::fs::write(tmp.path().join("config.json"), r#"{"model_type": "gpt2"}"#).expect("write");
    let message = err(tmp.path());
    assert!(message.contains("causal language model, not a masked one"), "{message}");

    for f in ["config.json", "tokenizer.json"] {
        std::fs::copy(dir("bert").join(f), tmp.path().join(f)).expect("copy");
    }
    let message = err(tmp.path());
    assert!(message.contains("no weights: expected model.safetensors, pytorch_model.bin"), "{message}");

    // a checkpoint saved without its masked-LM head (BertModel) says so
    let bert = std::fs::read(dir("bert").join("model.safetensors")).expect("read");
    let tensors = candle_core::safetensors::load_buffer(&bert, &Device::Cpu).expect("tensors");
    let headless: std::collections::HashMap<String, candle_core::Tensor> =
        tensors.into_iter().filter(|(name, _)| !name.starts_with("cls.")).collect();
    candle_core::safetensors::save(&headless, tmp.path().join("model.safetensors")).expect("save");
    let message = err(tmp.path());
    assert!(message.contains("no masked-LM head") && message.contains("BertForMaskedLM"), "{message}");

    // a config.json without model_type names the family by its architectures
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir("bert").join("config.json")).expect("config")).expect("json");
    std::fs::copy(dir("bert").join("model.safetensors"), tmp.path().join("model.safetensors")).expect("copy");
    let object = config.as_object_mut().expect("object");
    object.remove("model_type");
    object.insert("architectures".into(), serde_json::json!(["BertForMaskedLM"]));
    std::fs::write(tmp.path().join("config.json"), config.to_string()).expect("write");
    MaskedLm::from_dir(tmp.path(), &Device::Cpu, MaskedScoring::Mask).expect("a BERT without model_type");
    config["architectures"] = serde_json::json!(["T5ForConditionalGeneration"]);
    std::fs::write(tmp.path().join("config.json"), config.to_string()).expect("write");
    let message = err(tmp.path());
    assert!(message.contains("T5ForConditionalGeneration"), "{message}");
    std::fs::copy(dir("bert").join("config.json"), tmp.path().join("config.json")).expect("copy");

    std::fs::write(tmp.path().join("model.safetensors"), b"not safetensors").expect("write");
    let message = err(tmp.path());
    assert!(message.contains("model.safetensors") && message.contains("not a readable"), "{message}");

    let bytes = std::fs::read(dir("bert").join("model.safetensors")).expect("read");
    std::fs::write(tmp.path().join("model.safetensors"), &bytes[..bytes.len() / 2]).expect("truncate");
    let message = err(tmp.path());
    assert!(message.contains("model.safetensors"), "{message}");

    let lm = MaskedLm::from_dir(&dir("bert"), &Device::Cpu, MaskedScoring::Mask).expect("load");
    let bad = |text: &'static str, blank| Context { text, blank, target: "cat", distractor: "dog" };
    let e = lm.score_contexts(&[bad("a cat sat", (2, 5)), bad("", (0, 0))]).expect_err("empty");
    assert!(matches!(e, ScorerError::Input(_)), "{e}");
    let e = lm.score_contexts(&[bad("a cat sat", (2, 99))]).expect_err("out of range").to_string();
    assert!(e.contains("a cat sat"), "{e}");
    let long: &'static str = Box::leak("cat ".repeat(100).into_boxed_str());
    let e = lm.score_contexts(&[bad(long, (0, 3))]).expect_err("too long").to_string();
    assert!(e.contains("more than the"), "{e}");
}

/// The package folder, read when the test runs (a test binary reused from a build in
/// another checkout must not look in that checkout).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")
}
