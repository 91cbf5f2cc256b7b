//! A decoder-only transformer whose forward pass returns every position, for every
//! family [`Architecture`] describes, from a Hugging Face checkpoint or a GGUF file.
//!
//! candle-transformers' causal models were read first and not used: each `forward`
//! returns the logits of the last position only (what generation needs), keeps a KV
//! cache behind `&mut self`, and runs padded batches, whose padding changes the
//! rounding of the other rows. Here sentences run packed end to end, each token
//! attending to its own sentence only ([`attention`]), so a sentence scores the same
//! numbers alone or in any batch, and memory grows with the tokens of a batch, not
//! with its longest sentence times its rows.
//!
//! GGUF Llama files store Q and K permuted for llama.cpp's interleaved rotary
//! embedding; they are permuted back at load, so every family rotates the two halves
//! of each head as Hugging Face does.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::LayerNorm;

use super::architecture::{Activation, Architecture};
use super::gguf::GgufFile;
use super::rope::RopeTables;
use crate::hf::{Config, Weights};
use crate::ops::attention::{attention, Heads, Seen};
use crate::ops::Linear;
use crate::{Precision, ScorerError};

/// Positions covered by the rotary tables when a model takes more: longer inputs are
/// refused (a game sentence is far shorter).
const MAX_POSITIONS: usize = 8192;

/// Output-head rows computed at once: their logits take rows x vocabulary floats, so
/// the chunk shrinks as the vocabulary grows (about 64 MiB each).
fn head_rows(vocab: usize) -> usize {
    ((16 << 20) / vocab.max(1)).max(1)
}

/// A norm's weights: RMS (weight only) or LayerNorm (weight and bias).
enum NormWeights {
    Rms(Tensor),
    Layer(LayerNorm),
}

impl NormWeights {
    fn forward(&self, x: &Tensor, eps: f64) -> candle_core::Result<Tensor> {
        match self {
            NormWeights::Rms(w) => candle_nn::ops::rms_norm(x, w, eps as f32),
            NormWeights::Layer(n) => n.forward(x),
        }
    }
}

enum Mlp {
    Gated { gate: Linear, up: Linear, down: Linear },
    Plain { up: Linear, down: Linear },
}

struct Layer {
    attn_norm: NormWeights,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    q_norm: Option<Tensor>,
    k_norm: Option<Tensor>,
    post_attn_norm: Option<NormWeights>,
    ffn_norm: NormWeights,
    post_ffn_norm: Option<NormWeights>,
    mlp: Mlp,
}

/// The decoder's weights and shape.
pub struct Decoder {
    arch: Architecture,
    embeddings: Tensor,
    positions: Option<Tensor>,
    layers: Vec<Layer>,
    norm: NormWeights,
    /// `[vocab, dim]`; used through a transposed view, never copied (it can be the
    /// embeddings themselves).
    output: Tensor,
    global: RopeTables,
    local: Option<RopeTables>,
    device: Device,
}

/// llama.cpp's Q/K row order (pairs 2i, 2i+1 of each head) back to Hugging Face's
/// (halves of each head).
fn unpermute(w: &Tensor, heads: usize) -> candle_core::Result<Tensor> {
    let (rows, cols) = w.dims2()?;
    w.reshape((heads, rows / heads / 2, 2, cols))?.transpose(1, 2)?.contiguous()?.reshape((rows, cols))
}

impl Decoder {
    /// Builds the decoder of a Hugging Face checkpoint.
    pub(crate) fn from_hf(config: &Config, dir: &Path, device: &Device, precision: Precision) -> Result<Self, ScorerError> {
        let arch = Architecture::from_hf(config)?;
        let mut w = Weights::open(dir, device, precision)?;
        let dtype = w.dtype();
        let parts = if arch.learned_positions { gpt2(&arch, &mut w)? } else { rotary(&arch, &mut w, config)? };
        Self::assemble(arch, parts, device, dtype)
    }

