//! The BOS and EOS tokens of a model directory as transformers resolves them
//! (`AutoTokenizer.from_pretrained(dir).bos_token`, `.eos_token`), which is what
//! lm-evaluation-harness reads a sentence after (`HFLM.prefix_token_id`: BOS, else EOS).
//!
//! transformers (5.x) decides in this order, and so does this module:
//! 1. the tokenizer class: `tokenizer_class` of tokenizer_config.json (or of
//!    config.json), else the class transformers registers for config.json's
//!    `model_type`, else `TokenizersBackend`; a Hub class that transformers knows to be
//!    wrong for the model type, a `LlamaTokenizer` over a byte-level tokenizer.json, and
//!    a class where the model type registers a generic one are overridden as
//!    transformers overrides them;
//! 2. the class's default (`LlamaTokenizer`: `<s>`; `Qwen2Tokenizer`: no BOS;
//!    `TokenizersBackend`: none), overridden by tokenizer_config.json's key (an
//!    explicit null means none), overridden in turn by special_tokens_map.json's when
//!    tokenizer_config.json has no `added_tokens_decoder` (the older layout).
//!
//! config.json's `bos_token_id` plays no part. The classes, their defaults and the
//! model types come from transformers itself (tokenizer_classes.json, written by
//! fixtures/make_tokenizer_classes.py); fixtures/conventions/ checks the outcome against
//! `AutoTokenizer` and lm-evaluation-harness on real layouts.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;
use tokenizers::Tokenizer;

use crate::ScorerError;

/// What transformers knows of its tokenizer classes (see the module).
#[derive(Deserialize)]
struct Classes {
    transformers: String,
    model_types: HashMap<String, String>,
    classes: HashMap<String, Defaults>,
    incorrect_hub_class: Vec<String>,
}

#[derive(Deserialize)]
struct Defaults {
    bos_token: Option<String>,
    eos_token: Option<String>,
}

fn classes() -> &'static Classes {
    static CLASSES: OnceLock<Classes> = OnceLock::new();
    CLASSES.get_or_init(|| {
        #[allow(clippy::expect_used, reason = "the file is part of the crate and parsed by a unit test")]
        serde_json::from_str(include_str!("tokenizer_classes.json")).expect("tokenizer_classes.json parses")
    })
}

/// The version of transformers whose rules this module follows.
pub fn transformers_version() -> &'static str {
    &classes().transformers
}

/// The class transformers registers for no particular tokenizer.
const GENERIC: &str = "TokenizersBackend";

/// One special token: its id, or none, and the file and key that decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpecialToken {
    pub(crate) id: Option<u32>,
    pub(crate) decided_by: String,
}

/// A directory's BOS and EOS tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpecialTokens {
    pub(crate) bos: SpecialToken,
    pub(crate) eos: SpecialToken,
}

fn read_json(path: &Path) -> Result<Option<Value>, ScorerError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| ScorerError::file(path, format!("not valid JSON: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ScorerError::file(path, e)),
    }
}

/// The class `AutoTokenizer` picks (see the module), and why.
fn class_of(dir: &Path, config: &Value, tokenizer_config: Option<&Value>) -> (String, String) {
    let known = classes();
    let name = |key: &str, v: Option<&Value>| v.and_then(|v| v.get(key)).and_then(Value::as_str).map(str::to_owned);
    let model_type = name("model_type", Some(config)).unwrap_or_default();
    let registered = known.model_types.get(&model_type).cloned();
    let incorrect = known.incorrect_hub_class.contains(&model_type);
    let hub = name("tokenizer_class", tokenizer_config)
        .map(|c| (c, "tokenizer_config.json's tokenizer_class"))
        .or_else(|| name("tokenizer_class", Some(config)).map(|c| (c, "config.json's tokenizer_class")));
    let registered_why = || format!("the class transformers registers for model_type {model_type:?}");
    let Some((hub, hub_why)) = hub else {
        return match registered {
            Some(class) => (class, registered_why()),
            None => (GENERIC.into(), format!("no tokenizer_class, and none registered for model_type {model_type:?}")),
        };
    };
    let hub = match hub.strip_suffix("Fast").unwrap_or(&hub) {
        "PreTrainedTokenizer" => GENERIC.to_owned(),
        other => other.to_owned(),
    };
    if !known.classes.contains_key(&hub) {
        // transformers loads a class it does not have (custom code it is not trusted
        // to run) as the generic one
        return (GENERIC.into(), format!("{hub_why} {hub:?}, which transformers {} does not have", known.transformers));
    }
    let byte_level = || std::fs::read_to_string(dir.join("tokenizer.json")).is_ok_and(|t| t.contains("\"ByteLevel\""));
    if hub == "LlamaTokenizer" && !incorrect && byte_level() {
        return (GENERIC.into(), format!("{hub_why} LlamaTokenizer over a byte-level tokenizer.json"));
    }
    match registered {
        Some(registered) if registered != hub && registered == GENERIC => {
            (GENERIC.into(), format!("{} ({hub_why} {hub} is not used for it)", registered_why()))
        }
        Some(registered) if registered != hub && incorrect => {
            (registered, format!("{} ({hub_why} {hub} is one transformers overrides)", registered_why()))
        }
        _ => (hub, hub_why.to_owned()),
    }
}

