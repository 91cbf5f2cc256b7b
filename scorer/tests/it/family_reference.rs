//! Every model family the scorer loads, against PyTorch `transformers`: tiny
//! random-weight checkpoints saved as the Hub ships them, made and scored by
//! fixtures/make_family_reference.py (fixtures/families/). Each family's largest
//! difference from PyTorch must stay within 1e-4 (per masked word score, per causal
//! token), and the tokens must be the same ones.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::Device;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::masked::{MaskedLm, MaskedScoring};
use gapwise_scorer::{Context, ContextScorer, Conventions, FirstToken, Precision, StartToken};
use serde::Deserialize;

const TOLERANCE: f64 = 1e-4;

#[derive(Deserialize)]
struct Reference {
    masked: HashMap<String, Vec<MaskedItem>>,
    causal: HashMap<String, CausalFamily>,
    shared: HashMap<String, Shared>,
}

#[derive(Deserialize)]
struct Shared {
    from: String,
    files: Vec<String>,
}

#[derive(Deserialize)]
struct MaskedItem {
    text: String,
    blank: (usize, usize),
    target: String,
    distractor: String,
    target_scores: MaskedScores,
    distractor_scores: MaskedScores,
}

#[derive(Deserialize)]
struct MaskedScores {
    ids: Vec<u32>,
    empty_pieces: usize,
    mask: f64,
    pll_original: f64,
    pll_word_l2r: f64,
}

impl MaskedScores {
    fn get(&self, scoring: MaskedScoring) -> f64 {
        match scoring {
            MaskedScoring::Mask => self.mask,
            MaskedScoring::PllOriginal => self.pll_original,
            MaskedScoring::PllWordL2r => self.pll_word_l2r,
        }
    }
}

#[derive(Deserialize)]
struct CausalFamily {
    start: u32,
    sentences: Vec<CausalRow>,
}

#[derive(Deserialize)]
struct CausalRow {
    sentence: String,
    ids: Vec<u32>,
    log_probs: Vec<f64>,
    log_probs_no_start: Option<Vec<f64>>,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/families")
}

fn reference() -> Reference {
    let text = std::fs::read_to_string(fixtures().join("reference.json")).expect("reference.json");
    serde_json::from_str(&text).expect("reference JSON")
}

/// The model directory of `name` as the Hub ships it: a copy that holds, besides its
/// own files, those it shares with another fixture.
fn model_dir(reference: &Reference, name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    let copy = |from: &Path, file: &str| std::fs::copy(from.join(file), dir.path().join(file)).expect("copy");
    for entry in std::fs::read_dir(fixtures().join(name)).expect("fixture dir") {
        let entry = entry.expect("entry");
        copy(&fixtures().join(name), &entry.file_name().to_string_lossy());
    }
    if let Some(shared) = reference.shared.get(name) {
        for file in &shared.files {
            copy(&fixtures().join(&shared.from), file);
        }
    }
    dir
}

fn contexts(items: &[MaskedItem]) -> Vec<Context<'_>> {
    items.iter().map(|i| Context { text: &i.text, blank: i.blank, target: &i.target, distractor: &i.distractor }).collect()
}

/// Loads masked family `name` with each scoring and compares every word score; returns
/// the largest difference.
fn check_masked(reference: &Reference, name: &str) -> f64 {
    let items = &reference.masked[name];
    let dir = model_dir(reference, name);
    let mut worst = 0.0f64;
    for scoring in [MaskedScoring::Mask, MaskedScoring::PllOriginal, MaskedScoring::PllWordL2r] {
        let lm = MaskedLm::from_dir(dir.path(), &Device::Cpu, scoring).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = lm.score_contexts(&contexts(items)).expect("score");
        for (item, got) in items.iter().zip(got) {
            for (ours, theirs, word) in
                [(got.target, &item.target_scores, &item.target), (got.distractor, &item.distractor_scores, &item.distractor)]
            {
                let d = (ours - theirs.get(scoring)).abs();
                worst = worst.max(d);
                assert!(d <= TOLERANCE, "{name} {scoring}: {word:?} in {:?}: ours {ours}, PyTorch {}", item.text, theirs.get(scoring));
            }
        }
        assert_eq!(lm.token_ids(&items[0].text).expect("ids"), items[0].target_scores.ids, "{name}: tokens");
    }
    println!("{name}: largest difference from PyTorch {worst:.1e}");
    worst
}

