//! A decoder-only transformer with a forward pass that returns the logits of every
//! position (candle-transformers' models return only the last one, which suits
//! generation but not scoring). Two families:
//!
//! - Llama (SmolLM2 and the like), from a GGUF file or a Hugging Face directory. The two
//!   layouts differ in tensor names and in the rotary embedding: llama.cpp stores Q and K
//!   permuted for the interleaved form (pairs 2i, 2i+1), Hugging Face rotates the two
//!   halves of each head.
//! - Gemma 3, from a GGUF file, computed as llama.cpp's `gemma3` graph: embeddings scaled
//!   by sqrt(width); Q and K RMS-normed per head; RMS norms after the attention and MLP
//!   blocks as well as before; a tanh-GELU gate; rotary on halves; five of every six
//!   layers attend to a sliding window with their own rotary base. (llama.cpp's converter
//!   has already added Gemma's +1 to the norm weights, so they are used as stored.)
//!
//! In both, grouped-query attention shares each K/V head among `n_head / n_kv_head`
//! query heads, and a missing output projection is tied to the token embeddings.

use std::path::Path;

use candle_core::quantized::QMatMul;
use candle_core::{DType, Device, Module, Tensor, D};

use super::gguf::GgufFile;
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
    gemma: Option<GemmaNorms>,
    /// Attends to a sliding window, with the local rotary tables (Gemma 3).
    local: bool,
}

/// The norms Gemma 3 adds to a Llama layer.
struct GemmaNorms {
    q: Tensor,
    k: Tensor,
    post_attn: Tensor,
    post_ffn: Tensor,
}

/// cos/sin tables of a rotary embedding, `[positions, head_dim / 2]` each.
struct Rope {
    cos: Tensor,
    sin: Tensor,
}

/// The decoder's weights and shape.
pub struct Decoder {
    embeddings: Tensor,
    /// Gemma multiplies the embeddings by sqrt(width).
    embed_scale: Option<f64>,
    layers: Vec<Layer>,
    norm: Tensor,
    output: QMatMul,
    n_head: usize,
    n_kv_head: usize,
    head_dim: usize,
    eps: f64,
    /// Multiplies Q K^T: 1 / sqrt(head_dim), except in Gemma 3 27B (see [`Decoder::assemble`]).
    attn_scale: f64,
    global_rope: Rope,
    /// Rotary tables and window of the sliding-window layers (Gemma 3).
    local: Option<(Rope, usize)>,
    /// Rotary embedding on pairs (2i, 2i+1) (Llama GGUF) or on the two halves of a head.
    interleaved: bool,
    gelu: bool,
    device: Device,
}

/// Which decoder, with what sets it apart from the others.
#[derive(Clone, Copy)]
pub(crate) enum Family {
    Llama,
    Gemma3 {
        /// Positions a sliding-window layer sees: itself and the `window - 1` before it.
        window: usize,
        local_rope_base: f32,
        /// Every `global_every`-th layer attends to all positions.
        global_every: usize,
    },
}

/// The shape of a decoder, read from GGUF metadata or a config.json.
pub(crate) struct Shape {
    pub family: Family,
    pub n_head: usize,
    pub n_kv_head: usize,
    pub n_layer: usize,
    pub dim: usize,
    /// Width of one attention head (Gemma's heads are wider than dim / n_head).
    pub head_dim: usize,
    pub context: usize,
    pub eps: f64,
    pub rope_base: f32,
}

impl Shape {
    /// Reads the shape of a `llama` or `gemma3` GGUF file; other architectures are refused.
    fn from_gguf(gguf: &GgufFile) -> Result<Self, ScorerError> {
        let arch = gguf.meta_str("general.architecture")?.to_owned();
        let family = match arch.as_str() {
            "llama" => Family::Llama,
            // llama.cpp's fixed Gemma 3 settings: 1 global layer in 6, local rotary base 10,000
            "gemma3" => Family::Gemma3 {
                window: gguf.meta_u32("gemma3.attention.sliding_window")?,
                local_rope_base: 10_000.0,
                global_every: 6,
            },
            _ => return Err(ScorerError::Architecture { path: gguf.path().to_owned(), arch, supported: "llama, gemma3" }),
        };
        let key = |k: &str| format!("{arch}.{k}");
        let n_head = gguf.meta_u32(&key("attention.head_count"))?;
        let dim = gguf.meta_u32(&key("embedding_length"))?;
        Ok(Shape {
            family,
            n_head,
            n_kv_head: gguf.meta_u32(&key("attention.head_count_kv"))?,
            n_layer: gguf.meta_u32(&key("block_count"))?,
            dim,
            head_dim: gguf.meta_u32(&key("attention.key_length")).unwrap_or(dim / n_head.max(1)),
            context: gguf.meta_u32(&key("context_length"))?,
            eps: f64::from(gguf.meta_f32(&key("attention.layer_norm_rms_epsilon"))?),
            rope_base: gguf.meta_f32(&key("rope.freq_base")).unwrap_or(10_000.0),
        })
    }
}

