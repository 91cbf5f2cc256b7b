//! Rebuilds a byte-level BPE tokenizer (GPT-2 style, as SmolLM2 uses) from the
//! vocabulary and merges stored in a GGUF file's metadata, for files that come
//! without a tokenizer.json.


use tokenizers::decoders::byte_level::ByteLevel as ByteLevelDecoder;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, Tokenizer};

use super::llama::GgufFile;
use crate::ScorerError;

/// GGUF token type of control tokens such as `<|endoftext|>`.
const CONTROL_TOKEN: i32 = 3;

fn strings(gguf: &GgufFile, key: &str) -> Result<Vec<String>, ScorerError> {
    gguf.meta(key)?
        .to_vec()
        .map_err(|e| ScorerError::file(gguf.path(), format!("{key}: {e}")))?
        .iter()
        .map(|v| v.to_string().cloned().map_err(|e| ScorerError::file(gguf.path(), format!("{key}: {e}"))))
        .collect()
}

pub(crate) fn from_gguf(gguf: &GgufFile) -> Result<Tokenizer, ScorerError> {
    let model = gguf.meta("tokenizer.ggml.model")?.to_string().map_err(|e| ScorerError::file(gguf.path(), e))?;
    if model != "gpt2" {
        return Err(ScorerError::file(
            gguf.path(),
            format!("tokenizer model {model:?} is not supported without a tokenizer.json (supported: gpt2)"),
        ));
    }
    let tokens = strings(gguf, "tokenizer.ggml.tokens")?;
    let merges = strings(gguf, "tokenizer.ggml.merges")?
        .into_iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
                .ok_or_else(|| ScorerError::file(gguf.path(), format!("malformed merge {m:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let types: Vec<i32> = match gguf.meta("tokenizer.ggml.token_type") {
        Ok(v) => v.to_vec().map_err(|e| ScorerError::file(gguf.path(), e))?.iter().map(|t| t.to_i32().unwrap_or(1)).collect(),
        Err(_) => Vec::new(),
    };
    let vocab: Vocab = tokens.iter().cloned().zip(0u32..).collect();
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .build()
        .map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    let mut tokenizer = Tokenizer::new(bpe);
    tokenizer.with_pre_tokenizer(Some(Sequence::new(vec![
        Digits::new(true).into(),
        ByteLevel::new(false, true, true).into(),
    ])));
    tokenizer.with_decoder(Some(ByteLevelDecoder::default()));
    let special: Vec<AddedToken> = tokens
        .iter()
        .zip(&types)
        .filter(|(_, t)| **t == CONTROL_TOKEN)
        .map(|(s, _)| AddedToken::from(s.clone(), true))
        .collect();
    tokenizer
        .add_special_tokens(special)
        .map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    Ok(tokenizer)
}
