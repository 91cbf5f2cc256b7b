//! Opening a model by path or Hub id: the kind is told by what the path holds.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use candle_core::Device;

use crate::baseline::{NgramLm, StaticVectors};
use crate::causal::CausalLm;
use crate::convention::Conventions;
use crate::define::DefinitionScorer;
use crate::guess::NextPieceModel;
use crate::hf::{hub, Config, ModelKind};
use crate::masked::MaskedLm;
use crate::new_words::partial::ContinuationScorer;
use crate::{ContextScorer, ScorerError};

/// A model ready to play, what kind of model it is, and the convention its scores
/// follow (both stored with its scores).
pub struct LoadedModel {
    pub scorer: Arc<dyn ContextScorer>,
    /// The same model playing the word-definition tasks; `None` for n-gram baselines.
    pub definitions: Option<Arc<dyn DefinitionScorer>>,
    /// The same model guessing next words; causal LMs only.
    pub next_words: Option<Arc<dyn NextPieceModel>>,
    /// The same model scoring continuations (WinoDict's partial scoring); causal LMs only.
    pub continuations: Option<Arc<dyn ContinuationScorer>>,
    pub kind: &'static str,
    /// How its scores are made, every choice named (see [`crate::convention`]).
    pub convention: String,
}

impl LoadedModel {
    fn of<M: ContextScorer + DefinitionScorer + 'static>(model: M, kind: &'static str, convention: String) -> Self {
        let model = Arc::new(model);
        LoadedModel { scorer: model.clone(), definitions: Some(model), next_words: None, continuations: None, kind, convention }
    }

    fn causal(lm: CausalLm) -> Self {
        let convention = lm.convention();
        let lm = Arc::new(lm);
        LoadedModel {
            scorer: lm.clone(),
            definitions: Some(lm.clone()),
            next_words: Some(lm.clone()),
            continuations: Some(lm),
            kind: "causal",
            convention,
        }
    }
}

/// Where the model `spec` names lives: the path itself when it exists, else the
/// directory of the Hub model of that id (see [`hub`]).
pub fn locate(spec: &str) -> Result<PathBuf, ScorerError> {
    let path = PathBuf::from(spec);
    if path.exists() || !hub::is_model_id(spec) {
        return Ok(path);
    }
    hub::resolve(spec)
}

/// The device `spec` names: `cpu`, `cuda` (the first GPU) or `cuda:N`. A GPU is
/// refused by name when this build has no CUDA (the `cuda` feature) or the GPU cannot
/// be opened.
pub fn device(spec: &str) -> Result<Device, ScorerError> {
    let unknown = || ScorerError::Input(format!("unknown device {spec:?}: cpu, cuda or cuda:N"));
    match spec.strip_prefix("cuda") {
        _ if spec == "cpu" => Ok(Device::Cpu),
        Some("") => cuda(0),
        Some(n) => cuda(n.strip_prefix(':').and_then(|n| n.parse().ok()).ok_or_else(unknown)?),
        None => Err(unknown()),
    }
}

#[cfg(feature = "cuda")]
fn cuda(ordinal: usize) -> Result<Device, ScorerError> {
    Device::new_cuda(ordinal).map_err(|e| ScorerError::Input(format!("CUDA GPU {ordinal} cannot be opened: {e}")))
}

#[cfg(not(feature = "cuda"))]
fn cuda(_: usize) -> Result<Device, ScorerError> {
    Err(ScorerError::Input("this build has no CUDA: build with scripts/cuda.sh build (the `cuda` feature) to score on a GPU".into()))
}

/// Loads a causal LM from a `.gguf` file or a Hugging Face directory of a causal
/// family, or a masked LM from a directory of a BERT-family model; `conventions`
/// says how each is to score.
pub fn load(path: &Path, device: &Device, conventions: &Conventions) -> Result<LoadedModel, ScorerError> {
    if !path.exists() {
        return Err(ScorerError::file(path, "no such file or directory"));
    }
    if path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf")) {
        return Ok(LoadedModel::causal(CausalLm::from_gguf(path, device, conventions)?));
    }
    if path.is_dir() && path.join("config.json").is_file() {
        return match Config::read(path)?.kind {
            ModelKind::Causal => Ok(LoadedModel::causal(CausalLm::from_hf_dir(path, device, conventions)?)),
            ModelKind::Masked => {
                let lm = MaskedLm::load(path, device, conventions)?;
                let convention = lm.convention();
                Ok(LoadedModel::of(lm, "masked", convention))
            }
        };
    }
    Err(ScorerError::file(path, "not a model: expected a .gguf file or a directory with config.json"))
}

/// Loads a baseline: `unigram` or `bigram` (counted from the corpus file at `path`,
/// add-`k` smoothing) or `vectors` (a GloVe / word2vec text file, or a `.npy`
/// matrix with a sibling `.vocab` word list, at `path`).
pub fn load_baseline(kind: &str, path: &Path, k: f64) -> Result<LoadedModel, ScorerError> {
    let ngram = |order| -> Result<LoadedModel, ScorerError> {
        let kind = if order == 1 { "unigram" } else { "bigram" };
        Ok(LoadedModel {
            scorer: Arc::new(NgramLm::from_corpus(path, order, k)?),
            definitions: None,
            next_words: None,
            continuations: None,
            kind,
            convention: format!(
                "{kind} language model: sentence log-prob with add-{k} smoothing, the context's own sentence left out of the counts"
            ),
        })
    };
    match kind {
        "unigram" => ngram(1),
        "bigram" => ngram(2),
        "vectors" => Ok(LoadedModel::of(
            StaticVectors::from_path(path)?,
            "static-vectors",
            "static vectors: cosine of the word's vector with the mean vector of the other words".into(),
        )),
        other => Err(ScorerError::Input(format!("unknown baseline {other:?} (unigram, bigram or vectors)"))),
    }
}
