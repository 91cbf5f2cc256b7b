//! A causal LM from a Hugging Face directory (Llama layout, safetensors without the
//! tied output weight, grouped-query attention, non-interleaved rotary embedding)
//! against PyTorch `transformers` (fixtures/make_hf_llama_reference.py).

use std::path::PathBuf;

use candle_core::Device;
use gapwise_scorer::causal::CausalLm;
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    start: u32,
    sentences: Vec<Row>,
}

#[derive(Deserialize)]
struct Row {
    sentence: String,
    ids: Vec<u32>,
    log_probs: Vec<f64>,
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/hf_llama")
}

#[test]
fn hf_llama_log_probs_match_pytorch() {
    let reference: Reference = serde_json::from_str(include_str!("../fixtures/hf_llama/reference.json")).expect("json");
    let lm = CausalLm::from_hf_dir(&dir(), &Device::Cpu).expect("load");
    assert_eq!(lm.start_token(), reference.start);
    let sentences: Vec<&str> = reference.sentences.iter().map(|r| r.sentence.as_str()).collect();
    let scores = lm.score(&sentences).expect("score");
    let mut worst = 0.0f64;
    for (row, ours) in reference.sentences.iter().zip(&scores) {
        assert_eq!(ours.ids, row.ids, "tokens of {:?}", row.sentence);
        for (a, b) in ours.log_probs.iter().zip(&row.log_probs) {
            worst = worst.max((f64::from(*a) - b).abs());
        }
    }
    println!("largest per-token difference from PyTorch: {worst:.1e}");
    assert!(worst <= 1e-4, "{worst}");
}

#[test]
fn unsupported_llama_settings_are_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    for f in ["model.safetensors", "tokenizer.json"] {
        std::fs::copy(dir().join(f), tmp.path().join(f)).expect("copy");
    }
    let config = std::fs::read_to_string(dir().join("config.json")).expect("config");
    std::fs::write(tmp.path().join("config.json"), config.replace("\"default\"", "\"llama3\"")).expect("write");
    let e = CausalLm::from_hf_dir(tmp.path(), &Device::Cpu).err().expect("rope scaling").to_string();
    assert!(e.contains("rope_type") && e.contains("config.json"), "{e}");
    std::fs::write(tmp.path().join("config.json"), config.replace("\"llama\"", "\"gemma3\"")).expect("write");
    let e = CausalLm::from_hf_dir(tmp.path(), &Device::Cpu).err().expect("architecture").to_string();
    assert!(e.contains("gemma3"), "{e}");
}
