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

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::LayerNorm;

use crate::hf::{Config, Weights};
use crate::ops::attention::{attention, Heads, Seen};
use crate::ops::{gelu, Linear};
use crate::{Precision, ScorerError};

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
    /// `act(x W + b)` for the dense layer `dense`: the exact GELU adds the bias in
    /// its own pass over the output.
    fn of_dense(self, dense: &Linear, x: &Tensor) -> candle_core::Result<Tensor> {
        match self {
            Activation::Gelu => match &dense.bias {
                Some(bias) => gelu::gelu_erf(&x.matmul(&dense.weight_t)?, bias),
                None => dense.forward(x)?.gelu_erf(),
            },
            Activation::GeluTanh => dense.forward(x)?.gelu(),
            Activation::Relu => dense.forward(x)?.relu(),
        }
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

/// `i` as a tensor index.
pub(super) fn index(i: usize) -> Result<u32, ScorerError> {
    u32::try_from(i).map_err(|e| ScorerError::Input(format!("batch too large: {e}")))
}

/// Encoder and masked-LM head.
pub struct Encoder {
    family: Family,
    word: Tensor,
    position: Tensor,
    token_type: Option<Tensor>,
    embed_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: Heads,
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
        Ok(Linear::new(&self.get(&format!("{prefix}.weight"))?, Some(self.get(&format!("{prefix}.bias"))?))?)
    }

    fn norm(&self, prefix: &str, eps: f64) -> Result<LayerNorm, ScorerError> {
        Ok(LayerNorm::new(self.get(&format!("{prefix}.weight"))?, self.get(&format!("{prefix}.bias"))?, eps))
    }
}

impl Encoder {
    /// Loads the weights of a Hugging Face model directory whose config is `config`.
    pub fn load(dir: &Path, config: &Config, device: &Device, precision: Precision) -> Result<Self, ScorerError> {
        let family = match config.model_type {
            "bert" => Family::Bert,
            "distilbert" => Family::DistilBert,
            _ => Family::Roberta,
        };
        let distil = family == Family::DistilBert;
        let hidden = config.usize(&["hidden_size", "dim"])?;
        let n_layers = config.usize(&["num_hidden_layers", "n_layers"])?;
        let heads = config.usize(&["num_attention_heads", "n_heads"])?;
        if heads == 0 || hidden % heads != 0 {
            return Err(config.error(format!("{heads} heads do not divide width {hidden}")));
        }
        let act_name = config.str(if distil { "activation" } else { "hidden_act" }).unwrap_or("gelu");
        let act = match act_name {
            "gelu" => Activation::Gelu,
            "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Activation::GeluTanh,
            "relu" => Activation::Relu,
            other => return Err(config.error(format!("unsupported activation {other:?}"))),
        };
        let eps = if distil { 1e-12 } else { config.f64("layer_norm_eps").unwrap_or(1e-12) };
        let pad_id = u32::try_from(config.usize(&["pad_token_id"]).unwrap_or(0)).map_err(|e| config.error(e))?;

        let w = Weights::open(dir, device, precision)?;
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
        let head = match family {
            Family::Bert => "cls.predictions.",
            Family::Roberta => "lm_head.",
            Family::DistilBert => "vocab_",
        };
        if !w.any_under(head) {
            return Err(ScorerError::file(
                dir,
                format!(
                    "the checkpoint has no masked-LM head ({head}*): it was saved without one (e.g. BertModel rather than BertForMaskedLM)"
                ),
            ));
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
            heads: Heads::plain(heads, hidden),
            act,
            head_dense,
            head_norm,
            decoder: Linear::new(&decoder_w, Some(decoder_b))?,
            pad_id,
            max_positions,
            device: device.clone(),
        })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The floating type the encoder computes in.
    pub fn dtype(&self) -> DType {
        self.word.dtype()
    }

    pub fn vocab_size(&self) -> usize {
        self.word.dims()[0]
    }

    /// Longest sequence (special tokens included) the position table covers.
    pub fn max_positions(&self) -> usize {
        self.max_positions
    }

    /// Final hidden states `[picks.len(), hidden]` at `picks` = (row, position) of
    /// `rows`.
    ///
    /// Two savings over running a padded batch, with the same numbers:
    /// - The rows are packed end to end without padding, and attention keeps each
    ///   token to its own row ([`attention`]). Length-sorted batches of short
    ///   sentences were about 16 % padding.
    /// - The last layer needs its keys and values everywhere, but its queries,
    ///   attention output and feed-forward only at the picked positions (about 7 %
    ///   of a 12-layer model).
    pub fn hidden_at(&self, rows: &[Vec<u32>], picks: &[(usize, usize)]) -> Result<Tensor, ScorerError> {
        let mut starts = Vec::with_capacity(rows.len());
        let (mut ids, mut positions, mut keys) = (vec![], vec![], vec![]);
        for row in rows {
            let start = ids.len();
            starts.push(start);
            for (j, &id) in row.iter().enumerate() {
                ids.push(id);
                // RoBERTa numbers tokens from pad_id + 1
                positions.push(if self.family == Family::Roberta { self.pad_id + 1 + j as u32 } else { j as u32 });
                keys.push(Seen::from(start..start + row.len()));
            }
        }
        let picked: Vec<u32> = picks.iter().map(|&(r, j)| index(starts[r] + j)).collect::<Result<_, _>>()?;
        let picked_keys: Vec<Seen> = picks.iter().map(|&(r, j)| keys[starts[r] + j].clone()).collect();
        let tensor = |v: &[u32]| Tensor::new(v, &self.device);
        let mut x = (self.word.index_select(&tensor(&ids)?, 0)? + self.position.index_select(&tensor(&positions)?, 0)?)?;
        if let Some(tt) = &self.token_type {
            x = x.broadcast_add(&tt.get(0)?)?;
        }
        let x = self.embed_norm.forward(&x)?;
        let picked = tensor(&picked)?;
        let Some((last, others)) = self.layers.split_last() else {
            return Ok(x.index_select(&picked, 0)?);
        };
        let x = others.iter().try_fold(x, |x, layer| self.layer(layer, &x, &keys, None))?;
        self.layer(last, &x, &picked_keys, Some(&picked))
    }

    /// One post-LayerNorm transformer layer over the packed tokens `x` =
    /// `[tokens, hidden]`, where the query at output row i sees the tokens `keys[i]`.
    /// With `only` (token indices), the output holds just those tokens.
    fn layer(&self, l: &Layer, x: &Tensor, keys: &[Seen], only: Option<&Tensor>) -> Result<Tensor, ScorerError> {
        let k = l.key.forward(x)?;
        let v = l.value.forward(x)?;
        let x = match only {
            None => x.clone(),
            Some(tokens) => x.index_select(tokens, 0)?,
        };
        let context = attention(&l.query.forward(&x)?, &k, &v, self.heads, keys)?;
        let x = l.attn_norm.forward(&(x + l.attn_out.forward(&context)?)?)?;
        let ffn = l.ffn_out.forward(&self.act.of_dense(&l.ffn_in, &x)?)?;
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
        let h = self.head_norm.forward(&act.of_dense(&self.head_dense, hidden)?)?;
        Ok(candle_nn::ops::log_softmax(&self.decoder.forward(&h)?.to_dtype(DType::F32)?, D::Minus1)?)
    }
}