/// Where each tensor lives in the two layouts.
#[derive(Clone, Copy)]
pub(crate) enum Layout {
    /// llama.cpp's names; Llama's Q and K rows permuted for the interleaved rotary embedding.
    Gguf,
    /// Hugging Face's Llama names; rotary embedding on the two halves of each head.
    HuggingFace,
}

impl Layout {
    /// The name of one weight of layer `layer`. Gemma's extra norms have GGUF names
    /// only: Gemma 3 is read from GGUF files (see [`Decoder::assemble`]).
    fn name(self, part: &str, layer: usize) -> String {
        let (gguf, hf) = match part {
            "attn_norm" => ("attn_norm", "input_layernorm"),
            "q" => ("attn_q", "self_attn.q_proj"),
            "k" => ("attn_k", "self_attn.k_proj"),
            "v" => ("attn_v", "self_attn.v_proj"),
            "o" => ("attn_output", "self_attn.o_proj"),
            "ffn_norm" => ("ffn_norm", "post_attention_layernorm"),
            "gate" => ("ffn_gate", "mlp.gate_proj"),
            "up" => ("ffn_up", "mlp.up_proj"),
            "down" => ("ffn_down", "mlp.down_proj"),
            gguf_only => (gguf_only, gguf_only),
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

impl Decoder {
    pub(crate) fn load(gguf: &mut GgufFile, device: &Device) -> Result<Self, ScorerError> {
        let shape = Shape::from_gguf(gguf)?;
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
        let Shape { family, n_head, n_kv_head, n_layer, dim, head_dim, .. } = *shape;
        if n_head == 0 || n_kv_head == 0 || n_head % n_kv_head != 0 || head_dim == 0 || head_dim % 2 != 0 {
            return Err(ScorerError::file(path, format!("inconsistent heads: {n_head} / {n_kv_head} of width {head_dim}")));
        }
        if matches!((family, layout), (Family::Gemma3 { .. }, Layout::HuggingFace)) {
            return Err(ScorerError::file(path, "Gemma 3 is read from GGUF files only"));
        }
        let positions = shape.context.min(MAX_POSITIONS);
        let global_rope = Rope::new(head_dim, positions, shape.rope_base, device)?;
        let embeddings = get(&layout.top("token_embd.weight", "model.embed_tokens.weight"))?;
        let output = if has_output { get(&layout.top("output.weight", "lm_head.weight"))? } else { embeddings.clone() };
        let norm = get(&layout.top("output_norm.weight", "model.norm.weight"))?;
        // Dense F32 projections (GGUF weights are dequantized once): scoring runs prompt-sized
        // batches, where a dense matrix product is several times faster on CPU than candle's
        // quantized dot products (the weights are the same numbers).
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let mut t = |part: &str| get(&layout.name(part, i));
            let (gemma, local) = match family {
                Family::Llama => (None, false),
                Family::Gemma3 { global_every, .. } => {
                    let norms = GemmaNorms {
                        q: t("attn_q_norm")?,
                        k: t("attn_k_norm")?,
                        post_attn: t("post_attention_norm")?,
                        post_ffn: t("post_ffw_norm")?,
                    };
                    (Some(norms), (i + 1) % global_every != 0)
                }
            };
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
                gemma,
                local,
            });
        }
        // llama.cpp (after gemma_pytorch) scales Gemma 3 27B's (62 layers) queries by the
        // width per head rather than by the head size
        let attn_scale = match family {
            Family::Gemma3 { .. } if n_layer == 62 => 1.0 / ((dim / n_head) as f64).sqrt(),
            _ => 1.0 / (head_dim as f64).sqrt(),
        };
        let (embed_scale, local, gelu) = match family {
            Family::Llama => (None, None, false),
            Family::Gemma3 { window, local_rope_base, .. } => {
                (Some((dim as f64).sqrt()), Some((Rope::new(head_dim, positions, local_rope_base, device)?, window)), true)
            }
        };
        Ok(Decoder {
            embeddings,
            embed_scale,
            layers,
            norm,
            output: QMatMul::Tensor(output),
            n_head,
            n_kv_head,
            head_dim,
            eps: shape.eps,
            attn_scale,
            global_rope,
            local,
            interleaved: matches!((family, layout), (Family::Llama, Layout::Gguf)),
            gelu,
            device: device.clone(),
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.embeddings.dims()[0]
    }

    /// Longest sequence the position tables cover.
    pub fn max_positions(&self) -> usize {
        self.global_rope.cos.dims()[0]
    }

    /// Log-probabilities of every vocabulary entry at every position: for token ids
    /// `[batch, seq]`, a `[batch, seq, vocab]` tensor where position t predicts
    /// token t + 1. Padding must come after the real tokens (the mask is causal).
    pub fn log_probs(&self, tokens: &Tensor) -> Result<Tensor, ScorerError> {
        let (batch, seq) = tokens.dims2()?;
        let mut x = self.embeddings.index_select(&tokens.flatten_all()?, 0)?.reshape((batch, seq, ()))?;
        if let Some(scale) = self.embed_scale {
            x = (x * scale)?;
        }
        let global = (causal_mask(seq, None, &self.device)?, self.global_rope.narrow(seq)?);
        let local = match &self.local {
            Some((rope, window)) => Some((causal_mask(seq, Some(*window), &self.device)?, rope.narrow(seq)?)),
            None => None,
        };
        let rms = |x: &Tensor, w: &Tensor| candle_nn::ops::rms_norm(x, w, self.eps as f32);
        for layer in &self.layers {
            let (mask, rope) = match (&local, layer.local) {
                (Some(local), true) => local,
                _ => &global,
            };
            let mut a = self.attention(layer, &rms(&x, &layer.attn_norm)?, mask, rope)?;
            if let Some(g) = &layer.gemma {
                a = rms(&a, &g.post_attn)?;
            }
            x = (x + a)?;
            let h = rms(&x, &layer.ffn_norm)?;
            let gate = layer.gate.forward(&h)?;
            let gate = if self.gelu { gate.gelu()? } else { candle_nn::ops::silu(&gate)? };
            let mut m = layer.down.forward(&(gate * layer.up.forward(&h)?)?)?;
            if let Some(g) = &layer.gemma {
                m = rms(&m, &g.post_ffn)?;
            }
            x = (x + m)?;
        }
        let logits = self.output.forward(&rms(&x, &self.norm)?)?;
        Ok(candle_nn::ops::log_softmax(&logits, D::Minus1)?)
    }

    fn attention(&self, layer: &Layer, x: &Tensor, mask: &Tensor, rope: &Rope) -> Result<Tensor, ScorerError> {
        let (batch, seq, _) = x.dims3()?;
        let heads = |t: Tensor, n: usize| -> candle_core::Result<Tensor> {
            t.reshape((batch, seq, n, self.head_dim))?.transpose(1, 2)?.contiguous()
        };
        let mut q = heads(layer.wq.forward(x)?, self.n_head)?;
        let mut k = heads(layer.wk.forward(x)?, self.n_kv_head)?;
        let v = heads(layer.wv.forward(x)?, self.n_kv_head)?;
        if let Some(g) = &layer.gemma {
            q = candle_nn::ops::rms_norm(&q, &g.q, self.eps as f32)?;
            k = candle_nn::ops::rms_norm(&k, &g.k, self.eps as f32)?;
        }
        let rotate = if self.interleaved { candle_nn::rotary_emb::rope_i } else { candle_nn::rotary_emb::rope };
        let q = rotate(&q, &rope.cos, &rope.sin)?;
        let k = rotate(&k, &rope.cos, &rope.sin)?;
        let group = self.n_head / self.n_kv_head;
        let k = repeat_heads(&k, group)?;
        let v = repeat_heads(&v, group)?;
        let scores = (q.matmul(&k.t()?)? * self.attn_scale)?;
        let scores = scores.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let y = weights.matmul(&v)?.transpose(1, 2)?.reshape((batch, seq, self.n_head * self.head_dim))?;
        Ok(layer.wo.forward(&y)?)
    }
}

/// Positions covered by the rotary tables; longer inputs are refused.
const MAX_POSITIONS: usize = 2048;

impl Rope {
    fn new(head_dim: usize, positions: usize, base: f32, device: &Device) -> Result<Self, ScorerError> {
        let inv_freq: Vec<f32> = (0..head_dim / 2)
            .map(|i| 1.0 / base.powf(2.0 * i as f32 / head_dim as f32))
            .collect();
        let inv_freq = Tensor::from_vec(inv_freq, (1, head_dim / 2), device)?;
        let t = Tensor::arange(0u32, positions as u32, device)?.to_dtype(DType::F32)?.reshape((positions, 1))?;
        let angles = t.matmul(&inv_freq)?;
        Ok(Rope { cos: angles.cos()?, sin: angles.sin()? })
    }

    /// The tables of the first `seq` positions.
    fn narrow(&self, seq: usize) -> candle_core::Result<Rope> {
        Ok(Rope { cos: self.cos.narrow(0, 0, seq)?, sin: self.sin.narrow(0, 0, seq)? })
    }
}

/// 0 where position i may see position j, -inf elsewhere: j <= i, and with a sliding
/// `window`, also i - j < window.
fn causal_mask(seq: usize, window: Option<usize>, device: &Device) -> Result<Tensor, ScorerError> {
    let window = window.unwrap_or(usize::MAX);
    let mask: Vec<f32> = (0..seq)
        .flat_map(|i| (0..seq).map(move |j| if j > i || i - j >= window { f32::NEG_INFINITY } else { 0.0 }))
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
