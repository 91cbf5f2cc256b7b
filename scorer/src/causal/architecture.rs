//! What a decoder is made of, read from a Hugging Face config.json or a GGUF file's
//! metadata: one description for every family, so that one forward pass
//! ([`super::decoder`]) runs them all.
//!
//! | family | what sets it apart |
//! |---|---|
//! | llama, mistral | RMS norms, rotary positions, a SiLU-gated MLP (Mistral: a sliding window) |
//! | qwen2 / qwen3 | biases on q, k, v / RMS norms of each head's q and k |
//! | phi3 | q, k, v in one matrix and gate, up in another (split at load) |
//! | gemma | norms scale by 1 + w, embeddings scaled by √width, a tanh-GELU gate |
//! | gemma2 | norms after attention and MLP too, soft-capped scores and logits, every other layer windowed |
//! | gemma3 | q/k norms, windowed layers with a rotary table of their own |
//! | gpt2 | LayerNorms, learned positions, biases everywhere, an ungated tanh-GELU MLP |

use serde_json::Value;

use super::gguf::GgufFile;
use super::rope::{RopeConfig, RopeSpec};
use crate::hf::Config;
use crate::ScorerError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Activation {
    Silu,
    GeluTanh,
    GeluErf,
    Relu,
}

impl Activation {
    fn named(name: &str) -> Option<Activation> {
        match name {
            "silu" | "swish" => Some(Activation::Silu),
            "gelu_pytorch_tanh" | "gelu_new" | "gelu_fast" | "gelu_tanh" => Some(Activation::GeluTanh),
            "gelu" => Some(Activation::GeluErf),
            "relu" => Some(Activation::Relu),
            _ => None,
        }
    }
}

/// How one layer attends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayerKind {
    /// A token sees itself and the `window - 1` tokens before it.
    pub window: Option<usize>,
    /// Uses the local rotary table (Gemma 3's sliding layers).
    pub local_rope: bool,
}

/// Everything about a decoder but its weights.
#[derive(Clone, Debug)]
pub(crate) struct Architecture {
    /// The family's name (`model_type`, or the GGUF architecture).
    pub family: String,
    pub n_head: usize,
    pub n_kv_head: usize,
    pub head_dim: usize,
    pub dim: usize,
    /// Positions the model was built for.
    pub context: usize,
    /// Epsilon of the norms (RMS norms; GPT-2's LayerNorms).
    pub eps: f64,
    /// Stored norm weights w act as 1 + w (Gemma in Hugging Face layout).
    pub norm_plus_one: bool,
    /// Learned position embeddings instead of rotary ones, LayerNorms, an MLP of two
    /// layers (GPT-2).
    pub learned_positions: bool,
    pub rope: RopeSpec,
    pub local_rope: Option<RopeSpec>,
    pub layers: Vec<LayerKind>,
    pub activation: Activation,
    pub qk_norm: bool,
    /// Norms after the attention and the MLP blocks too (Gemma 2 and 3).
    pub sandwich_norms: bool,
    /// Embeddings multiplied by √dim (Gemma).
    pub embed_scale: bool,
    pub attn_scale: f32,
    pub attn_softcap: Option<f32>,
    pub final_softcap: Option<f32>,
    /// The output projection is the token embeddings.
    pub tied: bool,
}

/// The layer types of a config: its `layer_types` list, else `default(i)`.
fn layer_types(config: &Config, n_layer: usize, default: impl Fn(usize) -> bool) -> Result<Vec<bool>, ScorerError> {
    match config.json.get("layer_types").and_then(Value::as_array) {
        Some(types) if types.len() == n_layer => types
            .iter()
            .map(|t| match t.as_str() {
                Some("sliding_attention") => Ok(true),
                Some("full_attention") => Ok(false),
                other => Err(config.error(format!("layer type {other:?} is not supported (sliding_attention, full_attention)"))),
            })
            .collect(),
        Some(types) => Err(config.error(format!("{} layer types for {n_layer} layers", types.len()))),
        None => Ok((0..n_layer).map(default).collect()),
    }
}

