//! Writes a full-precision (F32) copy of a quantized GGUF file. Scoring the copy
//! removes quantization noise, which is what lets the forward pass be checked against
//! llama.cpp to 1e-3 (on quantized weights, llama.cpp's own settings move a token's
//! log-probability by a few tenths).

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use candle_core::quantized::{gguf_file, GgmlDType, QTensor};
use candle_core::{DType, Device};

use super::gguf::GgufFile;
use crate::ScorerError;

/// Dequantizes every tensor of `src` to F32 and writes the result, with the same
/// metadata, to `dst`. Tensors and metadata are written in name order, so the output
/// is the same bytes every time.
pub fn write_full_precision(src: &Path, dst: &Path) -> Result<(), ScorerError> {
    let mut gguf = GgufFile::open(src)?;
    let mut names: Vec<String> = gguf.content.tensor_infos.keys().cloned().collect();
    names.sort_unstable();
    let tensors = names
        .iter()
        .map(|name| {
            let dense = gguf.dense(name, &Device::Cpu, DType::F32)?;
            Ok((name.as_str(), QTensor::quantize(&dense, GgmlDType::F32)?))
        })
        .collect::<Result<Vec<(&str, QTensor)>, ScorerError>>()?;
    let mut keys: Vec<&String> = gguf.content.metadata.keys().collect();
    keys.sort_unstable();
    let metadata: Vec<(&str, &gguf_file::Value)> = keys.iter().map(|k| (k.as_str(), &gguf.content.metadata[k.as_str()])).collect();
    let refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (*n, t)).collect();
    let mut out = BufWriter::new(File::create(dst).map_err(|e| ScorerError::file(dst, e))?);
    gguf_file::write(&mut out, &metadata, &refs).map_err(|e| ScorerError::file(dst, e))?;
    Ok(())
}
