//! Rebuilds a tokenizer from a GGUF file's metadata, for files that come without a
//! tokenizer.json, as llama.cpp tokenizes:
//!
//! - `gpt2`: byte-level BPE from the stored vocabulary and merges (SmolLM2);
//! - `llama`: SentencePiece BPE from the stored vocabulary and piece scores (Gemma 3).
//!   SentencePiece merges, at each step, the adjacent pair whose concatenation is the
//!   highest-scoring piece; that is BPE with one merge per way of splitting a piece in
//!   two, ranked by the piece's score, which is how it is built here. Spaces become
//!   `▁`, characters outside the vocabulary fall back to byte pieces `<0xNN>`.
//!
//! Control tokens (`<bos>`, `<|endoftext|>`...) are matched only as special tokens;
//! user-defined ones (Gemma's runs of spaces and newlines, HTML tags) are cut out of
//! the raw text before the rest is tokenized, as llama.cpp does.

use std::collections::HashSet;

use tokenizers::decoders::byte_fallback::ByteFallback;
use tokenizers::decoders::byte_level::ByteLevel as ByteLevelDecoder;
use tokenizers::decoders::fuse::Fuse;
use tokenizers::decoders::sequence::Sequence as DecoderSequence;
use tokenizers::models::bpe::{Merges, Vocab, BPE};
use tokenizers::normalizers::replace::Replace;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, Tokenizer};

use super::gguf::GgufFile;
use crate::ScorerError;

/// GGUF token types.
const CONTROL_TOKEN: i32 = 3;
const USER_DEFINED_TOKEN: i32 = 4;

fn strings(gguf: &GgufFile, key: &str) -> Result<Vec<String>, ScorerError> {
    gguf.meta(key)?
        .to_vec()
        .map_err(|e| ScorerError::file(gguf.path(), format!("{key}: {e}")))?
        .iter()
        .map(|v| v.to_string().cloned().map_err(|e| ScorerError::file(gguf.path(), format!("{key}: {e}"))))
        .collect()
}

pub(crate) fn from_gguf(gguf: &GgufFile) -> Result<Tokenizer, ScorerError> {
    let tokens = strings(gguf, "tokenizer.ggml.tokens")?;
    let types: Vec<i32> = match gguf.meta("tokenizer.ggml.token_type") {
        Ok(v) => v.to_vec().map_err(|e| ScorerError::file(gguf.path(), e))?.iter().map(|t| t.to_i32().unwrap_or(1)).collect(),
        Err(_) => Vec::new(),
    };
    let mut tokenizer = match gguf.meta_str("tokenizer.ggml.model")? {
        "gpt2" => byte_level_bpe(gguf, &tokens)?,
        "llama" => sentencepiece_bpe(gguf, &tokens)?,
        model => {
            return Err(ScorerError::file(
                gguf.path(),
                format!("tokenizer model {model:?} is not supported without a tokenizer.json (supported: gpt2, llama)"),
            ))
        }
    };
    let added = |kind: i32| tokens.iter().zip(&types).filter(move |(_, t)| **t == kind).map(|(s, _)| s.clone());
    let special: Vec<AddedToken> = added(CONTROL_TOKEN).map(|s| AddedToken::from(s, true)).collect();
    let user: Vec<AddedToken> = added(USER_DEFINED_TOKEN).map(|s| AddedToken::from(s, false).normalized(false)).collect();
    tokenizer.add_special_tokens(special).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    tokenizer.add_tokens(user).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    Ok(tokenizer)
}

/// Token string -> id; a string stored twice keeps its first id.
fn vocab(tokens: &[String]) -> Vocab {
    let mut vocab = Vocab::with_capacity(tokens.len());
    for (token, id) in tokens.iter().zip(0u32..) {
        vocab.entry(token.clone()).or_insert(id);
    }
    vocab
}

fn bpe_error(e: impl std::fmt::Display) -> ScorerError {
    ScorerError::Tokenizer(e.to_string())
}

fn byte_level_bpe(gguf: &GgufFile, tokens: &[String]) -> Result<Tokenizer, ScorerError> {
    let merges = strings(gguf, "tokenizer.ggml.merges")?
        .into_iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
                .ok_or_else(|| ScorerError::file(gguf.path(), format!("malformed merge {m:?}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let bpe = BPE::builder().vocab_and_merges(vocab(tokens), merges).build().map_err(bpe_error)?;
    let mut tokenizer = Tokenizer::new(bpe);
    tokenizer.with_pre_tokenizer(Some(Sequence::new(vec![Digits::new(true).into(), ByteLevel::new(false, true, true).into()])));
    tokenizer.with_decoder(Some(ByteLevelDecoder::default()));
    Ok(tokenizer)
}

fn sentencepiece_bpe(gguf: &GgufFile, tokens: &[String]) -> Result<Tokenizer, ScorerError> {
    let scores: Vec<f32> = gguf
        .meta("tokenizer.ggml.scores")?
        .to_vec()
        .map_err(|e| ScorerError::file(gguf.path(), e))?
        .iter()
        .map(|v| v.to_f32().map_err(|e| ScorerError::file(gguf.path(), format!("tokenizer.ggml.scores: {e}"))))
        .collect::<Result<_, _>>()?;
    if scores.len() != tokens.len() {
        return Err(ScorerError::file(gguf.path(), "tokenizer.ggml.scores and tokenizer.ggml.tokens differ in length"));
    }
    let vocab = vocab(tokens);
    let unk = gguf.meta_u32("tokenizer.ggml.unknown_token_id").ok().and_then(|id| tokens.get(id).cloned());
    let mut builder = BPE::builder().vocab_and_merges(vocab.clone(), merges_by_score(&vocab, tokens, &scores)).byte_fallback(true);
    if let Some(unk) = unk {
        builder = builder.unk_token(unk);
    }
    let mut tokenizer = Tokenizer::new(builder.build().map_err(bpe_error)?);
    tokenizer.with_normalizer(Some(Replace::new(" ", "▁").map_err(bpe_error)?)).map_err(bpe_error)?;
    tokenizer.with_decoder(Some(DecoderSequence::new(vec![
        Replace::new("▁", " ").map_err(bpe_error)?.into(),
        ByteFallback::new().into(),
        Fuse::new().into(),
    ])));
    Ok(tokenizer)
}

/// Every split of a piece into two pieces of the vocabulary, best-scoring piece first
/// (ties: lower id first). A piece made in several ways gets one merge per way.
fn merges_by_score(vocab: &Vocab, tokens: &[String], scores: &[f32]) -> Merges {
    let mut order: Vec<usize> = (0..tokens.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut merges = Merges::new();
    for i in order {
        let piece = tokens[i].as_str();
        for (cut, _) in piece.char_indices().skip(1) {
            let (left, right) = piece.split_at(cut);
            if vocab.contains_key(left) && vocab.contains_key(right) && seen.insert((left, right)) {
                merges.push((left.to_owned(), right.to_owned()));
            }
        }
    }
    merges
}