impl Architecture {
    /// Reads a causal family's config.json (the text part of a multimodal Gemma 3).
    pub(crate) fn from_hf(config: &Config) -> Result<Architecture, ScorerError> {
        let family = config.model_type;
        if family == "gpt2" {
            return Self::gpt2(config);
        }
        let n_head = config.usize(&["num_attention_heads"])?;
        let dim = config.usize(&["hidden_size"])?;
        let n_layer = config.usize(&["num_hidden_layers"])?;
        let head_dim = config.usize(&["head_dim"]).unwrap_or(dim / n_head.max(1));
        let context = config.usize(&["max_position_embeddings"])?;
        let gemma = family.starts_with("gemma");
        if config.bool("use_bidirectional_attention") == Some(true) {
            return Err(config.error("bidirectional attention is not a causal language model"));
        }
        if config.usize(&["pretraining_tp"]).is_ok_and(|tp| tp > 1) {
            return Err(config.error("pretraining_tp above 1 is not supported"));
        }
        let activation_name = config.str("hidden_activation").or(config.str("hidden_act")).unwrap_or("silu");
        let activation = match (gemma, activation_name) {
            // Gemma's first configs say "gelu" and mean the tanh approximation (as transformers reads them)
            (true, "gelu") => Activation::GeluTanh,
            (_, name) => Activation::named(name).ok_or_else(|| config.error(format!("unsupported activation {name:?}")))?,
        };
        let window = config.usize(&["sliding_window"]).ok();
        // which layers attend to a window
        let sliding = match family {
            "mistral" | "phi3" => vec![window.is_some(); n_layer],
            "qwen2" | "qwen3" => {
                let window = window.filter(|_| config.bool("use_sliding_window") == Some(true));
                let from = config.usize(&["max_window_layers"]).unwrap_or(n_layer);
                layer_types(config, n_layer, |i| window.is_some() && i >= from)?
            }
            "gemma2" => layer_types(config, n_layer, |i| i % 2 == 0)?,
            "gemma3_text" | "gemma3" => {
                let every = config.usize(&["sliding_window_pattern"]).unwrap_or(6).max(1);
                layer_types(config, n_layer, |i| (i + 1) % every != 0)?
            }
            _ => vec![false; n_layer],
        };
        if sliding.iter().any(|s| *s) && window.is_none() {
            return Err(config.error("windowed layers without a sliding_window"));
        }
        let gemma3 = family.starts_with("gemma3");
        let rope_of = |layer_type: Option<&str>, default_theta: f64| {
            RopeConfig { config: &config.json, layer_type, default_theta, head_dim, max_positions: context }
                .spec()
                .map_err(|e| config.error(e))
        };
        let (rope, local_rope) = if gemma3 {
            (rope_of(Some("full_attention"), 1_000_000.0)?, Some(rope_of(Some("sliding_attention"), 10_000.0)?))
        } else {
            (rope_of(None, 10_000.0)?, None)
        };
        let query_scalar = config.f64("query_pre_attn_scalar").filter(|_| family == "gemma2" || gemma3);
        let softcap = |name: &str| config.f64(name).filter(|_| family == "gemma2" || gemma3).map(|c| c as f32);
        let tied = config.bool("tie_word_embeddings").unwrap_or(gemma);
        Ok(Architecture {
            family: family.to_owned(),
            n_head,
            n_kv_head: config.usize(&["num_key_value_heads"]).unwrap_or(n_head),
            head_dim,
            dim,
            context,
            eps: config.f64("rms_norm_eps").unwrap_or(1e-6),
            norm_plus_one: gemma,
            learned_positions: false,
            rope,
            local_rope,
            layers: sliding.into_iter().map(|s| LayerKind { window: if s { window } else { None }, local_rope: s && gemma3 }).collect(),
            activation,
            qk_norm: family == "qwen3" || gemma3,
            sandwich_norms: family == "gemma2" || gemma3,
            embed_scale: gemma,
            attn_scale: query_scalar.unwrap_or(head_dim as f64).powf(-0.5) as f32,
            attn_softcap: softcap("attn_logit_softcapping"),
            final_softcap: softcap("final_logit_softcapping"),
            tied,
        })
    }

    fn gpt2(config: &Config) -> Result<Architecture, ScorerError> {
        let n_head = config.usize(&["n_head"])?;
        let dim = config.usize(&["n_embd"])?;
        let n_layer = config.usize(&["n_layer"])?;
        for unsupported in ["scale_attn_by_inverse_layer_idx", "add_cross_attention"] {
            if config.bool(unsupported) == Some(true) {
                return Err(config.error(format!("{unsupported} is not supported")));
            }
        }
        let name = config.str("activation_function").unwrap_or("gelu_new");
        let activation = Activation::named(name).ok_or_else(|| config.error(format!("unsupported activation {name:?}")))?;
        let head_dim = dim / n_head.max(1);
        let scale = if config.bool("scale_attn_weights") == Some(false) { 1.0 } else { (head_dim as f32).powf(-0.5) };
        Ok(Architecture {
            family: "gpt2".into(),
            n_head,
            n_kv_head: n_head,
            head_dim,
            dim,
            context: config.usize(&["n_positions", "n_ctx"])?,
            eps: config.f64("layer_norm_epsilon").unwrap_or(1e-5),
            norm_plus_one: false,
            learned_positions: true,
            rope: RopeSpec::plain(head_dim, 10_000.0),
            local_rope: None,
            layers: vec![LayerKind { window: None, local_rope: false }; n_layer],
            activation,
            qk_norm: false,
            sandwich_norms: false,
            embed_scale: false,
            attn_scale: scale,
            attn_softcap: None,
            final_softcap: None,
            tied: config.bool("tie_word_embeddings").unwrap_or(true),
        })
    }

