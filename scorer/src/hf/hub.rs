//! Models named by their Hub id (`bert-base-uncased`, `almanach/camembert-base`):
//! found in the Hugging Face cache as Python users have it, or downloaded into it.
//!
//! The cache is the one `huggingface_hub` uses: `$HF_HUB_CACHE`, else
//! `$HUGGINGFACE_HUB_CACHE`, else `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`,
//! else `~/.cache/huggingface/hub`. A model there is
//! `models--ORG--NAME/snapshots/REV/` with `refs/main` naming REV (the `hf-hub`
//! crate reads and writes that layout). Downloads go through `hf-hub` unless
//! `HF_HUB_OFFLINE` is set; they fetch config.json, the tokenizer's files and the
//! checkpoint (safetensors first, shards with their index).

use std::path::{Path, PathBuf};

use hf_hub::api::sync::ApiBuilder;
use hf_hub::{Cache, Repo};

use crate::ScorerError;

/// The cache folder `huggingface_hub` uses, from the environment.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("HF_HUB_CACHE")
        .or_else(|| var("HUGGINGFACE_HUB_CACHE"))
        .or_else(|| var("HF_HOME").map(|h| h.join("hub")))
        .or_else(|| var("XDG_CACHE_HOME").map(|c| c.join("huggingface/hub")))
        .unwrap_or_else(|| var("HOME").unwrap_or_default().join(".cache/huggingface/hub"))
}

/// Whether `HF_HUB_OFFLINE` forbids downloads (`1`, `true`, `yes`, `on`).
fn offline() -> bool {
    std::env::var("HF_HUB_OFFLINE").is_ok_and(|v| ["1", "true", "yes", "on"].contains(&v.trim().to_ascii_lowercase().as_str()))
}

/// Whether `spec` reads as a Hub id rather than a path: one or two names of letters,
/// digits, `-`, `_` and `.`, not starting with a dot.
pub fn is_model_id(spec: &str) -> bool {
    let parts: Vec<&str> = spec.split('/').collect();
    (1..=2).contains(&parts.len())
        && parts.iter().all(|p| !p.is_empty() && !p.starts_with('.') && p.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)))
}

/// The model directory of Hub id `id` in the cache at `cache`, if its config.json is there.
pub fn cached(cache: &Path, id: &str) -> Option<PathBuf> {
    let repo = Cache::new(cache.to_owned()).repo(Repo::model(id.to_owned()));
    repo.get("config.json").and_then(|config| config.parent().map(Path::to_path_buf))
}

/// The files of a repository that a model directory needs.
fn needed(files: &[String]) -> Vec<String> {
    let has = |f: &str| files.iter().any(|x| x == f);
    let mut wanted: Vec<String> = [
        "config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        // the older layout names its BOS and EOS here (see super::special_tokens)
        "special_tokens_map.json",
        "vocab.txt",
        "vocab.json",
        "merges.txt",
        "sentencepiece.bpe.model",
        "spiece.model",
        "tokenizer.model",
    ]
    .into_iter()
    .filter(|f| has(f))
    .map(str::to_owned)
    .collect();
    let weights = ["model.safetensors", "model.safetensors.index.json", "pytorch_model.bin", "pytorch_model.bin.index.json"];
    if let Some(first) = weights.into_iter().find(|f| has(f)) {
        wanted.push(first.to_owned());
        if first.ends_with(".index.json") {
            let stem = first.trim_end_matches(".index.json").trim_end_matches(".safetensors").trim_end_matches(".bin");
            let shard_ext = if first.contains("safetensors") { ".safetensors" } else { ".bin" };
            wanted.extend(files.iter().filter(|f| f.starts_with(&format!("{stem}-")) && f.ends_with(shard_ext)).cloned());
        }
    }
    wanted
}

/// The directory of Hub model `id`: from the cache, else downloaded into it.
pub fn resolve(id: &str) -> Result<PathBuf, ScorerError> {
    let cache = cache_dir();
    if let Some(dir) = cached(&cache, id) {
        return Ok(dir);
    }
    let not_found = |why: String| {
        ScorerError::Input(format!("model {id:?} is neither a path nor in the Hugging Face cache at {} ({why})", cache.display()))
    };
    if offline() {
        return Err(not_found("HF_HUB_OFFLINE is set, so it is not downloaded".into()));
    }
    let api = ApiBuilder::from_cache(Cache::new(cache.clone()))
        .with_progress(true)
        .build()
        .map_err(|e| not_found(format!("the Hub client did not start: {e}")))?;
    let repo = api.model(id.to_owned());
    let info = repo.info().map_err(|e| not_found(format!("the Hub did not answer: {e}")))?;
    let files: Vec<String> = info.siblings.into_iter().map(|s| s.rfilename).collect();
    let mut dir = None;
    for file in needed(&files) {
        let path = repo.get(&file).map_err(|e| not_found(format!("downloading {file} failed: {e}")))?;
        dir = path.parent().map(Path::to_path_buf);
    }
    dir.filter(|d| d.join("config.json").is_file()).ok_or_else(|| not_found("the repository has no config.json".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_paths_are_told_apart() {
        for id in ["bert-base-uncased", "almanach/camembert-base", "Qwen/Qwen2.5-0.5B"] {
            assert!(is_model_id(id), "{id}");
        }
        for path in ["/models/bert", "./bert", "a/b/c", "../x", "model dir", ""] {
            assert!(!is_model_id(path), "{path}");
        }
    }

    #[test]
    fn a_checkpoint_brings_its_shards_and_tokenizer() {
        let files: Vec<String> = [
            "README.md",
            "config.json",
            "tokenizer.json",
            "model.safetensors.index.json",
            "model-00001-of-00002.safetensors",
            "model-00002-of-00002.safetensors",
            "pytorch_model.bin",
            "onnx/model.onnx",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            needed(&files),
            [
                "config.json",
                "tokenizer.json",
                "model.safetensors.index.json",
                "model-00001-of-00002.safetensors",
                "model-00002-of-00002.safetensors"
            ]
        );
    }
}
