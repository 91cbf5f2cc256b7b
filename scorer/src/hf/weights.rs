//! A checkpoint's tensors: `model.safetensors`, `pytorch_model.bin`, or either one
//! split in shards with its `.index.json`, read to the floating type the run computes
//! in ([`Precision`]).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use crate::{Precision, ScorerError};

/// The checkpoint's tensors by name, with the folder they came from for errors.
pub(crate) struct Weights {
    tensors: HashMap<String, Tensor>,
    dir: PathBuf,
    dtype: DType,
}

/// The checkpoint files of `dir`, in the order they are looked for.
fn checkpoint_files(dir: &Path) -> Result<Vec<PathBuf>, ScorerError> {
    for single in ["model.safetensors", "pytorch_model.bin"] {
        if dir.join(single).is_file() {
            return Ok(vec![dir.join(single)]);
        }
    }
    for index in ["model.safetensors.index.json", "pytorch_model.bin.index.json"] {
        let path = dir.join(index);
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| ScorerError::file(&path, e))?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| ScorerError::file(&path, format!("not valid JSON: {e}")))?;
        let shards: BTreeSet<&str> = json
            .get("weight_map")
            .and_then(serde_json::Value::as_object)
            .ok_or_else(|| ScorerError::file(&path, "no weight_map"))?
            .values()
            .filter_map(serde_json::Value::as_str)
            .collect();
        let files: Vec<PathBuf> = shards.into_iter().map(|s| dir.join(s)).collect();
        if let Some(missing) = files.iter().find(|f| !f.is_file()) {
            return Err(ScorerError::file(missing, "a shard named by the index is missing"));
        }
        return Ok(files);
    }
    Err(ScorerError::file(dir, "no weights: expected model.safetensors, pytorch_model.bin, or a sharded checkpoint with its .index.json"))
}

fn read(file: &Path, device: &Device) -> Result<Vec<(String, Tensor)>, ScorerError> {
    if file.extension().is_some_and(|e| e == "safetensors") {
        let t = candle_core::safetensors::load(file, device)
            .map_err(|e| ScorerError::file(file, format!("not a readable safetensors file: {e}")))?;
        Ok(t.into_iter().collect())
    } else {
        candle_core::pickle::read_all(file).map_err(|e| ScorerError::file(file, format!("not a readable PyTorch checkpoint: {e}")))
    }
}

impl Weights {
    /// Reads every tensor of the checkpoint of `dir` onto `device`, in the type
    /// `precision` picks for the floating type most of its numbers ship in (norms and
    /// buffers are often kept in f32 beside bf16 matrices); old LayerNorm names
    /// (`gamma`, `beta`) become `weight`, `bias`.
    pub(crate) fn open(dir: &Path, device: &Device, precision: Precision) -> Result<Self, ScorerError> {
        let mut read_all = Vec::new();
        for file in checkpoint_files(dir)? {
            read_all.extend(read(&file, device)?.into_iter().map(|(name, t)| (file.clone(), name, t)));
        }
        let mut numbers: Vec<(DType, usize)> = Vec::new();
        for (_, _, t) in read_all.iter().filter(|(_, _, t)| t.dtype().is_float()) {
            match numbers.iter_mut().find(|(d, _)| *d == t.dtype()) {
                Some((_, n)) => *n += t.elem_count(),
                None => numbers.push((t.dtype(), t.elem_count())),
            }
        }
        let shipped = numbers.iter().max_by_key(|(_, n)| *n).map_or(DType::F32, |(d, _)| *d);
        let dtype = precision.dtype(device, shipped);
        let mut tensors = HashMap::new();
        for (file, name, t) in read_all {
            let name = name.replace(".gamma", ".weight").replace(".beta", ".bias");
            let t = t.to_dtype(dtype).and_then(|t| t.to_device(device)).map_err(|e| ScorerError::file(&file, e))?;
            tensors.insert(name, t);
        }
        Ok(Weights { tensors, dir: dir.to_owned(), dtype })
    }

    /// The floating type the tensors were read to.
    pub(crate) fn dtype(&self) -> DType {
        self.dtype
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.tensors.contains_key(name)
    }

    /// Whether any tensor name starts with `prefix`.
    pub(crate) fn any_under(&self, prefix: &str) -> bool {
        self.tensors.keys().any(|k| k.starts_with(prefix))
    }

    pub(crate) fn get(&self, name: &str) -> Result<Tensor, ScorerError> {
        self.tensors.get(name).cloned().ok_or_else(|| ScorerError::file(&self.dir, format!("tensor {name} is missing")))
    }

    /// Removes and returns `name` if the checkpoint has it.
    pub(crate) fn take_optional(&mut self, name: &str) -> Option<Tensor> {
        self.tensors.remove(name)
    }

    /// Removes and returns `name`: a layer that keeps a transformed copy lets the
    /// original go, so that loading needs little more than the model's own memory.
    pub(crate) fn take(&mut self, name: &str) -> Result<Tensor, ScorerError> {
        self.tensors.remove(name).ok_or_else(|| ScorerError::file(&self.dir, format!("tensor {name} is missing")))
    }

    /// The first of `names` present: checkpoints spell some tensors two ways, and
    /// often omit the decoder weight tied to the word embeddings.
    pub(crate) fn first(&self, names: &[&str]) -> Result<Tensor, ScorerError> {
        names
            .iter()
            .find_map(|n| self.tensors.get(*n).cloned())
            .ok_or_else(|| ScorerError::file(&self.dir, format!("none of the tensors {} is present", names.join(", "))))
    }
}
