//! A Llama-family decoder read from a GGUF file, with a forward pass that returns
//! the logits of every position (candle-transformers' quantized models return only
//! the last one, which suits generation but not sentence scoring).
//!
//! Conventions follow llama.cpp's GGUF layout: Q and K are stored for the
//! interleaved rotary embedding (pairs 2i, 2i+1), grouped-query attention shares
//! each K/V head among `n_head / n_kv_head` query heads, and a missing
//! `output.weight` means the output projection is tied to `token_embd.weight`.

use std::fs::File;
use std::path::Path;

use candle_core::quantized::{gguf_file, QMatMul, QTensor};
use candle_core::{DType, Device, Module, Tensor, D};

use crate::ScorerError;

struct Layer {
    attn_norm: Tensor,
    wq: QMatMul,
    wk: QMatMul,
    wv: QMatMul,
    wo: QMatMul,
    ffn_norm: Tensor,
    gate: QMatMul,
    up: QMatMul,
    down: QMatMul,
}

/// The decoder's weights and shape.
pub struct GgufLlama {
    embeddings: Tensor,
    layers: Vec<Layer>,
    norm: Tensor,
    output: QMatMul,
    n_head: usize,
    n_kv_head: usize,
    head_dim: usize,
    eps: f64,
    cos: Tensor,
    sin: Tensor,
    device: Device,
}

/// Reads the metadata and tensors of a GGUF file.
pub(crate) struct GgufFile {
    pub content: gguf_file::Content,
    file: File,
    path: std::path::PathBuf,
}

impl GgufFile {
    pub fn open(path: &Path) -> Result<Self, ScorerError> {
        let mut file = File::open(path).map_err(|e| ScorerError::file(path, e))?;
        let content = gguf_file::Content::read(&mut file)
            .map_err(|e| ScorerError::file(path, format!("not a readable GGUF file: {e}")))?;
        Ok(GgufFile { content, file, path: path.to_owned() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn meta(&self, key: &str) -> Result<&gguf_file::Value, ScorerError> {
        self.content
            .metadata
            .get(key)
            .ok_or_else(|| ScorerError::file(&self.path, format!("metadata {key} is missing")))
    }

    pub fn meta_u32(&self, key: &str) -> Result<usize, ScorerError> {
        let v = self.meta(key)?.to_u32().map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))?;
        usize::try_from(v).map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))
    }

    fn meta_f32(&self, key: &str) -> Result<f32, ScorerError> {
        self.meta(key)?.to_f32().map_err(|e| ScorerError::file(&self.path, format!("{key}: {e}")))
    }

    fn tensor(&mut self, name: &str, device: &Device) -> Result<QTensor, ScorerError> {
        self.content
            .tensor(&mut self.file, name, device)
            .map_err(|e| ScorerError::file(&self.path, format!("tensor {name}: {e}")))
    }

    fn has_tensor(&self, name: &str) -> bool {
        self.content.tensor_infos.contains_key(name)
    }

    /// A projection, dequantized to F32 once at load: scoring runs prompt-sized
    /// batches, where a dense F32 matrix product is several times faster on CPU
    /// than candle's quantized dot products (the weights are the same numbers; a
    /// 135M-parameter model then holds ~540 MB).
    fn matmul(&mut self, name: &str, device: &Device) -> Result<QMatMul, ScorerError> {
        Ok(QMatMul::Tensor(self.dense(name, device)?))
    }

    pub fn dense(&mut self, name: &str, device: &Device) -> Result<Tensor, ScorerError> {
        Ok(self.tensor(name, device)?.dequantize(device)?)
    }
}

