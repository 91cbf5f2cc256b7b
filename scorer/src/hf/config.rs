//! config.json: its fields, and which model family it describes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ScorerError;

/// The parsed config.json of `dir`, and its path for errors.
pub(crate) fn read_config(dir: &Path) -> Result<(Value, PathBuf), ScorerError> {
    let path = dir.join("config.json");
    let text = std::fs::read_to_string(&path).map_err(|e| ScorerError::file(&path, e))?;
    let config = serde_json::from_str(&text).map_err(|e| ScorerError::file(&path, format!("not valid JSON: {e}")))?;
    Ok((config, path))
}

/// The first of `names` that config.json holds as a non-negative integer.
pub(crate) fn field(config: &Value, path: &Path, names: &[&str]) -> Result<usize, ScorerError> {
    names
        .iter()
        .find_map(|n| config.get(*n).and_then(Value::as_u64))
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| ScorerError::file(path, format!("{} is missing or not a number", names[0])))
}

/// Whether a family is read as a masked or a causal language model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModelKind {
    Masked,
    Causal,
}

/// Every family the scorer loads from a Hugging Face directory: its `model_type`, the
/// class-name prefix of its `architectures` entries (longest first where one prefix
/// holds another), and how it is read.
const FAMILIES: &[(&str, &str, ModelKind)] = &[
    ("xlm-roberta", "XLMRoberta", ModelKind::Masked),
    ("camembert", "Camembert", ModelKind::Masked),
    ("distilbert", "DistilBert", ModelKind::Masked),
    ("roberta", "Roberta", ModelKind::Masked),
    ("bert", "Bert", ModelKind::Masked),
    ("gpt2", "GPT2", ModelKind::Causal),
    ("llama", "Llama", ModelKind::Causal),
    ("mistral", "Mistral", ModelKind::Causal),
    ("qwen2", "Qwen2", ModelKind::Causal),
    ("qwen3", "Qwen3", ModelKind::Causal),
    ("phi3", "Phi3", ModelKind::Causal),
    ("gemma3_text", "Gemma3ForCausalLM", ModelKind::Causal),
    ("gemma3", "Gemma3", ModelKind::Causal),
    ("gemma2", "Gemma2", ModelKind::Causal),
    ("gemma", "Gemma", ModelKind::Causal),
];

/// A config.json with the family it describes.
pub(crate) struct Config {
    pub(crate) json: Value,
    pub(crate) path: PathBuf,
    /// The family's `model_type`: the config's own, else inferred from `architectures`.
    pub(crate) model_type: &'static str,
    pub(crate) kind: ModelKind,
}

impl Config {
    pub(crate) fn read(dir: &Path) -> Result<Config, ScorerError> {
        let (json, path) = read_config(dir)?;
        let supported = || FAMILIES.iter().map(|f| f.0).collect::<Vec<_>>().join(", ");
        let family = match json.get("model_type").and_then(Value::as_str) {
            Some(given) => FAMILIES.iter().find(|f| f.0 == given).ok_or_else(|| ScorerError::Architecture {
                path: path.clone(),
                arch: given.to_owned(),
                supported: supported(),
            })?,
            None => {
                let classes: Vec<&str> =
                    json.get("architectures").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
                if classes.is_empty() {
                    return Err(ScorerError::file(
                        &path,
                        format!("names neither \"model_type\" nor \"architectures\": add the family, e.g. \"model_type\": \"bert\" (supported: {})", supported()),
                    ));
                }
                classes
                    .iter()
                    .find_map(|class| FAMILIES.iter().find(|f| class.starts_with(f.1)))
                    .ok_or_else(|| ScorerError::Architecture { path: path.clone(), arch: classes.join(", "), supported: supported() })?
            }
        };
        Ok(Config { json, path, model_type: family.0, kind: family.2 })
    }

    /// The first of `names` as a non-negative integer.
    pub(crate) fn usize(&self, names: &[&str]) -> Result<usize, ScorerError> {
        field(&self.json, &self.path, names)
    }

    pub(crate) fn f64(&self, name: &str) -> Option<f64> {
        self.json.get(name).and_then(Value::as_f64)
    }

    pub(crate) fn bool(&self, name: &str) -> Option<bool> {
        self.json.get(name).and_then(Value::as_bool)
    }

    pub(crate) fn str(&self, name: &str) -> Option<&str> {
        self.json.get(name).and_then(Value::as_str)
    }

    pub(crate) fn error(&self, message: impl std::fmt::Display) -> ScorerError {
        ScorerError::file(&self.path, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family_of(config: &str) -> Result<(&'static str, ModelKind), ScorerError> {
        let dir = tempfile::tempdir().expect("tmp");
        std::fs::write(dir.path().join("config.json"), config).expect("write");
        Config::read(dir.path()).map(|c| (c.model_type, c.kind))
    }

    #[test]
    fn the_family_comes_from_model_type_else_from_architectures() {
        assert_eq!(family_of(r#"{"model_type": "qwen2"}"#).expect("qwen2"), ("qwen2", ModelKind::Causal));
        assert_eq!(family_of(r#"{"architectures": ["BertForMaskedLM"]}"#).expect("bert"), ("bert", ModelKind::Masked));
        assert_eq!(family_of(r#"{"architectures": ["XLMRobertaForMaskedLM"]}"#).expect("xlm-r").0, "xlm-roberta");
        assert_eq!(family_of(r#"{"architectures": ["Gemma2ForCausalLM"]}"#).expect("gemma2").0, "gemma2");
        assert_eq!(family_of(r#"{"architectures": ["Gemma3ForCausalLM"]}"#).expect("gemma3").0, "gemma3_text");
        let none = family_of("{}").expect_err("nothing names the family").to_string();
        assert!(none.contains("\"model_type\": \"bert\""), "{none}");
        let unknown = family_of(r#"{"model_type": "t5"}"#).expect_err("t5").to_string();
        assert!(unknown.contains("\"t5\"") && unknown.contains("gpt2"), "{unknown}");
    }
}
