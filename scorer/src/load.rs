//! Opening a model by path: the kind is told by what the path holds.

use std::path::Path;
use std::sync::Arc;

use candle_core::Device;

use crate::causal::CausalLm;
use crate::masked::{MaskedLm, MaskedScoring};
use crate::{ContextScorer, ScorerError};

/// A model ready to play, and what kind of model it is (stored with its scores).
pub struct LoadedModel {
    pub scorer: Arc<dyn ContextScorer>,
    pub kind: &'static str,
}

/// Loads a causal LM from a `.gguf` file, or a masked LM (scored as `scoring` says)
/// from a Hugging Face model directory.
pub fn load(path: &Path, device: &Device, scoring: MaskedScoring) -> Result<LoadedModel, ScorerError> {
    if !path.exists() {
        return Err(ScorerError::file(path, "no such file or directory"));
    }
    if path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf")) {
        let lm = CausalLm::from_gguf(path, device)?;
        return Ok(LoadedModel { scorer: Arc::new(lm), kind: "causal" });
    }
    if path.is_dir() && path.join("config.json").is_file() {
        let lm = MaskedLm::from_dir(path, device, scoring)?;
        return Ok(LoadedModel { scorer: Arc::new(lm), kind: "masked" });
    }
    Err(ScorerError::file(path, "not a model: expected a .gguf file or a directory with config.json"))
}
