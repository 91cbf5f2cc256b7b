//! Causal language models: the log-probability of a whole sentence, summed over
//! every token, from one forward pass per batch of sentences.
//!
//! Each sentence is scored after a start token (the model's `<|endoftext|>` when it
//! has one, otherwise its BOS token), so that its first word is scored like the
//! others: log p(sentence) = sum over its tokens of log p(token | start, earlier tokens).

mod decoder;
mod full_precision;
mod gguf;
mod next_piece;
mod tokenizer;

use std::path::Path;

use candle_core::{Device, IndexOp, Tensor};
use tokenizers::Tokenizer;

pub use full_precision::write_full_precision;

use crate::ScorerError;
use decoder::{Decoder, Family, Layout, Shape};
use gguf::GgufFile;

/// Padded tokens per forward pass in [`CausalLm::score`]: large enough for the
/// matrix products to run efficiently, small enough to keep the logits
/// (`tokens x vocabulary` floats) in a few tens of megabytes.
pub const BATCH_TOKENS: usize = 256;

/// A causal LM ready to score sentences.
pub struct CausalLm {
    model: Decoder,
    tokenizer: Tokenizer,
    start: u32,
    device: Device,
    /// What each piece is to words (the Shannon game), worked out when first needed.
    piece_kinds: std::sync::OnceLock<Vec<crate::shannon::PieceKind>>,
}

/// The tokens of one sentence and the log-probability of each given the ones before.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenScores {
    pub ids: Vec<u32>,
    pub log_probs: Vec<f32>,
}

impl TokenScores {
    /// log p(sentence): the sum over its tokens, accumulated in f64.
    pub fn total(&self) -> f64 {
        self.log_probs.iter().map(|&l| f64::from(l)).sum()
    }
}

impl CausalLm {
    /// Loads a Llama or Gemma 3 GGUF file, with the tokenizer rebuilt from its metadata.
    pub fn from_gguf(path: &Path, device: &Device) -> Result<Self, ScorerError> {
        let mut gguf = GgufFile::open(path)?;
        let tokenizer = tokenizer::from_gguf(&gguf)?;
        let start = match tokenizer.token_to_id("<|endoftext|>") {
            Some(id) => id,
            None => u32::try_from(gguf.meta_u32("tokenizer.ggml.bos_token_id")?)
                .map_err(|e| ScorerError::file(path, e))?,
        };
        let model = Decoder::load(&mut gguf, device)?;
        Self::checked(model, tokenizer, start, device, path)
    }

    fn checked(model: Decoder, tokenizer: Tokenizer, start: u32, device: &Device, path: &Path) -> Result<Self, ScorerError> {
        if tokenizer.get_vocab_size(true) > model.vocab_size() {
            return Err(ScorerError::file(path, "the tokenizer has more tokens than the model"));
        }
        Ok(CausalLm { model, tokenizer, start, device: device.clone(), piece_kinds: std::sync::OnceLock::new() })
    }

    /// Loads a Llama-architecture Hugging Face directory (config.json with
    /// `"model_type": "llama"`, tokenizer.json, model.safetensors or pytorch_model.bin).
    pub fn from_hf_dir(dir: &Path, device: &Device) -> Result<Self, ScorerError> {
        let (config, config_path) = crate::hf::read_config(dir)?;
        let arch = config.get("model_type").and_then(serde_json::Value::as_str).unwrap_or_default();
        if arch != "llama" {
            return Err(ScorerError::Architecture { path: config_path, arch: arch.to_owned(), supported: "llama" });
        }
        let field = |names: &[&str]| crate::hf::field(&config, &config_path, names);
        // newer configs keep rope_theta (and any scaling) under rope_parameters
        let rope = config.get("rope_parameters").unwrap_or(&config);
        let n_head = field(&["num_attention_heads"])?;
        let dim = field(&["hidden_size"])?;
        let shape = Shape {
            family: Family::Llama,
            n_head,
            n_kv_head: field(&["num_key_value_heads"]).unwrap_or(n_head),
            n_layer: field(&["num_hidden_layers"])?,
            dim,
            head_dim: field(&["head_dim"]).unwrap_or(dim / n_head.max(1)),
            context: field(&["max_position_embeddings"])?,
            eps: config.get("rms_norm_eps").and_then(serde_json::Value::as_f64).unwrap_or(1e-6),
            rope_base: rope.get("rope_theta").and_then(serde_json::Value::as_f64).unwrap_or(10_000.0) as f32,
        };
        let unsupported = [
            ("rope_type", rope.get("rope_type").and_then(serde_json::Value::as_str).is_some_and(|t| t != "default")),
            ("attention_bias", config.get("attention_bias").and_then(serde_json::Value::as_bool) == Some(true)),
            ("mlp_bias", config.get("mlp_bias").and_then(serde_json::Value::as_bool) == Some(true)),
        ];
        if let Some((what, _)) = unsupported.iter().find(|(_, bad)| *bad) {
            return Err(ScorerError::file(&config_path, format!("unsupported {what} setting")));
        }
        let weights = crate::hf::Weights::open(dir, device)?;
        let has_output = weights.tensors.contains_key("lm_head.weight");
        let model = Decoder::assemble(&shape, Layout::HuggingFace, has_output, dir, &mut |name| weights.get(name), device)?;
        let json = dir.join("tokenizer.json");
        let tokenizer =
            Tokenizer::from_file(&json).map_err(|e| ScorerError::file(&json, format!("not a readable tokenizer: {e}")))?;
        let start = match tokenizer.token_to_id("<|endoftext|>") {
            Some(id) => id,
            None => u32::try_from(field(&["bos_token_id"])?).map_err(|e| ScorerError::file(&config_path, e))?,
        };
        Self::checked(model, tokenizer, start, device, dir)
    }

