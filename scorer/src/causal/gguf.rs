//! Reads the metadata and tensors of a GGUF file, with errors that name the file.

use std::fs::File;
use std::path::Path;

use candle_core::quantized::{gguf_file, QTensor};
use candle_core::{DType, Device, Tensor};

use crate::ScorerError;

/// Reads the metadata and tensors of a GGUF file.
pub(crate) struct GgufFile {
    pub content: gguf_file::Content,
    file: File,
    path: std::path::PathBuf,
}

impl GgufFile {
    pub fn open(path: &Path) -> Result<Self, ScorerError> {
        let mut file = File::open(path).map_err(|e| ScorerError::file(path, e))?;
        let content = gguf_file::Content::read(&mut file).map_err(|e| ScorerError::file(path, format!("not a readable GGUF file: {e}")))?;
        Ok(GgufFile { content, file, path: path.to_owned() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn meta(&self, key: &str) -> Result<&gguf_file::Value, ScorerError> {
        self.content.metadata.get(key).ok_or_else(|| ScorerError::file(&self.path, format!("metadata {key} is missing")))
    }

    pub fn meta_str(&self, key: &str) -> Result<&str, ScorerError> {
        self.meta(key)?.to_string().map(String::as_str).map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))
    }

    pub fn meta_u32(&self, key: &str) -> Result<usize, ScorerError> {
        let v = self.meta(key)?.to_u32().map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))?;
        usize::try_from(v).map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))
    }

    pub fn meta_f32(&self, key: &str) -> Result<f32, ScorerError> {
        self.meta(key)?.to_f32().map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))
    }

    fn tensor(&mut self, name: &str, device: &Device) -> Result<QTensor, ScorerError> {
        self.content.tensor(&mut self.file, name, device).map_err(|e| ScorerError::file(&self.path, format!("tensor {name}: {e}")))
    }

    pub fn has_tensor(&self, name: &str) -> bool {
        self.content.tensor_infos.contains_key(name)
    }

    /// The tensor `name` dequantized on the CPU (the same numbers whatever the
    /// device), as `dtype` on `device`.
    pub fn dense(&mut self, name: &str, device: &Device, dtype: DType) -> Result<Tensor, ScorerError> {
        Ok(self.tensor(name, &Device::Cpu)?.dequantize(&Device::Cpu)?.to_dtype(dtype)?.to_device(device)?)
    }
}
