//! A model directory's tokenizer, from the files the Hub ships: `tokenizer.json` when
//! there is one; else a byte-level BPE from `vocab.json` + `merges.txt` (wrapped in
//! `<s> … </s>` for the RoBERTa family, bare for GPT-2); else a BERT WordPiece from
//! `vocab.txt` (lower-cased unless `tokenizer_config.json` says `"do_lower_case":
//! false`); else a SentencePiece model (see [`super::sentencepiece`]). Anything else is
//! refused with the file to add.

use std::path::Path;

use tokenizers::models::bpe::BPE;
use tokenizers::models::wordpiece::WordPiece;
use tokenizers::normalizers::BertNormalizer;
use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::processors::bert::BertProcessing;
use tokenizers::processors::roberta::RobertaProcessing;
use tokenizers::{Model, Tokenizer};

use super::config::{Config, ModelKind};
use super::sentencepiece::{add_tokenizer_json, sentencepiece_file, tokenizer_from_sentencepiece};
use crate::ScorerError;

fn tokenizer_error(e: impl std::fmt::Display) -> ScorerError {
    ScorerError::Tokenizer(e.to_string())
}

/// The tokenizer of the model directory `dir`, whose config is `config`.
pub(crate) fn load(dir: &Path, config: &Config) -> Result<Tokenizer, ScorerError> {
    let json = dir.join("tokenizer.json");
    if json.is_file() {
        return Tokenizer::from_file(&json).map_err(|e| ScorerError::file(&json, format!("not a readable tokenizer: {e}")));
    }
    let (bpe_vocab, merges) = (dir.join("vocab.json"), dir.join("merges.txt"));
    if bpe_vocab.is_file() && merges.is_file() {
        return byte_level_bpe(&bpe_vocab, &merges, config.kind == ModelKind::Masked);
    }
    let vocab = dir.join("vocab.txt");
    if vocab.is_file() {
        return wordpiece(dir, &vocab);
    }
    if let Some(spm) = sentencepiece_file(dir) {
        return tokenizer_from_sentencepiece(&spm, config.model_type);
    }
    Err(ScorerError::file(
        dir,
        format!("no tokenizer (tokenizer.json, vocab.json + merges.txt, vocab.txt or a SentencePiece model): {}", add_tokenizer_json(dir)),
    ))
}

fn wordpiece(dir: &Path, vocab: &Path) -> Result<Tokenizer, ScorerError> {
    let model = WordPiece::from_file(&vocab.to_string_lossy())
        .unk_token("[UNK]".into())
        .build()
        .map_err(|e| ScorerError::file(vocab, format!("not a WordPiece vocabulary: {e}")))?;
    let id = |token: &str| model.token_to_id(token).ok_or_else(|| ScorerError::file(vocab, format!("{token} is not in the vocabulary")));
    let (cls, sep) = (id("[CLS]")?, id("[SEP]")?);
    let mut tokenizer = Tokenizer::new(model);
    tokenizer.with_normalizer(Some(BertNormalizer::new(true, true, None, lower_case(dir)?))).map_err(tokenizer_error)?;
    tokenizer.with_pre_tokenizer(Some(BertPreTokenizer));
    tokenizer.with_post_processor(Some(BertProcessing::new(("[SEP]".into(), sep), ("[CLS]".into(), cls))));
    Ok(tokenizer)
}

/// Byte-level BPE without a prefix space; for the RoBERTa family `<s> … </s>` around
/// the text, offsets trimmed of the leading space that `Ġ` pieces carry.
fn byte_level_bpe(vocab: &Path, merges: &Path, roberta: bool) -> Result<Tokenizer, ScorerError> {
    let model = BPE::from_file(&vocab.to_string_lossy(), &merges.to_string_lossy())
        .build()
        .map_err(|e| ScorerError::file(vocab, format!("not a BPE vocabulary with {}: {e}", merges.display())))?;
    let id = |token: &str| model.token_to_id(token).ok_or_else(|| ScorerError::file(vocab, format!("{token} is not in the vocabulary")));
    let specials = if roberta { Some((id("<s>")?, id("</s>")?)) } else { None };
    let mut tokenizer = Tokenizer::new(model);
    tokenizer.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    if let Some((cls, sep)) = specials {
        tokenizer.with_post_processor(Some(
            RobertaProcessing::new(("</s>".into(), sep), ("<s>".into(), cls)).trim_offsets(true).add_prefix_space(false),
        ));
    }
    Ok(tokenizer)
}

fn lower_case(dir: &Path) -> Result<bool, ScorerError> {
    let path = dir.join("tokenizer_config.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(true) };
    let config: serde_json::Value = serde_json::from_str(&text).map_err(|e| ScorerError::file(&path, format!("not valid JSON: {e}")))?;
    Ok(config.get("do_lower_case").and_then(serde_json::Value::as_bool).unwrap_or(true))
}
