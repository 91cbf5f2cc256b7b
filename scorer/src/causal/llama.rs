//! A Llama-family decoder read from a GGUF file or a Hugging Face directory, with a
//! forward pass that returns the logits of every position (candle-transformers'
//! models return only the last one, which suits generation but not scoring).
//!
//! The two layouts differ in tensor names and in the rotary embedding: llama.cpp
//! stores Q and K permuted for the interleaved form (pairs 2i, 2i+1), Hugging Face
//! rotates the two halves of each head. In both, grouped-query attention shares each
//! K/V head among `n_head / n_kv_head` query heads, and a missing output projection
//! is tied to the token embeddings.

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
pub struct Llama {
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
    /// Rotary embedding on pairs (2i, 2i+1) (GGUF) or on the two halves of a head (HF).
    interleaved: bool,
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

    pub fn dense(&mut self, name: &str, device: &Device) -> Result<Tensor, ScorerError> {
        Ok(self.tensor(name, device)?.dequantize(device)?)
    }
}

/// The shape of a Llama decoder, read from GGUF metadata or a config.json.
pub(crate) struct Shape {
    pub n_head: usize,
    pub n_kv_head: usize,
    pub n_layer: usize,
    pub dim: usize,
    pub context: usize,
    pub eps: f64,
    pub rope_base: f32,
}

/// Where each tensor lives in the two layouts.
#[derive(Clone, Copy)]
pub(crate) enum Layout {
    /// llama.cpp's names; Q and K rows permuted for the interleaved rotary embedding.
    Gguf,
    /// Hugging Face's names; rotary embedding on the two halves of each head.
    HuggingFace,
}

impl Layout {
    fn name(self, part: &str, layer: usize) -> String {
        let (gguf, hf) = match part {
            "embed" => return self.top("token_embd.weight", "model.embed_tokens.weight"),
            "attn_norm" => ("attn_norm", "input_layernorm"),
            "q" => ("attn_q", "self_attn.q_proj"),
            "k" => ("attn_k", "self_attn.k_proj"),
            "v" => ("attn_v", "self_attn.v_proj"),
            "o" => ("attn_output", "self_attn.o_proj"),
            "ffn_norm" => ("ffn_norm", "post_attention_layernorm"),
            "gate" => ("ffn_gate", "mlp.gate_proj"),
            "up" => ("ffn_up", "mlp.up_proj"),
            _ => ("ffn_down", "mlp.down_proj"),
        };
        match self {
            Layout::Gguf => format!("blk.{layer}.{gguf}.weight"),
            Layout::HuggingFace => format!("model.layers.{layer}.{hf}.weight"),
        }
    }

    fn top(self, gguf: &str, hf: &str) -> String {
        match self {
            Layout::Gguf => gguf.to_owned(),
            Layout::HuggingFace => hf.to_owned(),
        }
    }
}

impl Llama {
    pub(crate) fn load(gguf: &mut GgufFile, device: &Device) -> Result<Self, ScorerError> {
        let arch = gguf
            .meta("general.architecture")?
            .to_string()
            .map_err(|e| ScorerError::file(gguf.path(), e))?
            .clone();
        if arch != "llama" {
            return Err(ScorerError::Architecture { path: gguf.path().to_owned(), arch, supported: "llama" });
        }
        let shape = Shape {
            n_head: gguf.meta_u32("llama.attention.head_count")?,
            n_kv_head: gguf.meta_u32("llama.attention.head_count_kv")?,
            n_layer: gguf.meta_u32("llama.block_count")?,
            dim: gguf.meta_u32("llama.embedding_length")?,
            context: gguf.meta_u32("llama.context_length")?,
            eps: f64::from(gguf.meta_f32("llama.attention.layer_norm_rms_epsilon")?),
            rope_base: gguf.meta_f32("llama.rope.freq_base").unwrap_or(10_000.0),
        };
        let path = gguf.path().to_owned();
        let has_output = gguf.has_tensor("output.weight");
        Self::assemble(&shape, Layout::Gguf, has_output, &path, &mut |name| gguf.dense(name, device), device)
    }

    /// Builds the decoder from dense tensors fetched by name (`get`), in either layout.
    /// A missing output projection is tied to the token embeddings.
    pub(crate) fn assemble(
        shape: &Shape,
        layout: Layout,
        has_output: bool,
        path: &Path,
        get: &mut dyn FnMut(&str) -> Result<Tensor, ScorerError>,
        device: &Device,
    ) -> Result<Self, ScorerError> {
        let Shape { n_head, n_kv_head, n_layer, dim, .. } = *shape;
        if n_head == 0 || n_kv_head == 0 || n_head % n_kv_head != 0 || dim % n_head != 0 {
            return Err(ScorerError::file(path, format!("inconsistent heads: {n_head} / {n_kv_head} for width {dim}")));
        }
        let head_dim = dim / n_head;
        let (cos, sin) = rope_tables(head_dim, shape.context.min(MAX_POSITIONS), shape.rope_base, device)?;
        let embeddings = get(&layout.name("embed", 0))?;
        let output = if has_output { get(&layout.top("output.weight", "lm_head.weight"))? } else { embeddings.clone() };
        let norm = get(&layout.top("output_norm.weight", "model.norm.weight"))?;
        // Dense F32 projections (GGUF weights are dequantized once): scoring runs prompt-sized batches, where a dense
        // matrix product is several times faster on CPU than candle's quantized dot
        // products (the weights are the same numbers; 135M parameters take ~540 MB).
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let mut t = |part: &str| get(&layout.name(part, i));
            layers.push(Layer {
                attn_norm: t("attn_norm")?,
                wq: QMatMul::Tensor(t("q")?),
                wk: QMatMul::Tensor(t("k")?),
                wv: QMatMul::Tensor(t("v")?),
                wo: QMatMul::Tensor(t("o")?),
                ffn_norm: t("ffn_norm")?,
                gate: QMatMul::Tensor(t("gate")?),
                up: QMatMul::Tensor(t("up")?),
                down: QMatMul::Tensor(t("down")?),
            });
        }
        let interleaved = matches!(layout, Layout::Gguf);
        Ok(Llama {
            embeddings,
            layers,
            norm,
            output: QMatMul::Tensor(output),
            n_head,
            n_kv_head,
            head_dim,
            eps: shape.eps,
            cos,
            sin,
            interleaved,
            device: device.clone(),
        })
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
        let rope = if self.interleaved { candle_nn::rotary_emb::rope_i } else { candle_nn::rotary_emb::rope };
        let q = rope(&q, cos, sin)?;
        let k = rope(&k, cos, sin)?;
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