#[test]
fn masked_families_match_pytorch() {
    let reference = reference();
    for name in ["bert_cased", "roberta_ru", "xlm_roberta", "camembert"] {
        check_masked(&reference, name);
    }
}

/// CamemBERT and XLM-R directories with only `sentencepiece.bpe.model`: the tokenizer
/// is converted as transformers converts it, and scores the same.
#[test]
fn sentencepiece_only_directories_match_pytorch() {
    let reference = reference();
    for name in ["xlm_roberta_spm", "camembert_spm"] {
        assert!(!fixtures().join(name).join("tokenizer.json").exists());
        check_masked(&reference, name);
        let items = &reference.masked[name];
        let lm = MaskedLm::from_dir(model_dir(&reference, name).path(), &Device::Cpu, MaskedScoring::Mask).expect("load");
        for item in items {
            let filled = item.text.replacen(&item.target, &item.distractor, 1);
            assert_eq!(lm.token_ids(&filled).expect("ids"), item.distractor_scores.ids, "{name}: {filled}");
        }
    }
}

/// A lone `Ġ` (empty offsets) before a Cyrillic word is one of the word's pieces: it is
/// masked with the others and scored (the mask scores above include it).
#[test]
fn an_empty_offset_piece_belongs_to_its_word() {
    let reference = reference();
    let with_empty =
        reference.masked["roberta_ru"].iter().flat_map(|i| [&i.target_scores, &i.distractor_scores]).filter(|s| s.empty_pieces > 0).count();
    assert!(with_empty >= 2, "the fixture has words with an empty-offset piece");
    check_masked(&reference, "roberta_ru");
}

/// Loads causal family `name` and compares every token's log-probability; returns the
/// largest difference.
fn check_causal(reference: &Reference, name: &str, conventions: &Conventions) -> f64 {
    let dir = model_dir(reference, name);
    let lm = CausalLm::from_hf_dir(dir.path(), &Device::Cpu, conventions).unwrap_or_else(|e| panic!("{name}: {e}"));
    compare_causal(&lm, reference, name, conventions.start == StartToken::None)
}

/// Compares `lm` with the reference of causal family `name`; returns the largest difference.
fn compare_causal(lm: &CausalLm, reference: &Reference, name: &str, no_start: bool) -> f64 {
    let family = &reference.causal[name];
    if !no_start {
        assert_eq!(lm.start_token(), Some(family.start), "{name}: start token");
    }
    let sentences: Vec<&str> = family.sentences.iter().map(|r| r.sentence.as_str()).collect();
    let mut worst = 0.0f64;
    for (row, got) in family.sentences.iter().zip(lm.score(&sentences).expect("score")) {
        assert_eq!(got.ids, row.ids, "{name}: tokens of {:?}", row.sentence);
        let want = if no_start { row.log_probs_no_start.as_ref().expect("no-start reference") } else { &row.log_probs };
        assert_eq!(got.log_probs.len(), want.len(), "{name}: scored tokens of {:?}", row.sentence);
        for (ours, theirs) in got.log_probs.iter().zip(want) {
            let d = (f64::from(*ours) - theirs).abs();
            worst = worst.max(d);
            assert!(d <= TOLERANCE, "{name}: {:?}: ours {ours}, PyTorch {theirs}", row.sentence);
        }
    }
    println!("{name}: largest difference from PyTorch {worst:.1e} ({})", lm.convention());
    worst
}

#[test]
fn causal_families_match_pytorch() {
    let reference = reference();
    for name in ["gpt2", "qwen2", "qwen3", "mistral", "gemma", "gemma2", "gemma3", "phi3"] {
        check_causal(&reference, name, &Conventions::default());
    }
}

/// One Llama checkpoint under every rope form a config can state; the three forms of
/// Llama 3.1's scaling give the same numbers, and they differ from no scaling.
#[test]
fn llama_rope_forms_match_pytorch() {
    let reference = reference();
    for name in
        ["llama_default", "llama_linear", "llama_dynamic", "llama_yarn", "llama3_rope_type", "llama3_type", "llama3_rope_parameters"]
    {
        check_causal(&reference, name, &Conventions::default());
    }
    let first = |name: &str| reference.causal[name].sentences[3].log_probs.clone();
    assert_eq!(first("llama3_type"), first("llama3_rope_parameters"));
    assert_ne!(first("llama3_rope_type"), first("llama_default"), "the fixture's scaling moves the scores");
}