    /// Token ids of `text`, without the start token.
    pub fn tokenize(&self, text: &str) -> Result<Vec<u32>, ScorerError> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The start token every sentence is scored after.
    pub fn start_token(&self) -> u32 {
        self.start
    }

    /// Scores sentences, any number of them: they are tokenized, sorted by length
    /// and run in batches of similar length (at most [`BATCH_TOKENS`] padded tokens
    /// each), so little compute goes to padding; results come back in input order.
    pub fn score(&self, sentences: &[&str]) -> Result<Vec<TokenScores>, ScorerError> {
        let ids = sentences
            .iter()
            .map(|s| {
                let ids = self.tokenize(s)?;
                if ids.is_empty() {
                    return Err(ScorerError::Input(format!("empty sentence {s:?}")));
                }
                Ok(ids)
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.score_batched(&ids)
    }

    /// The log-probability of each token of `continuation` after `prefix`, for each
    /// (prefix, continuation): the two are tokenized apart, so the continuation's
    /// pieces are its own whatever the prefix ends with.
    pub fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        let prefixes = pairs.iter().map(|(prefix, _)| self.tokenize(prefix)).collect::<Result<Vec<_>, _>>()?;
        self.tail_log_probs(prefixes.into_iter().zip(pairs.iter().map(|(_, c)| *c)))
    }

    /// The log-probability of each token of each continuation after its prefix of
    /// token ids (without the start token).
    fn tail_log_probs<'a>(&self, pairs: impl Iterator<Item = (Vec<u32>, &'a str)>) -> Result<Vec<Vec<f32>>, ScorerError> {
        let mut ids = Vec::new();
        let mut lengths = Vec::new();
        for (mut tokens, continuation) in pairs {
            let tail = self.tokenize(continuation)?;
            if tail.is_empty() {
                return Err(ScorerError::Input(format!("empty continuation {continuation:?}")));
            }
            lengths.push(tail.len());
            tokens.extend(tail);
            ids.push(tokens);
        }
        let scores = self.score_batched(&ids)?;
        Ok(scores.into_iter().zip(lengths).map(|(s, n)| s.log_probs[s.log_probs.len() - n..].to_vec()).collect())
    }

    /// Scores token sequences in length-sorted batches; results in input order.
    fn score_batched(&self, ids: &[Vec<u32>]) -> Result<Vec<TokenScores>, ScorerError> {
        let widths: Vec<usize> = ids.iter().map(|t| t.len() + 1).collect();
        let mut scores: Vec<Option<TokenScores>> = vec![None; ids.len()];
        for now in crate::batching::by_length(&widths, BATCH_TOKENS) {
            let batch: Vec<Vec<u32>> = now.iter().map(|&i| ids[i].clone()).collect();
            for (&i, s) in now.iter().zip(self.score_ids(&batch)?) {
                scores[i] = Some(s);
            }
        }
        Ok(scores.into_iter().flatten().collect())
    }

    /// Scores token sequences (without the start token) in one forward pass.
    pub fn score_ids(&self, batch: &[Vec<u32>]) -> Result<Vec<TokenScores>, ScorerError> {
        let Some(longest) = batch.iter().map(Vec::len).max() else { return Ok(Vec::new()) };
        let width = longest + 1;
        if width > self.model.max_positions() {
            return Err(ScorerError::Input(format!(
                "a sentence of {longest} tokens is longer than the {} the scorer handles",
                self.model.max_positions() - 1
            )));
        }
        let mut flat = Vec::with_capacity(batch.len() * width);
        for ids in batch {
            flat.push(self.start);
            flat.extend_from_slice(ids);
            flat.resize(flat.len() + width - 1 - ids.len(), self.start);
        }
        let tokens = Tensor::from_vec(flat, (batch.len(), width), &self.device)?;
        let log_probs = self.model.log_probs(&tokens)?;
        batch
            .iter()
            .enumerate()
            .map(|(row, ids)| {
                // position t predicts token t + 1: take the log-prob of each actual next token
                let rows = log_probs.i((row, 0..ids.len()))?;
                let next = Tensor::new(ids.as_slice(), &self.device)?.unsqueeze(1)?;
                let picked = rows.gather(&next, 1)?.squeeze(1)?.to_vec1::<f32>()?;
                Ok(TokenScores { ids: ids.clone(), log_probs: picked })
            })
            .collect()
    }
}

/// A causal LM's word score is the log-probability of the whole sentence with the
/// word in the blank (the target: the sentence as written; the distractor: put in
/// the target's place, in its case); both sentences of every context go through [`CausalLm::score`]
/// together, so they share batches.
impl crate::ContextScorer for CausalLm {
    fn score_contexts(&self, contexts: &[crate::Context<'_>]) -> Result<Vec<crate::WordLogProbs>, ScorerError> {
        let mut sentences = Vec::with_capacity(2 * contexts.len());
        for c in contexts {
            sentences.push(c.text.to_owned());
            sentences.push(c.filled(c.distractor)?.0);
        }
        let refs: Vec<&str> = sentences.iter().map(String::as_str).collect();
        let scores = self.score(&refs)?;
        Ok(scores
            .chunks(2)
            .map(|pair| crate::WordLogProbs { target: pair[0].total(), distractor: pair[1].total() })
            .collect())
    }
}