    /// Reads a `llama` or `gemma3` GGUF file's metadata; other architectures are refused.
    pub(crate) fn from_gguf(gguf: &mut GgufFile) -> Result<Architecture, ScorerError> {
        let arch = gguf.meta_str("general.architecture")?.to_owned();
        let gemma3 = match arch.as_str() {
            "llama" => false,
            "gemma3" => true,
            _ => {
                return Err(ScorerError::Architecture {
                    path: gguf.path().to_owned(),
                    arch,
                    supported: "llama, gemma3 (other families: their Hugging Face directory)".into(),
                })
            }
        };
        let key = |k: &str| format!("{arch}.{k}");
        let n_head = gguf.meta_u32(&key("attention.head_count"))?;
        let dim = gguf.meta_u32(&key("embedding_length"))?;
        let n_layer = gguf.meta_u32(&key("block_count"))?;
        let head_dim = gguf.meta_u32(&key("attention.key_length")).unwrap_or(dim / n_head.max(1));
        if gguf.meta_u32(&key("rope.dimension_count")).is_ok_and(|d| d != head_dim) {
            return Err(ScorerError::file(gguf.path(), "partial rotary embeddings are not supported"));
        }
        let base = gguf.meta_f32(&key("rope.freq_base")).map_or(if gemma3 { 1_000_000.0 } else { 10_000.0 }, f64::from);
        let mut rope = RopeSpec::plain(head_dim, base);
        match gguf.meta_str(&key("rope.scaling.type")).unwrap_or("none") {
            "none" => {}
            "linear" => {
                let factor = gguf.meta_f32(&key("rope.scaling.factor"))?;
                rope.inv_freq.iter_mut().for_each(|f| *f /= factor);
            }
            other => {
                return Err(ScorerError::file(gguf.path(), format!("rope scaling {other:?} is not supported in GGUF files (none, linear)")))
            }
        }
        // llama.cpp's converter stores Llama 3.1's scaling as a divisor per frequency
        if gguf.has_tensor("rope_freqs.weight") {
            let divisors = gguf.dense("rope_freqs.weight", &candle_core::Device::Cpu, candle_core::DType::F32)?.to_vec1::<f32>()?;
            if divisors.len() != rope.inv_freq.len() {
                return Err(ScorerError::file(gguf.path(), "rope_freqs does not match the head width"));
            }
            rope.inv_freq.iter_mut().zip(divisors).for_each(|(f, d)| *f /= d);
        }
        // llama.cpp's fixed Gemma 3 settings: 1 global layer in 6, local rotary base 10,000;
        // it scales Gemma 3 27B's (62 layers) queries by the width per head, not the head size
        let window = if gemma3 { Some(gguf.meta_u32("gemma3.attention.sliding_window")?) } else { None };
        let attn_scale = if gemma3 && n_layer == 62 { (dim / n_head) as f32 } else { head_dim as f32 }.powf(-0.5);
        Ok(Architecture {
            family: arch.clone(),
            n_head,
            n_kv_head: gguf.meta_u32(&key("attention.head_count_kv"))?,
            head_dim,
            dim,
            context: gguf.meta_u32(&key("context_length"))?,
            eps: f64::from(gguf.meta_f32(&key("attention.layer_norm_rms_epsilon"))?),
            // llama.cpp's converter has already added Gemma's 1 to the norm weights
            norm_plus_one: false,
            learned_positions: false,
            rope,
            local_rope: gemma3.then(|| RopeSpec::plain(head_dim, 10_000.0)),
            layers: (0..n_layer)
                .map(|i| {
                    let local = gemma3 && (i + 1) % 6 != 0;
                    LayerKind { window: if local { window } else { None }, local_rope: local }
                })
                .collect(),
            activation: if gemma3 { Activation::GeluTanh } else { Activation::Silu },
            qk_norm: gemma3,
            sandwich_norms: gemma3,
            embed_scale: gemma3,
            attn_scale,
            attn_softcap: None,
            final_softcap: None,
            tied: !gguf.has_tensor("output.weight"),
        })
    }
}
