//! The BERT-family encoder (BERT, RoBERTa / XLM-R / CamemBERT, DistilBERT) read
//! from a Hugging Face checkpoint, with its masked-LM head.
//!
//! One implementation for the three families, written here rather than taken from
//! candle-transformers 0.11.1, whose DistilBERT applies the tanh approximation of
//! GELU where Hugging Face applies the exact one, and whose XLM-R head drops the
//! output bias — both would move scores away from the reference. All three are
//! post-LayerNorm transformers and differ only in tensor names, position ids and
//! the token-type embedding.

use std::path::Path;

use candle_core::{Device, Module, Tensor, D};
use candle_nn::LayerNorm;
use serde_json::Value;

use crate::hf::{field, read_config, Weights};
use crate::ScorerError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Bert,
    Roberta,
    DistilBert,
}

#[derive(Clone, Copy, Debug)]
enum Activation {
    Gelu,
    GeluTanh,
    Relu,
}

impl Activation {
    fn apply(self, x: &Tensor) -> candle_core::Result<Tensor> {
        match self {
            Activation::Gelu => x.gelu_erf(),
            Activation::GeluTanh => x.gelu(),
            Activation::Relu => x.relu(),
        }
    }
}

/// A dense layer stored as `[in, out]` (transposed once at load), so that its
/// product with `[rows, in]` activations is a single contiguous matrix product.
struct Linear {
    weight_t: Tensor,
    bias: Tensor,
}

impl Linear {
    fn new(weight: Tensor, bias: Tensor) -> candle_core::Result<Self> {
        Ok(Linear { weight_t: weight.t()?.contiguous()?, bias })
    }

    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        x.matmul(&self.weight_t)?.broadcast_add(&self.bias)
    }
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attn_out: Linear,
    attn_norm: LayerNorm,
    ffn_in: Linear,
    ffn_out: Linear,
    ffn_norm: LayerNorm,
}

/// Encoder and masked-LM head.
pub struct Encoder {
    family: Family,
    word: Tensor,
    position: Tensor,
    token_type: Option<Tensor>,
    embed_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    act: Activation,
    head_dense: Linear,
    head_norm: LayerNorm,
    decoder: Linear,
    pub pad_id: u32,
    max_positions: usize,
    device: Device,
}

impl Weights {
    fn linear(&self, prefix: &str) -> Result<Linear, ScorerError> {
        Ok(Linear::new(self.get(&format!("{prefix}.weight"))?, self.get(&format!("{prefix}.bias"))?)?)
    }

    fn norm(&self, prefix: &str, eps: f64) -> Result<LayerNorm, ScorerError> {
        Ok(LayerNorm::new(self.get(&format!("{prefix}.weight"))?, self.get(&format!("{prefix}.bias"))?, eps))
    }
}