/// The token `value` names (a string or `{"content": …}`; null: none).
fn named(value: &Value) -> Option<String> {
    value.as_str().or_else(|| value.get("content")?.as_str()).map(str::to_owned)
}

/// Resolves `key` (`bos_token`, `eos_token`) as transformers does (see the module).
fn resolve_key(
    dir: &Path,
    key: &str,
    class: &(String, String),
    tokenizer_config: Option<&Value>,
    special_map: Option<&Value>,
    tokenizer: &Tokenizer,
) -> Result<SpecialToken, ScorerError> {
    let defaults = classes().classes.get(&class.0);
    let default = defaults.and_then(|d| if key == "bos_token" { d.bos_token.clone() } else { d.eos_token.clone() });
    let mut decided = (default, format!("the default of {} ({})", class.0, class.1));
    if let Some(value) = tokenizer_config.and_then(|c| c.get(key)) {
        decided = (named(value), format!("tokenizer_config.json's {key}"));
    }
    let legacy = tokenizer_config.is_none_or(|c| c.get("added_tokens_decoder").is_none());
    if let Some(value) = special_map.filter(|_| legacy).and_then(|m| m.get(key)) {
        decided = (named(value), format!("special_tokens_map.json's {key}"));
    }
    let (text, decided_by) = decided;
    let id = match text {
        None => None,
        Some(text) => match tokenizer.token_to_id(&text) {
            Some(id) => Some(id),
            None => {
                return Err(ScorerError::file(
                    dir,
                    format!("{decided_by} is {text:?}, which the tokenizer does not know (transformers would add it as a new token the model has no weights for)"),
                ))
            }
        },
    };
    Ok(SpecialToken { id, decided_by })
}

/// The BOS and EOS tokens of the directory `dir`, whose config.json is `config` and
/// whose tokenizer is `tokenizer`.
pub(crate) fn resolve(dir: &Path, config: &Value, tokenizer: &Tokenizer) -> Result<SpecialTokens, ScorerError> {
    let tokenizer_config = read_json(&dir.join("tokenizer_config.json"))?;
    let special_map = read_json(&dir.join("special_tokens_map.json"))?;
    let class = class_of(dir, config, tokenizer_config.as_ref());
    let key = |key: &str| resolve_key(dir, key, &class, tokenizer_config.as_ref(), special_map.as_ref(), tokenizer);
    Ok(SpecialTokens { bos: key("bos_token")?, eos: key("eos_token")? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_classes_parses_and_knows_the_common_families() {
        let known = classes();
        assert_eq!(known.model_types["gpt2"], "GPT2Tokenizer");
        assert_eq!(known.model_types["qwen2"], "Qwen2Tokenizer");
        assert_eq!(known.classes["LlamaTokenizer"].bos_token.as_deref(), Some("<s>"));
        assert_eq!(known.classes["Qwen2Tokenizer"].bos_token, None);
        assert_eq!(known.classes[GENERIC].eos_token, None);
        assert!(!known.model_types.contains_key("llama"), "transformers registers no class for llama");
    }

    #[test]
    fn an_unknown_class_is_the_generic_one_and_named() {
        let dir = tempfile::tempdir().expect("tmp");
        let config = serde_json::json!({"model_type": "llama"});
        let tc = serde_json::json!({"tokenizer_class": "ChatGLMTokenizer"});
        let (class, why) = class_of(dir.path(), &config, Some(&tc));
        assert_eq!(class, GENERIC);
        assert!(why.contains("tokenizer_config.json") && why.contains("ChatGLMTokenizer"), "{why}");
    }
}
