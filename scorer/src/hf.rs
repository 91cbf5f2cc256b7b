//! Reading Hugging Face model directories: config.json and the checkpoint.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use serde_json::Value;

use crate::ScorerError;

/// The parsed config.json of `dir`, and its path for errors.
pub(crate) fn read_config(dir: &Path) -> Result<(Value, PathBuf), ScorerError> {
    let path = dir.join("config.json");
    let text = std::fs::read_to_string(&path).map_err(|e| ScorerError::file(&path, e))?;
    let config = serde_json::from_str(&text).map_err(|e| ScorerError::file(&path, format!("not valid JSON: {e}")))?;
    Ok((config, path))
}

/// The first of `names` that config.json holds as a non-negative integer.
pub(crate) fn field(config: &Value, path: &Path, names: &[&str]) -> Result<usize, ScorerError> {
    names
        .iter()
        .find_map(|n| config.get(*n).and_then(Value::as_u64))
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| ScorerError::file(path, format!("{} is missing or not a number", names[0])))
}

/// The checkpoint's tensors by name, with the file they came from for errors.
pub(crate) struct Weights {
    pub(crate) tensors: HashMap<String, Tensor>,
    file: PathBuf,
}

impl Weights {
    /// `model.safetensors`, else `pytorch_model.bin`; old LayerNorm names (`gamma`,
    /// `beta`) become `weight`, `bias`.
    pub(crate) fn open(dir: &Path, device: &Device) -> Result<Self, ScorerError> {
        let safetensors = dir.join("model.safetensors");
        let pickle = dir.join("pytorch_model.bin");
        let (file, raw): (PathBuf, Vec<(String, Tensor)>) = if safetensors.is_file() {
            let t = candle_core::safetensors::load(&safetensors, device)
                .map_err(|e| ScorerError::file(&safetensors, format!("not a readable safetensors file: {e}")))?;
            (safetensors, t.into_iter().collect())
        } else if pickle.is_file() {
            let t = candle_core::pickle::read_all(&pickle)
                .map_err(|e| ScorerError::file(&pickle, format!("not a readable PyTorch checkpoint: {e}")))?;
            (pickle, t)
        } else {
            return Err(ScorerError::file(dir, "no model.safetensors or pytorch_model.bin"));
        };
        let mut tensors = HashMap::with_capacity(raw.len());
        for (name, t) in raw {
            let name = name.replace(".gamma", ".weight").replace(".beta", ".bias");
            let t = t.to_dtype(DType::F32).and_then(|t| t.to_device(device)).map_err(|e| ScorerError::file(&file, e))?;
            tensors.insert(name, t);
        }
        Ok(Weights { tensors, file })
    }

    pub(crate) fn get(&self, name: &str) -> Result<Tensor, ScorerError> {
        self.tensors.get(name).cloned().ok_or_else(|| ScorerError::file(&self.file, format!("tensor {name} is missing")))
    }

    /// The first of `names` present: checkpoints spell some tensors two ways, and
    /// often omit the decoder weight tied to the word embeddings.
    pub(crate) fn first(&self, names: &[&str]) -> Result<Tensor, ScorerError> {
        names.iter().find_map(|n| self.tensors.get(*n).cloned()).ok_or_else(|| {
            ScorerError::file(&self.file, format!("none of the tensors {} is present", names.join(", ")))
        })
    }

}