impl Encoder {
    /// Loads `config.json` and the weights of a Hugging Face model directory.
    pub fn load(dir: &Path, device: &Device) -> Result<Self, ScorerError> {
        let (config, config_path) = read_config(dir)?;
        let model_type = config.get("model_type").and_then(Value::as_str).unwrap_or_default().to_owned();
        let family = match model_type.as_str() {
            "bert" => Family::Bert,
            "roberta" | "xlm-roberta" | "camembert" => Family::Roberta,
            "distilbert" => Family::DistilBert,
            _ => {
                return Err(ScorerError::Architecture {
                    path: config_path,
                    arch: model_type,
                    supported: "bert, distilbert, roberta, xlm-roberta, camembert",
                })
            }
        };
        let distil = family == Family::DistilBert;
        let hidden = field(&config, &config_path, &["hidden_size", "dim"])?;
        let n_layers = field(&config, &config_path, &["num_hidden_layers", "n_layers"])?;
        let heads = field(&config, &config_path, &["num_attention_heads", "n_heads"])?;
        if heads == 0 || hidden % heads != 0 {
            return Err(ScorerError::file(&config_path, format!("{heads} heads do not divide width {hidden}")));
        }
        let act_name = config.get(if distil { "activation" } else { "hidden_act" }).and_then(Value::as_str).unwrap_or("gelu");
        let act = match act_name {
            "gelu" => Activation::Gelu,
            "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Activation::GeluTanh,
            "relu" => Activation::Relu,
            other => return Err(ScorerError::file(&config_path, format!("unsupported activation {other:?}"))),
        };
        let eps = if distil { 1e-12 } else { config.get("layer_norm_eps").and_then(Value::as_f64).unwrap_or(1e-12) };
        let pad_id = u32::try_from(field(&config, &config_path, &["pad_token_id"]).unwrap_or(0))
            .map_err(|e| ScorerError::file(&config_path, e))?;

        let w = Weights::open(dir, device)?;
        let base = match family {
            Family::Bert => "bert",
            Family::Roberta => "roberta",
            Family::DistilBert => "distilbert",
        };
        let emb = format!("{base}.embeddings");
        let word = w.get(&format!("{emb}.word_embeddings.weight"))?;
        let position = w.get(&format!("{emb}.position_embeddings.weight"))?;
        let token_type = if distil { None } else { Some(w.get(&format!("{emb}.token_type_embeddings.weight"))?) };
        let embed_norm = w.norm(&format!("{emb}.LayerNorm"), eps)?;
        let mut layers = Vec::with_capacity(n_layers);
        for i in 0..n_layers {
            layers.push(if distil {
                let p = format!("distilbert.transformer.layer.{i}");
                Layer {
                    query: w.linear(&format!("{p}.attention.q_lin"))?,
                    key: w.linear(&format!("{p}.attention.k_lin"))?,
                    value: w.linear(&format!("{p}.attention.v_lin"))?,
                    attn_out: w.linear(&format!("{p}.attention.out_lin"))?,
                    attn_norm: w.norm(&format!("{p}.sa_layer_norm"), eps)?,
                    ffn_in: w.linear(&format!("{p}.ffn.lin1"))?,
                    ffn_out: w.linear(&format!("{p}.ffn.lin2"))?,
                    ffn_norm: w.norm(&format!("{p}.output_layer_norm"), eps)?,
                }
            } else {
                let p = format!("{base}.encoder.layer.{i}");
                Layer {
                    query: w.linear(&format!("{p}.attention.self.query"))?,
                    key: w.linear(&format!("{p}.attention.self.key"))?,
                    value: w.linear(&format!("{p}.attention.self.value"))?,
                    attn_out: w.linear(&format!("{p}.attention.output.dense"))?,
                    attn_norm: w.norm(&format!("{p}.attention.output.LayerNorm"), eps)?,
                    ffn_in: w.linear(&format!("{p}.intermediate.dense"))?,
                    ffn_out: w.linear(&format!("{p}.output.dense"))?,
                    ffn_norm: w.norm(&format!("{p}.output.LayerNorm"), eps)?,
                }
            });
        }
        let tied = format!("{emb}.word_embeddings.weight");
        let (head_dense, head_norm, decoder_w, decoder_b) = match family {
            Family::Bert => (
                w.linear("cls.predictions.transform.dense")?,
                w.norm("cls.predictions.transform.LayerNorm", eps)?,
                w.first(&["cls.predictions.decoder.weight", &tied])?,
                w.first(&["cls.predictions.decoder.bias", "cls.predictions.bias"])?,
            ),
            Family::Roberta => (
                w.linear("lm_head.dense")?,
                w.norm("lm_head.layer_norm", eps)?,
                w.first(&["lm_head.decoder.weight", &tied])?,
                w.first(&["lm_head.decoder.bias", "lm_head.bias"])?,
            ),
            Family::DistilBert => (
                w.linear("vocab_transform")?,
                w.norm("vocab_layer_norm", eps)?,
                w.first(&["vocab_projector.weight", &tied])?,
                w.get("vocab_projector.bias")?,
            ),
        };
        let max_positions = position.dims()[0] - if family == Family::Roberta { pad_id as usize + 1 } else { 0 };
        Ok(Encoder {
            family,
            word,
            position,
            token_type,
            embed_norm,
            layers,
            heads,
            act,
            head_dense,
            head_norm,
            decoder: Linear::new(decoder_w, decoder_b)?,
            pad_id,
            max_positions,
            device: device.clone(),
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.word.dims()[0]
    }

    /// Longest sequence (special tokens included) the position table covers.
    pub fn max_positions(&self) -> usize {
        self.max_positions
    }

    /// Hidden states `[batch, seq, hidden]` of `rows`, right-padded to the longest.
    pub fn hidden(&self, rows: &[Vec<u32>]) -> Result<Tensor, ScorerError> {
        let batch = rows.len();
        let seq = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut ids = Vec::with_capacity(batch * seq);
        let mut positions = Vec::with_capacity(batch * seq);
        let mut keep = Vec::with_capacity(batch * seq);
        for row in rows {
            for j in 0..seq {
                let real = j < row.len();
                ids.push(if real { row[j] } else { self.pad_id });
                keep.push(if real { 0f32 } else { f32::MIN });
                positions.push(match (self.family, real) {
                    // RoBERTa numbers real tokens from pad_id + 1 and gives padding pad_id
                    (Family::Roberta, true) => self.pad_id + 1 + j as u32,
                    (Family::Roberta, false) => self.pad_id,
                    _ => j as u32,
                });
            }
        }
        let ids = Tensor::from_vec(ids, (batch * seq,), &self.device)?;
        let positions = Tensor::from_vec(positions, (batch * seq,), &self.device)?;
        let mut x = (self.word.index_select(&ids, 0)? + self.position.index_select(&positions, 0)?)?;
        if let Some(tt) = &self.token_type {
            x = x.broadcast_add(&tt.get(0)?)?;
        }
        // Rows stay flattened to [batch * seq, hidden] so that every projection is one
        // large matrix product instead of `batch` small ones.
        let x = self.embed_norm.forward(&x)?;
        let mask = Tensor::from_vec(keep, (batch, 1, 1, seq), &self.device)?;
        let x = self.layers.iter().try_fold(x, |x, layer| self.layer(layer, &x, &mask, batch, seq))?;
        Ok(x.reshape((batch, seq, ()))?)
    }

    fn layer(&self, l: &Layer, x: &Tensor, mask: &Tensor, batch: usize, seq: usize) -> Result<Tensor, ScorerError> {
        let hidden = x.dims2()?.1;
        let head_dim = hidden / self.heads;
        let split = |t: Tensor| -> candle_core::Result<Tensor> {
            t.reshape((batch, seq, self.heads, head_dim))?.transpose(1, 2)?.contiguous()
        };
        let q = split(l.query.forward(x)?)?;
        let k = split(l.key.forward(x)?)?;
        let v = split(l.value.forward(x)?)?;
        let scores = (q.matmul(&k.t()?)? / (head_dim as f64).sqrt())?.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = weights.matmul(&v)?.transpose(1, 2)?.reshape((batch * seq, hidden))?;
        let x = l.attn_norm.forward(&(x + l.attn_out.forward(&context)?)?)?;
        let ffn = l.ffn_out.forward(&self.act.apply(&l.ffn_in.forward(&x)?)?)?;
        Ok(l.ffn_norm.forward(&(x + ffn)?)?)
    }

    /// Log-probabilities over the vocabulary for hidden states `[n, hidden]`. The
    /// head applies the configured activation (BERT, DistilBERT) or, in RoBERTa,
    /// always the exact GELU.
    pub fn log_probs(&self, hidden: &Tensor) -> Result<Tensor, ScorerError> {
        let act = match self.family {
            Family::Roberta => Activation::Gelu,
            _ => self.act,
        };
        let h = self.head_norm.forward(&act.apply(&self.head_dense.forward(hidden)?)?)?;
        Ok(candle_nn::ops::log_softmax(&self.decoder.forward(&h)?, D::Minus1)?)
    }
}