/// Gemma 3 in the config form the Hub ships and in the one transformers 5 writes.
#[test]
fn gemma3_configs_of_both_forms_match_pytorch() {
    let reference = reference();
    check_causal(&reference, "gemma3", &Conventions::default());
    check_causal(&reference, "gemma3_v5", &Conventions::default());
}

/// Without a start token the first token is not scored, and the rest match PyTorch
/// run on the bare sentence.
#[test]
fn no_start_token_matches_pytorch_without_one() {
    let reference = reference();
    let none = Conventions { start: StartToken::None, ..Conventions::default() };
    for name in ["gpt2", "llama_default"] {
        check_causal(&reference, name, &none);
    }
    let asked = Conventions { start: StartToken::None, first_token: FirstToken::Scored, ..Conventions::default() };
    let dir = model_dir(&reference, "gpt2");
    let err = CausalLm::from_hf_dir(dir.path(), &Device::Cpu, &asked).err().expect("nothing to predict the first token from");
    assert!(err.to_string().contains("without a start token"), "{err}");
}

/// The Llama of the fixtures in GGUF files as llama.cpp's converter writes them
/// (fixtures/make_gguf_rope_reference.py, which checks them with llama.cpp): rope
/// scaling as `rope.scaling.type = linear` and as Llama 3.1's `rope_freqs` divisors,
/// Q and K permuted for llama.cpp's rotary embedding. They score what PyTorch scored
/// for the same weights and rope.
#[test]
fn gguf_rope_scaling_matches_pytorch() {
    let reference = reference();
    for (file, name) in [("llama_linear.gguf", "llama_linear"), ("llama3.gguf", "llama3_rope_type")] {
        let lm = CausalLm::from_gguf(&fixtures().join(file), &Device::Cpu, &Conventions::default()).expect(file);
        compare_causal(&lm, &reference, name, false);
    }
}

/// bf16 weights and activations (the GPU's default for checkpoints that ship in it)
/// keep every family within bf16's rounding of PyTorch's f32 numbers, log-probabilities
/// taken in f32; the convention says so, and f32's convention is unchanged. On the
/// CPU this runs the padded attention that a GPU runs.
#[test]
fn bf16_stays_within_its_rounding() {
    let reference = reference();
    let bf16 = Conventions { precision: Precision::Bf16, ..Conventions::default() };
    // bf16's 8-bit mantissa moves a word or sentence log-probability (a sum over
    // tokens) by a few percent on these random-weight stand-ins (scorer/examples/gpu_check.rs
    // holds the GPU to the same bound)
    let within = |ours: f64, theirs: f64| (ours - theirs).abs() <= 0.1 + 0.08 * theirs.abs();
    for name in ["gpt2", "llama_default", "mistral", "qwen3", "phi3", "gemma2", "gemma3"] {
        let dir = model_dir(&reference, name);
        let lm = CausalLm::from_hf_dir(dir.path(), &Device::Cpu, &bf16).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(lm.convention().ends_with("; computed in bf16"), "{name}: {}", lm.convention());
        let family = &reference.causal[name];
        let sentences: Vec<&str> = family.sentences.iter().map(|r| r.sentence.as_str()).collect();
        let mut worst = 0.0f64;
        for (row, got) in family.sentences.iter().zip(lm.score(&sentences).expect("score")) {
            let (ours, theirs) = (got.log_probs.iter().map(|&x| f64::from(x)).sum::<f64>(), row.log_probs.iter().sum::<f64>());
            worst = worst.max((ours - theirs).abs());
            assert!(within(ours, theirs), "{name}: {:?}: bf16 {ours}, PyTorch f32 {theirs}", row.sentence);
        }
        println!("{name}: bf16's largest difference from PyTorch f32 {worst:.1e}");
    }
    for name in ["bert_cased", "xlm_roberta"] {
        let items = &reference.masked[name];
        let lm = MaskedLm::load(model_dir(&reference, name).path(), &Device::Cpu, &bf16).expect("load");
        assert!(lm.convention().ends_with("; computed in bf16"), "{name}: {}", lm.convention());
        for (item, got) in items.iter().zip(lm.score_contexts(&contexts(items)).expect("score")) {
            assert!(
                within(got.target, item.target_scores.mask),
                "{name}: {:?}: bf16 {}, PyTorch f32 {}",
                item.text,
                got.target,
                item.target_scores.mask
            );
        }
    }
    let f32 = CausalLm::from_hf_dir(model_dir(&reference, "gpt2").path(), &Device::Cpu, &Conventions::default()).expect("load");
    assert!(!f32.convention().contains("computed in"), "{}", f32.convention());
}