impl GgufLlama {
    pub(crate) fn load(gguf: &mut GgufFile, device: &Device) -> Result<Self, ScorerError> {
        let arch = gguf
            .meta("general.architecture")?
            .to_string()
            .map_err(|e| ScorerError::file(gguf.path(), e))?
            .clone();
        if arch != "llama" {
            return Err(ScorerError::Architecture { path: gguf.path().to_owned(), arch, supported: "llama" });
        }
        let n_head = gguf.meta_u32("llama.attention.head_count")?;
        let n_kv_head = gguf.meta_u32("llama.attention.head_count_kv")?;
        let n_layer = gguf.meta_u32("llama.block_count")?;
        let dim = gguf.meta_u32("llama.embedding_length")?;
        let context = gguf.meta_u32("llama.context_length")?.min(MAX_POSITIONS);
        let eps = f64::from(gguf.meta_f32("llama.attention.layer_norm_rms_epsilon")?);
        let rope_base = gguf.meta_f32("llama.rope.freq_base").unwrap_or(10_000.0);
        if n_head == 0 || n_kv_head == 0 || n_head % n_kv_head != 0 || dim % n_head != 0 {
            return Err(ScorerError::file(gguf.path(), format!("inconsistent heads: {n_head} / {n_kv_head} for width {dim}")));
        }
        let head_dim = dim / n_head;
        let (cos, sin) = rope_tables(head_dim, context, rope_base, device)?;
        let embeddings = gguf.dense("token_embd.weight", device)?;
        let output_name = if gguf.has_tensor("output.weight") { "output.weight" } else { "token_embd.weight" };
        let output = gguf.matmul(output_name, device)?;
        let norm = gguf.dense("output_norm.weight", device)?;
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let p = format!("blk.{i}");
            layers.push(Layer {
                attn_norm: gguf.dense(&format!("{p}.attn_norm.weight"), device)?,
                wq: gguf.matmul(&format!("{p}.attn_q.weight"), device)?,
                wk: gguf.matmul(&format!("{p}.attn_k.weight"), device)?,
                wv: gguf.matmul(&format!("{p}.attn_v.weight"), device)?,
                wo: gguf.matmul(&format!("{p}.attn_output.weight"), device)?,
                ffn_norm: gguf.dense(&format!("{p}.ffn_norm.weight"), device)?,
                gate: gguf.matmul(&format!("{p}.ffn_gate.weight"), device)?,
                up: gguf.matmul(&format!("{p}.ffn_up.weight"), device)?,
                down: gguf.matmul(&format!("{p}.ffn_down.weight"), device)?,
            });
        }
        Ok(GgufLlama { embeddings, layers, norm, output, n_head, n_kv_head, head_dim, eps, cos, sin, device: device.clone() })
    }

    pub fn vocab_size(&self) -> usize {
        self.embeddings.dims()[0]
    }

    /// Longest sequence the position tables cover.
    pub fn max_positions(&self) -> usize {
        self.cos.dims()[0]
    }

    /// Log-probabilities of every vocabulary entry at every position: for token ids
    /// `[batch, seq]`, a `[batch, seq, vocab]` tensor where position t predicts
    /// token t + 1. Padding must come after the real tokens (the mask is causal).
    pub fn log_probs(&self, tokens: &Tensor) -> Result<Tensor, ScorerError> {
        let (batch, seq) = tokens.dims2()?;
        let mut x = self.embeddings.index_select(&tokens.flatten_all()?, 0)?.reshape((batch, seq, ()))?;
        let mask = causal_mask(seq, &self.device)?;
        let (cos, sin) = (self.cos.narrow(0, 0, seq)?, self.sin.narrow(0, 0, seq)?);
        for layer in &self.layers {
            let h = candle_nn::ops::rms_norm(&x, &layer.attn_norm, self.eps as f32)?;
            x = (x + self.attention(layer, &h, &mask, &cos, &sin)?)?;
            let h = candle_nn::ops::rms_norm(&x, &layer.ffn_norm, self.eps as f32)?;
            let mlp = layer.down.forward(&(candle_nn::ops::silu(&layer.gate.forward(&h)?)? * layer.up.forward(&h)?)?)?;
            x = (x + mlp)?;
        }
        let x = candle_nn::ops::rms_norm(&x, &self.norm, self.eps as f32)?;
        let logits = self.output.forward(&x)?;
        Ok(candle_nn::ops::log_softmax(&logits, D::Minus1)?)
    }

    fn attention(&self, layer: &Layer, x: &Tensor, mask: &Tensor, cos: &Tensor, sin: &Tensor) -> Result<Tensor, ScorerError> {
        let (batch, seq, dim) = x.dims3()?;
        let heads = |t: Tensor, n: usize| -> candle_core::Result<Tensor> {
            t.reshape((batch, seq, n, self.head_dim))?.transpose(1, 2)?.contiguous()
        };
        let q = heads(layer.wq.forward(x)?, self.n_head)?;
        let k = heads(layer.wk.forward(x)?, self.n_kv_head)?;
        let v = heads(layer.wv.forward(x)?, self.n_kv_head)?;
        let q = candle_nn::rotary_emb::rope_i(&q, cos, sin)?;
        let k = candle_nn::rotary_emb::rope_i(&k, cos, sin)?;
        let group = self.n_head / self.n_kv_head;
        let k = repeat_heads(&k, group)?;
        let v = repeat_heads(&v, group)?;
        let scores = (q.matmul(&k.t()?)? / (self.head_dim as f64).sqrt())?;
        let scores = scores.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let y = weights.matmul(&v)?.transpose(1, 2)?.reshape((batch, seq, dim))?;
        Ok(layer.wo.forward(&y)?)
    }
}

/// Positions covered by the rotary tables; longer inputs are refused.
const MAX_POSITIONS: usize = 2048;

/// cos/sin tables `[positions, head_dim / 2]` for the rotary embedding.
fn rope_tables(head_dim: usize, positions: usize, base: f32, device: &Device) -> Result<(Tensor, Tensor), ScorerError> {
    let inv_freq: Vec<f32> = (0..head_dim / 2)
        .map(|i| 1.0 / base.powf(2.0 * i as f32 / head_dim as f32))
        .collect();
    let inv_freq = Tensor::from_vec(inv_freq, (1, head_dim / 2), device)?;
    let t = Tensor::arange(0u32, positions as u32, device)?.to_dtype(DType::F32)?.reshape((positions, 1))?;
    let angles = t.matmul(&inv_freq)?;
    Ok((angles.cos()?, angles.sin()?))
}

/// 0 on and below the diagonal, -inf above: position t sees positions <= t.
fn causal_mask(seq: usize, device: &Device) -> Result<Tensor, ScorerError> {
    let mask: Vec<f32> = (0..seq)
        .flat_map(|i| (0..seq).map(move |j| if j > i { f32::NEG_INFINITY } else { 0.0 }))
        .collect();
    Ok(Tensor::from_vec(mask, (seq, seq), device)?)
}

/// `[b, kv_heads, t, d]` -> `[b, kv_heads * group, t, d]`, each head repeated `group` times.
fn repeat_heads(x: &Tensor, group: usize) -> candle_core::Result<Tensor> {
    if group == 1 {
        return Ok(x.clone());
    }
    let (b, h, t, d) = x.dims4()?;
    x.unsqueeze(2)?.expand((b, h, group, t, d))?.reshape((b, h * group, t, d))
}
