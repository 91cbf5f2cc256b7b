//! Opening a model by path: the kind is told by what the path holds.

use std::path::Path;
use std::sync::Arc;

use candle_core::Device;

use crate::baseline::{NgramLm, StaticVectors};
use crate::causal::CausalLm;
use crate::definitions::DefinitionScorer;
use crate::shannon::NextPieceModel;
use crate::winodict::partial::ContinuationScorer;
use crate::masked::{MaskedLm, MaskedScoring};
use crate::{ContextScorer, ScorerError};

/// A model ready to play, and what kind of model it is (stored with its scores).
pub struct LoadedModel {
    pub scorer: Arc<dyn ContextScorer>,
    /// The same model playing the word-definition tasks; `None` for n-gram baselines.
    pub definitions: Option<Arc<dyn DefinitionScorer>>,
    /// The same model guessing next words; causal LMs only.
    pub next_words: Option<Arc<dyn NextPieceModel>>,
    /// The same model scoring continuations (WinoDict's partial scoring); causal LMs only.
    pub continuations: Option<Arc<dyn ContinuationScorer>>,
    pub kind: &'static str,
}

impl LoadedModel {
    fn of<M: ContextScorer + DefinitionScorer + 'static>(model: M, kind: &'static str) -> Self {
        let model = Arc::new(model);
        LoadedModel { scorer: model.clone(), definitions: Some(model), next_words: None, continuations: None, kind }
    }

    fn causal(lm: CausalLm) -> Self {
        let lm = Arc::new(lm);
        LoadedModel { scorer: lm.clone(), definitions: Some(lm.clone()), next_words: Some(lm.clone()), continuations: Some(lm), kind: "causal" }
    }
}

/// Loads a causal LM from a `.gguf` file or a Llama Hugging Face directory, or a
/// masked LM (scored as `scoring` says) from a BERT-family Hugging Face directory.
pub fn load(path: &Path, device: &Device, scoring: MaskedScoring) -> Result<LoadedModel, ScorerError> {
    if !path.exists() {
        return Err(ScorerError::file(path, "no such file or directory"));
    }
    if path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf")) {
        return Ok(LoadedModel::causal(CausalLm::from_gguf(path, device)?));
    }
    if path.is_dir() && path.join("config.json").is_file() {
        let (config, _) = crate::hf::read_config(path)?;
        if config.get("model_type").and_then(serde_json::Value::as_str) == Some("llama") {
            return Ok(LoadedModel::causal(CausalLm::from_hf_dir(path, device)?));
        }
        return Ok(LoadedModel::of(MaskedLm::from_dir(path, device, scoring)?, "masked"));
    }
    Err(ScorerError::file(path, "not a model: expected a .gguf file or a directory with config.json"))
}

/// Loads a baseline: `unigram` or `bigram` (counted from the corpus file at `path`,
/// add-`k` smoothing) or `vectors` (a GloVe / word2vec text file, or a `.npy`
/// matrix with a sibling `.vocab` word list, at `path`).
pub fn load_baseline(kind: &str, path: &Path, k: f64) -> Result<LoadedModel, ScorerError> {
    let ngram = |order| -> Result<LoadedModel, ScorerError> {
        let kind = if order == 1 { "unigram" } else { "bigram" };
        Ok(LoadedModel { scorer: Arc::new(NgramLm::from_corpus(path, order, k)?), definitions: None, next_words: None, continuations: None, kind })
    };
    match kind {
        "unigram" => ngram(1),
        "bigram" => ngram(2),
        "vectors" => Ok(LoadedModel::of(StaticVectors::from_path(path)?, "static-vectors")),
        other => Err(ScorerError::Input(format!("unknown baseline {other:?} (unigram, bigram or vectors)"))),
    }
}
