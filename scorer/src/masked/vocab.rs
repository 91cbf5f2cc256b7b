//! A masked LM's tokenizer: `tokenizer.json` when the directory has one; else a
//! RoBERTa byte-level BPE tokenizer rebuilt from `vocab.json` + `merges.txt`; else
//! a BERT WordPiece tokenizer rebuilt from `vocab.txt` (lower-cased unless
//! `tokenizer_config.json` says `"do_lower_case": false`).

use std::path::Path;

use tokenizers::models::bpe::BPE;
use tokenizers::models::wordpiece::WordPiece;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::processors::roberta::RobertaProcessing;
use tokenizers::normalizers::BertNormalizer;
use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
use tokenizers::processors::bert::BertProcessing;
use tokenizers::Tokenizer;

use crate::ScorerError;

pub fn load(dir: &Path) -> Result<Tokenizer, ScorerError> {
    let json = dir.join("tokenizer.json");
    if json.is_file() {
        return Tokenizer::from_file(&json).map_err(|e| ScorerError::file(&json, format!("not a readable tokenizer: {e}")));
    }
    let (bpe_vocab, merges) = (dir.join("vocab.json"), dir.join("merges.txt"));
    if bpe_vocab.is_file() && merges.is_file() {
        return byte_level_bpe(&bpe_vocab, &merges);
    }
    let vocab = dir.join("vocab.txt");
    if !vocab.is_file() {
        return Err(ScorerError::file(dir, "no tokenizer.json, vocab.json + merges.txt, or vocab.txt"));
    }
    let path = vocab.to_string_lossy().into_owned();
    let model = WordPiece::from_file(&path)
        .unk_token("[UNK]".into())
        .build()
        .map_err(|e| ScorerError::file(&vocab, format!("not a WordPiece vocabulary: {e}")))?;
    let id = |token: &str| {
        model_token(&model, token).ok_or_else(|| ScorerError::file(&vocab, format!("{token} is not in the vocabulary")))
    };
    let (cls, sep) = (id("[CLS]")?, id("[SEP]")?);
    let mut tokenizer = Tokenizer::new(model);
    tokenizer
        .with_normalizer(Some(BertNormalizer::new(true, true, None, lower_case(dir)?)))
        .map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    tokenizer.with_pre_tokenizer(Some(BertPreTokenizer));
    tokenizer.with_post_processor(Some(BertProcessing::new(("[SEP]".into(), sep), ("[CLS]".into(), cls))));
    Ok(tokenizer)
}

/// RoBERTa's tokenizer: byte-level BPE without a prefix space, `<s> ... </s>` around
/// the text, offsets trimmed of the leading space that `Ġ` pieces carry.
fn byte_level_bpe(vocab: &Path, merges: &Path) -> Result<Tokenizer, ScorerError> {
    let model = BPE::from_file(&vocab.to_string_lossy(), &merges.to_string_lossy())
        .build()
        .map_err(|e| ScorerError::file(vocab, format!("not a BPE vocabulary with {}: {e}", merges.display())))?;
    let id = |token: &str| {
        use tokenizers::Model;
        model.token_to_id(token).ok_or_else(|| ScorerError::file(vocab, format!("{token} is not in the vocabulary")))
    };
    let (cls, sep) = (id("<s>")?, id("</s>")?);
    let mut tokenizer = Tokenizer::new(model);
    tokenizer.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    tokenizer.with_post_processor(Some(
        RobertaProcessing::new(("</s>".into(), sep), ("<s>".into(), cls)).trim_offsets(true).add_prefix_space(false),
    ));
    Ok(tokenizer)
}

fn model_token(model: &WordPiece, token: &str) -> Option<u32> {
    use tokenizers::Model;
    model.token_to_id(token)
}

fn lower_case(dir: &Path) -> Result<bool, ScorerError> {
    let path = dir.join("tokenizer_config.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(true) };
    let config: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| ScorerError::file(&path, format!("not valid JSON: {e}")))?;
    Ok(config.get("do_lower_case").and_then(serde_json::Value::as_bool).unwrap_or(true))
}