    /// Builds the decoder of a `llama` or `gemma3` GGUF file (its quantized weights
    /// compute in f32 unless `precision` names a type).
    pub(crate) fn from_gguf(gguf: &mut GgufFile, device: &Device, precision: Precision) -> Result<Self, ScorerError> {
        let arch = Architecture::from_gguf(gguf)?;
        let llama = arch.family == "llama";
        let dtype = precision.dtype(device, DType::F32);
        let embeddings = gguf.dense("token_embd.weight", device, dtype)?;
        let output = if arch.tied { embeddings.clone() } else { gguf.dense("output.weight", device, dtype)? };
        let mut layers = Vec::with_capacity(arch.layers.len());
        for i in 0..arch.layers.len() {
            let name = |part: &str| format!("blk.{i}.{part}.weight");
            let mut t = |part: &str| gguf.dense(&name(part), device, dtype);
            let (q, k) = (t("attn_q")?, t("attn_k")?);
            let (q, k) = if llama { (unpermute(&q, arch.n_head)?, unpermute(&k, arch.n_kv_head)?) } else { (q, k) };
            let linear = |w: Tensor| Linear::new(&w, None);
            let mut opt =
                |part: &str| if gguf.has_tensor(&name(part)) { gguf.dense(&name(part), device, dtype).map(Some) } else { Ok(None) };
            let (q_norm, k_norm) = (opt("attn_q_norm")?, opt("attn_k_norm")?);
            let (post_attn, post_ffn) = (opt("post_attention_norm")?, opt("post_ffw_norm")?);
            let mut t = |part: &str| gguf.dense(&name(part), device, dtype);
            layers.push(Layer {
                attn_norm: NormWeights::Rms(t("attn_norm")?),
                q: linear(q)?,
                k: linear(k)?,
                v: linear(t("attn_v")?)?,
                o: linear(t("attn_output")?)?,
                q_norm,
                k_norm,
                post_attn_norm: post_attn.map(NormWeights::Rms),
                ffn_norm: NormWeights::Rms(t("ffn_norm")?),
                post_ffn_norm: post_ffn.map(NormWeights::Rms),
                mlp: Mlp::Gated { gate: linear(t("ffn_gate")?)?, up: linear(t("ffn_up")?)?, down: linear(t("ffn_down")?)? },
            });
        }
        let norm = NormWeights::Rms(gguf.dense("output_norm.weight", device, dtype)?);
        Self::assemble(arch, Parts { embeddings, positions: None, layers, norm, output }, device, dtype)
    }

    fn assemble(arch: Architecture, parts: Parts, device: &Device, dtype: DType) -> Result<Self, ScorerError> {
        let (n_head, n_kv) = (arch.n_head, arch.n_kv_head);
        if n_head == 0 || n_kv == 0 || n_head % n_kv != 0 || arch.head_dim == 0 || !arch.head_dim.is_multiple_of(2) {
            return Err(ScorerError::Input(format!("{}: inconsistent heads: {n_head} / {n_kv} of width {}", arch.family, arch.head_dim)));
        }
        let positions = arch.context.min(MAX_POSITIONS);
        let global = arch.rope.tables(positions, device, dtype)?;
        let local = arch.local_rope.as_ref().map(|r| r.tables(positions, device, dtype)).transpose()?;
        Ok(Decoder {
            embeddings: parts.embeddings,
            positions: parts.positions,
            layers: parts.layers,
            norm: parts.norm,
            output: parts.output,
            global,
            local,
            device: device.clone(),
            arch,
        })
    }

    /// The floating type the decoder computes in.
    pub fn dtype(&self) -> DType {
        self.embeddings.dtype()
    }

    pub fn vocab_size(&self) -> usize {
        self.output.dims()[0]
    }

    /// Longest sequence the model takes here (its context, at most [`MAX_POSITIONS`],
    /// and for length-dependent rope scaling the length its frequencies hold for).
    pub fn max_positions(&self) -> usize {
        let rope_limit = [&self.arch.rope].into_iter().chain(&self.arch.local_rope).filter_map(|r| r.valid_up_to).min();
        self.global.cos.dims()[0].min(rope_limit.unwrap_or(usize::MAX))
    }

