//! Rotary position embeddings: the frequencies of each scaling form that Hugging
//! Face configs and GGUF files name, and their cos/sin tables.
//!
//! A config states its rope three ways, all read here: `rope_theta` with a
//! `rope_scaling` object keyed `rope_type` or (older) `type`, or (transformers 5)
//! a `rope_parameters` object holding the theta too, possibly one per layer type
//! (Gemma 3's sliding and full attention layers). Forms computed as transformers'
//! `modeling_rope_utils` does: default, linear, dynamic (NTK; the same as default up
//! to the original context, and longer inputs are refused, since the scaling then
//! depends on the input's length), llama3, yarn, longrope (Phi-3; the short factors,
//! longer inputs refused likewise). Any other form, or a partial rotary factor, is
//! refused by name rather than scored with the wrong positions.

use candle_core::{DType, Device, Tensor};
use serde_json::{Map, Value};

/// The frequencies of one rotary embedding.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RopeSpec {
    /// 1 / wavelength of each pair of dimensions (`head_dim / 2` of them).
    pub inv_freq: Vec<f32>,
    /// Multiplies cos and sin (yarn's and longrope's attention factor).
    pub attention_factor: f32,
    /// Longest input these frequencies hold for (dynamic and longrope scaling).
    pub valid_up_to: Option<usize>,
}

/// cos/sin tables of a rotary embedding, `[positions, head_dim / 2]` each.
pub(crate) struct RopeTables {
    pub cos: Tensor,
    pub sin: Tensor,
}

/// Where a config keeps its rope, and the model's shape around it.
pub(crate) struct RopeConfig<'a> {
    pub config: &'a Value,
    /// `full_attention` or `sliding_attention` for models with one rope per layer type.
    pub layer_type: Option<&'a str>,
    /// The theta when the config names none (Gemma 3's global and local defaults differ).
    pub default_theta: f64,
    pub head_dim: usize,
    pub max_positions: usize,
}

fn number(params: &Map<String, Value>, key: &str) -> Option<f64> {
    params.get(key).and_then(Value::as_f64)
}

impl RopeConfig<'_> {
    /// The rope parameters in the one form transformers 5 standardizes them to:
    /// the type, theta and scaling keys together.
    fn params(&self) -> Map<String, Value> {
        let top = |key: &str| self.config.get(key).cloned();
        let mut params = match self.config.get("rope_parameters").and_then(Value::as_object) {
            Some(p) => match self.layer_type.and_then(|t| p.get(t)) {
                Some(Value::Object(per_layer)) => per_layer.clone(),
                _ if p.contains_key("full_attention") || p.contains_key("sliding_attention") => Map::new(),
                _ => p.clone(),
            },
            // the older form: rope_theta beside a rope_scaling object (Gemma 3 applies
            // it to its full-attention layers only, with rope_local_base_freq elsewhere)
            None => {
                let mut p = Map::new();
                if self.layer_type != Some("sliding_attention") {
                    if let Some(Value::Object(scaling)) = top("rope_scaling") {
                        p.extend(scaling);
                    }
                }
                let theta = match self.layer_type {
                    Some("sliding_attention") => top("rope_local_base_freq"),
                    _ => top("rope_theta"),
                };
                if let Some(theta) = theta {
                    p.insert("rope_theta".into(), theta);
                }
                p
            }
        };
        if !params.contains_key("rope_type") {
            let kind = params.get("type").cloned().unwrap_or_else(|| "default".into());
            params.insert("rope_type".into(), kind);
        }
        if !params.contains_key("rope_theta") {
            params.insert("rope_theta".into(), top("rope_theta").unwrap_or_else(|| self.default_theta.into()));
        }
        for key in ["partial_rotary_factor", "original_max_position_embeddings"] {
            if let (false, Some(v)) = (params.contains_key(key), top(key)) {
                params.insert(key.into(), v);
            }
        }
        params
    }

    /// The frequencies this config's rope has, or why they cannot be computed.
    pub(crate) fn spec(&self) -> Result<RopeSpec, String> {
        let params = self.params();
        let kind = params.get("rope_type").and_then(Value::as_str).unwrap_or("default").to_owned();
        let base = number(&params, "rope_theta").unwrap_or(self.default_theta);
        if number(&params, "partial_rotary_factor").is_some_and(|f| f < 1.0) {
            return Err("a partial rotary factor below 1 is not supported".into());
        }
        let dim = self.head_dim;
        let plain = RopeSpec::plain(dim, base);
        let factor = || number(&params, "factor").ok_or_else(|| format!("{kind} rope scaling without a factor"));
        let original = number(&params, "original_max_position_embeddings").map_or(self.max_positions, |v| v as usize);
        match kind.as_str() {
            "default" => Ok(plain),
            "linear" => {
                let factor = factor()? as f32;
                Ok(RopeSpec { inv_freq: plain.inv_freq.iter().map(|f| f / factor).collect(), ..plain })
            }
            "dynamic" => Ok(RopeSpec { valid_up_to: Some(original), ..plain }),
            "llama3" => {
                let get = |k: &str| number(&params, k).ok_or_else(|| format!("llama3 rope scaling without {k}"));
                let (factor, low, high) = (get("factor")?, get("low_freq_factor")?, get("high_freq_factor")?);
                Ok(RopeSpec { inv_freq: llama3(&plain.inv_freq, factor, low, high, original as f64), ..plain })
            }
            "yarn" => yarn(&params, dim, base, original, self.max_positions),
            "longrope" | "su" => {
                let short: Vec<f32> = params
                    .get("short_factor")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_f64).map(|v| v as f32).collect())
                    .ok_or("longrope scaling without short_factor")?;
                if short.len() != dim / 2 {
                    return Err(format!("longrope short_factor has {} values for {} frequencies", short.len(), dim / 2));
                }
                let factor = number(&params, "factor").unwrap_or(self.max_positions as f64 / original as f64);
                let attention_factor = match number(&params, "attention_factor") {
                    Some(a) => a,
                    None if factor <= 1.0 => 1.0,
                    None => (1.0 + factor.ln() / (original as f64).ln()).sqrt(),
                };
                Ok(RopeSpec {
                    inv_freq: plain.inv_freq.iter().zip(&short).map(|(f, s)| f / s).collect(),
                    attention_factor: attention_factor as f32,
                    valid_up_to: Some(original),
                })
            }
            other => Err(format!("rope scaling {other:?} is not supported (default, linear, dynamic, llama3, yarn, longrope)")),
        }
    }
}

