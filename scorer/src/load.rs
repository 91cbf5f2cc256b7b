//! Opening a model by path: the kind is told by what the path holds.

use std::path::Path;
use std::sync::Arc;

use candle_core::Device;

use crate::baseline::{NgramLm, StaticVectors};
use crate::causal::CausalLm;
use crate::masked::{MaskedLm, MaskedScoring};
use crate::{ContextScorer, ScorerError};

/// A model ready to play, and what kind of model it is (stored with its scores).
pub struct LoadedModel {
    pub scorer: Arc<dyn ContextScorer>,
    pub kind: &'static str,
}

/// Loads a causal LM from a `.gguf` file or a Llama Hugging Face directory, or a
/// masked LM (scored as `scoring` says) from a BERT-family Hugging Face directory.
pub fn load(path: &Path, device: &Device, scoring: MaskedScoring) -> Result<LoadedModel, ScorerError> {
    if !path.exists() {
        return Err(ScorerError::file(path, "no such file or directory"));
    }
    if path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf")) {
        let lm = CausalLm::from_gguf(path, device)?;
        return Ok(LoadedModel { scorer: Arc::new(lm), kind: "causal" });
    }
    if path.is_dir() && path.join("config.json").is_file() {
        let (config, _) = crate::hf::read_config(path)?;
        if config.get("model_type").and_then(serde_json::Value::as_str) == Some("llama") {
            return Ok(LoadedModel { scorer: Arc::new(CausalLm::from_hf_dir(path, device)?), kind: "causal" });
        }
        let lm = MaskedLm::from_dir(path, device, scoring)?;
        return Ok(LoadedModel { scorer: Arc::new(lm), kind: "masked" });
    }
    Err(ScorerError::file(path, "not a model: expected a .gguf file or a directory with config.json"))
}

/// Loads a baseline: `unigram` or `bigram` (counted from the corpus file at `path`,
/// add-`k` smoothing) or `vectors` (a GloVe / word2vec text file, or a `.npy`
/// matrix with a sibling `.vocab` word list, at `path`).
pub fn load_baseline(kind: &str, path: &Path, k: f64) -> Result<LoadedModel, ScorerError> {
    let (scorer, kind): (Arc<dyn ContextScorer>, &'static str) = match kind {
        "unigram" => (Arc::new(NgramLm::from_corpus(path, 1, k)?), "unigram"),
        "bigram" => (Arc::new(NgramLm::from_corpus(path, 2, k)?), "bigram"),
        "vectors" => (Arc::new(StaticVectors::from_path(path)?), "static-vectors"),
        other => return Err(ScorerError::Input(format!("unknown baseline {other:?} (unigram, bigram or vectors)"))),
    };
    Ok(LoadedModel { scorer, kind })
}