    pub(crate) fn device(&self) -> &Device {
        &self.device
    }

    /// The final hidden states `[tokens, dim]` of `rows` packed end to end: row r's
    /// token t at index `starts[r] + t`.
    pub fn hidden(&self, rows: &[&[u32]]) -> Result<Tensor, ScorerError> {
        let segments: Vec<Segment<'_>> = rows.iter().map(|&ids| Segment { ids, after: None }).collect();
        self.hidden_of(&segments)
    }

    /// The final hidden states `[tokens, dim]` of `segments` packed end to end, each
    /// read after the segment it continues: a token's numbers are those it has when
    /// its whole row (the beginning, then its segment) is packed alone.
    pub fn hidden_of(&self, segments: &[Segment<'_>]) -> Result<Tensor, ScorerError> {
        let layout = Layout::of(segments)?;
        let (mut ids, mut pos) = (Vec::new(), Vec::new());
        for (segment, &offset) in segments.iter().zip(&layout.offsets) {
            let length = offset + segment.ids.len();
            if length > self.max_positions() {
                return Err(ScorerError::Input(format!("{length} tokens, more than the {} the model takes", self.max_positions())));
            }
            ids.extend_from_slice(segment.ids);
            pos.extend(offset as u32..length as u32);
        }
        let ids_t = Tensor::new(ids.as_slice(), &self.device)?;
        let pos_t = Tensor::new(pos.as_slice(), &self.device)?;
        let mut x = self.embeddings.index_select(&ids_t, 0)?;
        if self.arch.embed_scale {
            x = (x * (self.arch.dim as f64).sqrt())?;
        }
        if let Some(table) = &self.positions {
            x = (x + table.index_select(&pos_t, 0)?)?;
        }
        let tables = |t: &RopeTables| -> candle_core::Result<(Tensor, Tensor)> {
            Ok((t.cos.index_select(&pos_t, 0)?, t.sin.index_select(&pos_t, 0)?))
        };
        let global = tables(&self.global)?;
        let local = self.local.as_ref().map(tables).transpose()?;
        let mut keys: HashMap<Option<usize>, Vec<Seen>> = HashMap::new();
        for (layer, kind) in self.layers.iter().zip(&self.arch.layers) {
            let rope = match (&local, kind.local_rope) {
                (Some(l), true) => l,
                _ => &global,
            };
            let seen = keys.entry(kind.window).or_insert_with(|| layout.visible(segments, kind.window));
            x = self.layer(layer, &x, rope, seen)?;
        }
        Ok(self.norm(&self.norm, &x)?)
    }

    fn norm(&self, w: &NormWeights, x: &Tensor) -> candle_core::Result<Tensor> {
        w.forward(x, self.arch.eps)
    }

    fn layer(&self, l: &Layer, x: &Tensor, (cos, sin): &(Tensor, Tensor), keys: &[Seen]) -> Result<Tensor, ScorerError> {
        let a = &self.arch;
        let tokens = x.dim(0)?;
        let h = self.norm(&l.attn_norm, x)?;
        let project = |lin: &Linear, norm: &Option<Tensor>, heads: usize| -> candle_core::Result<Tensor> {
            let mut t = lin.forward(&h)?;
            if let Some(w) = norm {
                t = candle_nn::ops::rms_norm(&t.reshape((tokens, heads, a.head_dim))?, w, a.eps as f32)?;
            }
            if a.learned_positions {
                return Ok(t);
            }
            let t = t.reshape((1, tokens, heads, a.head_dim))?.contiguous()?;
            candle_nn::rotary_emb::rope_thd(&t, cos, sin)?.reshape((tokens, heads * a.head_dim))
        };
        let q = project(&l.q, &l.q_norm, a.n_head)?;
        let k = project(&l.k, &l.k_norm, a.n_kv_head)?;
        let v = l.v.forward(&h)?.contiguous()?;
        let heads = Heads { query: a.n_head, kv: a.n_kv_head, dim: a.head_dim, scale: a.attn_scale, softcap: a.attn_softcap };
        let mut attended = l.o.forward(&attention(&q, &k, &v, heads, keys)?)?;
        if let Some(n) = &l.post_attn_norm {
            attended = self.norm(n, &attended)?;
        }
        let x = (x + attended)?;
        let h = self.norm(&l.ffn_norm, &x)?;
        let mut m = match &l.mlp {
            Mlp::Gated { gate, up, down } => down.forward(&(activate(a.activation, &gate.forward(&h)?)? * up.forward(&h)?)?)?,
            Mlp::Plain { up, down } => down.forward(&activate(a.activation, &up.forward(&h)?)?)?,
        };
        if let Some(n) = &l.post_ffn_norm {
            m = self.norm(n, &m)?;
        }
        Ok((x + m)?)
    }

    /// Log-probabilities over the vocabulary `[n, vocab]` from final hidden states
    /// `[n, dim]`, in f32 whatever type the model computes in.
    pub fn log_probs(&self, hidden: &Tensor) -> Result<Tensor, ScorerError> {
        let mut logits = hidden.matmul(&self.output.t()?)?.to_dtype(DType::F32)?;
        if let Some(cap) = self.arch.final_softcap {
            logits = ((logits / f64::from(cap))?.tanh()? * f64::from(cap))?;
        }
        Ok(candle_nn::ops::log_softmax(&logits, D::Minus1)?)
    }

    /// log p(token) at each (index into `hidden`, token), with the output head run on a
    /// bounded number of rows at a time.
    pub fn token_log_probs(&self, hidden: &Tensor, at: &[(usize, u32)]) -> Result<Vec<f32>, ScorerError> {
        let mut out = Vec::with_capacity(at.len());
        for chunk in at.chunks(head_rows(self.vocab_size())) {
            let tokens: Vec<u32> = chunk.iter().map(|&(_, t)| t).collect();
            let log_probs = self.log_probs_at(hidden, chunk.iter().map(|&(i, _)| i))?;
            let wanted = Tensor::new(tokens.as_slice(), &self.device)?.unsqueeze(1)?;
            out.extend(log_probs.gather(&wanted, 1)?.squeeze(1)?.to_vec1::<f32>()?);
        }
        Ok(out)
    }

    /// log of the probability mass `mask` (1 for the tokens counted, 0 for the others)
    /// holds at each index into `hidden`, with the output head run on a bounded
    /// number of rows at a time.
    pub fn masked_log_mass(&self, hidden: &Tensor, at: &[usize], mask: &Tensor) -> Result<Vec<f32>, ScorerError> {
        // log-sum-exp over the marked tokens, from their largest log-probability, so
        // that a mass too small for f32's exp() stays a finite log
        let off = ((mask.ones_like()? - mask)? * -1e30)?;
        let mut out = Vec::with_capacity(at.len());
        for chunk in at.chunks(head_rows(self.vocab_size())) {
            let marked = self.log_probs_at(hidden, chunk.iter().copied())?.broadcast_add(&off)?;
            let top = marked.max_keepdim(1)?;
            let sum = marked.broadcast_sub(&top)?.exp()?.sum_keepdim(1)?.log()?;
            out.extend((sum + top)?.squeeze(1)?.to_vec1::<f32>()?);
        }
        Ok(out)
    }

    /// The output head's log-probabilities at these indices into `hidden`.
    fn log_probs_at(&self, hidden: &Tensor, at: impl Iterator<Item = usize>) -> Result<Tensor, ScorerError> {
        let rows: Vec<u32> = at.map(|i| i as u32).collect();
        self.log_probs(&hidden.index_select(&Tensor::new(rows.as_slice(), &self.device)?, 0)?)
    }
}

/// What [`Decoder::assemble`] puts together.
struct Parts {
    embeddings: Tensor,
    positions: Option<Tensor>,
    layers: Vec<Layer>,
    norm: NormWeights,
    output: Tensor,
}

/// One row of a packed batch: its tokens, and the earlier segment of the same batch
/// that it continues, if any (a beginning several rows share, run once: its tokens
/// come before this segment's, which is numbered on from its end).
#[derive(Clone, Copy, Debug)]
pub struct Segment<'a> {
    pub ids: &'a [u32],
    pub after: Option<usize>,
}