/// Llama 3.1's scaling: long wavelengths divided by `factor`, short ones kept, a
/// smooth blend between.
fn llama3(inv_freq: &[f32], factor: f64, low: f64, high: f64, original: f64) -> Vec<f32> {
    let (low_wavelen, high_wavelen) = (original / low, original / high);
    inv_freq
        .iter()
        .map(|&f| {
            let f = f64::from(f);
            let wavelen = 2.0 * std::f64::consts::PI / f;
            let scaled = if wavelen > low_wavelen { f / factor } else { f };
            if wavelen < high_wavelen || wavelen > low_wavelen {
                scaled as f32
            } else {
                let smooth = (original / wavelen - low) / (high - low);
                ((1.0 - smooth) * scaled / factor + smooth * scaled) as f32
            }
        })
        .collect()
}

/// YaRN: interpolated and extrapolated frequencies blended by a linear ramp over the
/// dimensions, and an attention factor from the scale.
fn yarn(params: &Map<String, Value>, dim: usize, base: f64, original: usize, max_positions: usize) -> Result<RopeSpec, String> {
    let factor = number(params, "factor").unwrap_or(max_positions as f64 / original as f64);
    let mscale = |scale: f64, m: f64| if scale <= 1.0 { 1.0 } else { 0.1 * m * scale.ln() + 1.0 };
    let attention_factor = match (number(params, "attention_factor"), number(params, "mscale"), number(params, "mscale_all_dim")) {
        (Some(a), _, _) => a,
        (None, Some(m), Some(all)) if m != 0.0 && all != 0.0 => mscale(factor, m) / mscale(factor, all),
        _ => mscale(factor, 1.0),
    };
    let beta_fast = number(params, "beta_fast").filter(|b| *b != 0.0).unwrap_or(32.0);
    let beta_slow = number(params, "beta_slow").filter(|b| *b != 0.0).unwrap_or(1.0);
    let truncate = params.get("truncate").and_then(Value::as_bool).unwrap_or(true);
    let d = dim as f64;
    let correction = |rotations: f64| d * (original as f64 / (rotations * 2.0 * std::f64::consts::PI)).ln() / (2.0 * base.ln());
    let (mut low, mut high) = (correction(beta_fast), correction(beta_slow));
    if truncate {
        (low, high) = (low.floor(), high.ceil());
    }
    let (low, mut high) = (low.max(0.0), high.min(d - 1.0));
    if low == high {
        high += 0.001;
    }
    let inv_freq = (0..dim / 2)
        .map(|i| {
            // as transformers computes them, in f32
            let pos_freq = (base as f32).powf((2 * i) as f32 / dim as f32);
            let (extrapolated, interpolated) = (1.0 / pos_freq, 1.0 / (factor as f32 * pos_freq));
            let ramp = (((i as f64 - low) / (high - low)).clamp(0.0, 1.0)) as f32;
            let keep = 1.0 - ramp;
            interpolated * (1.0 - keep) + extrapolated * keep
        })
        .collect();
    Ok(RopeSpec { inv_freq, attention_factor: attention_factor as f32, valid_up_to: None })
}