/// Where the segments of a packed batch lie.
struct Layout {
    /// The index of each segment's first token.
    starts: Vec<usize>,
    /// Each segment's first position in its row: the length of what it continues.
    offsets: Vec<usize>,
}

impl Layout {
    /// Refuses a segment that continues a later one or a continued one.
    fn of(segments: &[Segment<'_>]) -> Result<Layout, ScorerError> {
        let (mut starts, mut offsets, mut at) = (Vec::with_capacity(segments.len()), Vec::with_capacity(segments.len()), 0);
        for (i, segment) in segments.iter().enumerate() {
            let offset = match segment.after {
                None => 0,
                Some(b) if b < i && segments[b].after.is_none() => segments[b].ids.len(),
                Some(b) => return Err(ScorerError::Input(format!("packed segment {i} cannot continue segment {b}"))),
            };
            starts.push(at);
            offsets.push(offset);
            at += segment.ids.len();
        }
        Ok(Layout { starts, offsets })
    }

    /// For each packed token, the tokens it sees: those of its row up to itself (the
    /// beginning it continues, then its own segment's), the last `window` of them with
    /// a sliding window.
    fn visible(&self, segments: &[Segment<'_>], window: Option<usize>) -> Vec<Seen> {
        let window = window.unwrap_or(usize::MAX).max(1);
        let mut seen = Vec::new();
        for (i, segment) in segments.iter().enumerate() {
            let (start, offset) = (self.starts[i], self.offsets[i]);
            let before = segment.after.map_or(0, |b| self.starts[b]);
            for t in 0..segment.ids.len() {
                // the row's positions first..=offset + t are seen
                let first = (offset + t).saturating_sub(window - 1);
                seen.push(Seen {
                    before: before + first.min(offset)..before + offset,
                    own: start + first.saturating_sub(offset)..start + t + 1,
                });
            }
        }
        seen
    }
}

fn activate(act: Activation, x: &Tensor) -> candle_core::Result<Tensor> {
    match act {
        Activation::Silu => candle_nn::ops::silu(x),
        Activation::GeluTanh => x.gelu(),
        Activation::GeluErf => x.gelu_erf(),
        Activation::Relu => x.relu(),
    }
}

/// The dense layer `name` (its `.weight`, and its `.bias` where the checkpoint has one).
fn linear(w: &mut Weights, name: &str) -> Result<Linear, ScorerError> {
    let weight = w.take(&format!("{name}.weight"))?;
    Ok(Linear::new(&weight, w.take_optional(&format!("{name}.bias")))?)
}

/// The RMS norm `name` as the family applies it: `1 + w` for Gemma.
fn rms(arch: &Architecture, w: &mut Weights, name: &str) -> Result<Tensor, ScorerError> {
    let weight = w.take(&format!("{name}.weight"))?;
    Ok(if arch.norm_plus_one { (weight + 1.0)? } else { weight })
}

/// The families with rotary positions, in Hugging Face layout.
fn rotary(arch: &Architecture, w: &mut Weights, config: &Config) -> Result<Parts, ScorerError> {
    // a multimodal Gemma 3 keeps its language model under a prefix of its own
    let base = ["model.", "language_model.model.", "model.language_model."]
        .into_iter()
        .find(|p| w.contains(&format!("{p}embed_tokens.weight")))
        .ok_or_else(|| config.error("the checkpoint has no embed_tokens.weight"))?;
    let embeddings = w.take(&format!("{base}embed_tokens.weight"))?;
    let output = match (arch.tied, w.take_optional("lm_head.weight")) {
        (true, _) => embeddings.clone(),
        (false, Some(head)) => head,
        (false, None) => return Err(config.error("tie_word_embeddings is false but the checkpoint has no lm_head.weight")),
    };
    let fused = arch.family == "phi3";
    let mut layers = Vec::with_capacity(arch.layers.len());
    for i in 0..arch.layers.len() {
        let p = format!("{base}layers.{i}.");
        let (q, k, v) = if fused {
            let qkv = w.take(&format!("{p}self_attn.qkv_proj.weight"))?;
            let (nq, nkv) = (arch.n_head * arch.head_dim, arch.n_kv_head * arch.head_dim);
            let part = |from: usize, rows: usize| Linear::new(&qkv.narrow(0, from, rows)?, None);
            (part(0, nq)?, part(nq, nkv)?, part(nq + nkv, nkv)?)
        } else {
            let attn = |w: &mut Weights, x: &str| linear(w, &format!("{p}self_attn.{x}_proj"));
            (attn(w, "q")?, attn(w, "k")?, attn(w, "v")?)
        };
        let o = linear(w, &format!("{p}self_attn.o_proj"))?;
        let down = linear(w, &format!("{p}mlp.down_proj"))?;
        let mlp = if fused {
            let gate_up = w.take(&format!("{p}mlp.gate_up_proj.weight"))?;
            let half = gate_up.dim(0)? / 2;
            Mlp::Gated {
                gate: Linear::new(&gate_up.narrow(0, 0, half)?, None)?,
                up: Linear::new(&gate_up.narrow(0, half, half)?, None)?,
                down,
            }
        } else {
            Mlp::Gated { gate: linear(w, &format!("{p}mlp.gate_proj"))?, up: linear(w, &format!("{p}mlp.up_proj"))?, down }
        };
        let norm = |w: &mut Weights, name: &str| rms(arch, w, &format!("{p}{name}")).map(NormWeights::Rms);
        let attn_norm = norm(w, "input_layernorm")?;
        // Gemma 2 and 3 name their norms after what they follow; the others' norm
        // "post_attention_layernorm" is the one before the MLP
        let (post_attn_norm, ffn_norm, post_ffn_norm) = if arch.sandwich_norms {
            (
                Some(norm(w, "post_attention_layernorm")?),
                norm(w, "pre_feedforward_layernorm")?,
                Some(norm(w, "post_feedforward_layernorm")?),
            )
        } else {
            (None, norm(w, "post_attention_layernorm")?, None)
        };
        let (q_norm, k_norm) = if arch.qk_norm {
            (Some(rms(arch, w, &format!("{p}self_attn.q_norm"))?), Some(rms(arch, w, &format!("{p}self_attn.k_norm"))?))
        } else {
            (None, None)
        };
        layers.push(Layer { attn_norm, q, k, v, o, q_norm, k_norm, post_attn_norm, ffn_norm, post_ffn_norm, mlp });
    }
    let norm = NormWeights::Rms(rms(arch, w, &format!("{base}norm"))?);
    Ok(Parts { embeddings, positions: None, layers, norm, output })
}

/// GPT-2: Conv1D weights stored `[in, out]`, q, k and v in one matrix; tensor names
/// with or without the `transformer.` prefix (the original checkpoints have none).
fn gpt2(arch: &Architecture, w: &mut Weights) -> Result<Parts, ScorerError> {
    let base = if w.contains("transformer.wte.weight") { "transformer." } else { "" };
    let embeddings = w.take(&format!("{base}wte.weight"))?;
    let positions = Some(w.take(&format!("{base}wpe.weight"))?);
    let output = if arch.tied { embeddings.clone() } else { w.take("lm_head.weight")? };
    let norm = |w: &mut Weights, name: &str| -> Result<NormWeights, ScorerError> {
        Ok(NormWeights::Layer(LayerNorm::new(w.take(&format!("{name}.weight"))?, w.take(&format!("{name}.bias"))?, arch.eps)))
    };
    let conv = |w: &mut Weights, name: &str| -> Result<Linear, ScorerError> {
        Ok(Linear::transposed(w.take(&format!("{name}.weight"))?, Some(w.take(&format!("{name}.bias"))?))?)
    };
    let mut layers = Vec::with_capacity(arch.layers.len());
    for i in 0..arch.layers.len() {
        let p = format!("{base}h.{i}.");
        let qkv_w = w.take(&format!("{p}attn.c_attn.weight"))?;
        let qkv_b = w.take(&format!("{p}attn.c_attn.bias"))?;
        let part = |j: usize| -> candle_core::Result<Linear> {
            Linear::transposed(qkv_w.narrow(1, j * arch.dim, arch.dim)?, Some(qkv_b.narrow(0, j * arch.dim, arch.dim)?))
        };
        layers.push(Layer {
            attn_norm: norm(w, &format!("{p}ln_1"))?,
            q: part(0)?,
            k: part(1)?,
            v: part(2)?,
            o: conv(w, &format!("{p}attn.c_proj"))?,
            q_norm: None,
            k_norm: None,
            post_attn_norm: None,
            ffn_norm: norm(w, &format!("{p}ln_2"))?,
            post_ffn_norm: None,
            mlp: Mlp::Plain { up: conv(w, &format!("{p}mlp.c_fc"))?, down: conv(w, &format!("{p}mlp.c_proj"))? },
        });
    }
    let norm = norm(w, &format!("{base}ln_f"))?;
    Ok(Parts { embeddings, positions, layers, norm, output })
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    fn seen(segments: &[Segment<'_>], window: Option<usize>) -> Vec<(Range<usize>, Range<usize>)> {
        let layout = Layout::of(segments).expect("layout");
        layout.visible(segments, window).into_iter().map(|s| (s.before, s.own)).collect()
    }

    #[test]
    fn tokens_see_their_own_row_up_to_themselves() {
        let rows = [Segment { ids: &[1, 2, 3], after: None }, Segment { ids: &[4, 5], after: None }];
        assert_eq!(seen(&rows, None), [0..1, 0..2, 0..3, 3..4, 3..5].map(|r| (0..0, r)));
        assert_eq!(seen(&rows, Some(2)), [0..1, 0..2, 1..3, 3..4, 3..5].map(|r| (0..0, r)));
    }

    /// Rows that continue a shared beginning see it first, as far back as a window
    /// reaches; a beginning must come first and continue nothing itself.
    #[test]
    fn continuing_rows_see_their_beginning_first() {
        let rows =
            [Segment { ids: &[1, 2, 3], after: None }, Segment { ids: &[4, 5], after: Some(0) }, Segment { ids: &[6], after: Some(0) }];
        let start = [(0..0, 0..1), (0..0, 0..2), (0..0, 0..3)];
        assert_eq!(seen(&rows, None), [&start[..], &[(0..3, 3..4), (0..3, 3..5), (0..3, 5..6)]].concat());
        let windowed = [(0..0, 0..1), (0..0, 0..2), (0..0, 1..3), (2..3, 3..4), (3..3, 3..5), (2..3, 5..6)];
        assert_eq!(seen(&rows, Some(2)), windowed);
        let layout = Layout::of(&rows).expect("layout");
        assert_eq!((layout.starts, layout.offsets), (vec![0, 3, 5], vec![0, 3, 3]));
        assert!(Layout::of(&[Segment { ids: &[1], after: Some(0) }]).is_err(), "itself");
        assert!(Layout::of(&[rows[0], rows[1], Segment { ids: &[7], after: Some(1) }]).is_err(), "a continued row");
    }

    /// Permuting a head's rows into pairs and back gives the rows again.
    #[test]
    fn unpermute_undoes_llama_cpps_order() -> candle_core::Result<()> {
        let (heads, head_dim, cols) = (2, 4, 3);
        let hf = Tensor::arange(0f32, (heads * head_dim * cols) as f32, &Device::Cpu)?.reshape((heads * head_dim, cols))?;
        // llama.cpp's converter: reshape(heads, 2, head_dim / 2, cols).swapaxes(1, 2)
        let gguf = hf.reshape((heads, 2, head_dim / 2, cols))?.transpose(1, 2)?.contiguous()?.reshape((heads * head_dim, cols))?;
        assert_eq!(unpermute(&gguf, heads)?.to_vec2::<f32>()?, hf.to_vec2::<f32>()?);
        Ok(())
    }
}