impl RopeSpec {
    /// Unscaled frequencies `base^(-2i / dim)`, computed in f32 as transformers does.
    pub(crate) fn plain(head_dim: usize, base: f64) -> RopeSpec {
        let inv_freq = (0..head_dim / 2).map(|i| 1.0 / (base as f32).powf((2 * i) as f32 / head_dim as f32)).collect();
        RopeSpec { inv_freq, attention_factor: 1.0, valid_up_to: None }
    }

    /// cos and sin of `position x frequency` for the first `positions` positions,
    /// times the attention factor (computed in f32, then stored as `dtype`).
    pub(crate) fn tables(&self, positions: usize, device: &Device, dtype: DType) -> candle_core::Result<RopeTables> {
        let half = self.inv_freq.len();
        let inv_freq = Tensor::from_vec(self.inv_freq.clone(), (1, half), device)?;
        let t = Tensor::arange(0u32, positions as u32, device)?.to_dtype(DType::F32)?.reshape((positions, 1))?;
        let angles = t.matmul(&inv_freq)?;
        let factor = f64::from(self.attention_factor);
        Ok(RopeTables { cos: (angles.cos()? * factor)?.to_dtype(dtype)?, sin: (angles.sin()? * factor)?.to_dtype(dtype)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(config: &str, layer_type: Option<&str>) -> Result<RopeSpec, String> {
        let config: Value = serde_json::from_str(config).expect("json");
        RopeConfig { config: &config, layer_type, default_theta: 10_000.0, head_dim: 8, max_positions: 128 }.spec()
    }

    /// The three ways a config states Llama 3.1's scaling mean the same frequencies.
    #[test]
    fn every_form_of_a_config_reads_the_same() {
        let params = r#""factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 32"#;
        let forms = [
            format!(r#"{{"rope_theta": 500.0, "rope_scaling": {{"rope_type": "llama3", {params}}}}}"#),
            format!(r#"{{"rope_theta": 500.0, "rope_scaling": {{"type": "llama3", {params}}}}}"#),
            format!(r#"{{"rope_parameters": {{"rope_type": "llama3", "rope_theta": 500.0, {params}}}}}"#),
        ];
        let specs: Vec<RopeSpec> = forms.iter().map(|f| spec(f, None).expect("llama3")).collect();
        assert!(specs.iter().all(|s| *s == specs[0]));
        let plain = RopeSpec::plain(8, 500.0);
        assert_ne!(specs[0], plain, "the scaling changes the long wavelengths");
        assert_eq!(specs[0].inv_freq[0], plain.inv_freq[0], "the shortest wavelength is kept");
    }

    #[test]
    fn per_layer_type_parameters_and_the_older_gemma_form_agree() {
        let old = r#"{"rope_theta": 1e6, "rope_local_base_freq": 1e4, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}"#;
        let new = r#"{"rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
                      "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}"#;
        for layer in ["full_attention", "sliding_attention"] {
            assert_eq!(spec(old, Some(layer)), spec(new, Some(layer)), "{layer}");
        }
        assert_eq!(spec(old, Some("sliding_attention")).expect("local"), RopeSpec::plain(8, 1e4));
    }

    #[test]
    fn what_cannot_be_computed_is_refused_by_name() {
        let unknown = spec(r#"{"rope_scaling": {"rope_type": "mrope"}}"#, None).expect_err("mrope");
        assert!(unknown.contains("\"mrope\""), "{unknown}");
        assert!(spec(r#"{"partial_rotary_factor": 0.5}"#, None).is_err());
        assert!(spec(r#"{"rope_scaling": {"type": "linear"}}"#, None).expect_err("factor").contains("factor"));
        let dynamic = spec(r#"{"rope_scaling": {"type": "dynamic", "factor": 2.0}}"#, None).expect("dynamic");
        assert_eq!(dynamic.valid_up_to, Some(128));
    }
}
