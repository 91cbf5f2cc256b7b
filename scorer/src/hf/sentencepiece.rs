//! Tokenizers of checkpoints that ship only a SentencePiece model, built as
//! `transformers` builds them when it converts such a file.
//!
//! Converted: the unigram models of XLM-R and CamemBERT (`sentencepiece.bpe.model`,
//! which despite its name holds a unigram model): the pieces with their scores, moved
//! to the fairseq ids those checkpoints use, SentencePiece's own normalization (its
//! precompiled character map), words cut at whitespace with `▁` before each, and
//! `<s> … </s>` around the text. Any other SentencePiece file is refused with the
//! file to add: tokenizer.json, which `transformers` writes from it.

use std::path::{Path, PathBuf};

use sentencepiece_model::{ModelType, SentencePieceModel};
use tokenizers::decoders::metaspace::Metaspace as MetaspaceDecoder;
use tokenizers::models::unigram::Unigram;
use tokenizers::normalizers::Precompiled;
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::whitespace::WhitespaceSplit;
use tokenizers::processors::template::TemplateProcessing;
use tokenizers::{AddedToken, Tokenizer};

use crate::ScorerError;

/// SentencePiece model files as checkpoints name them.
const FILES: [&str; 3] = ["sentencepiece.bpe.model", "spiece.model", "tokenizer.model"];

/// The SentencePiece model file of `dir`, if it has one.
pub(crate) fn sentencepiece_file(dir: &Path) -> Option<PathBuf> {
    FILES.iter().map(|f| dir.join(f)).find(|p| p.is_file())
}

/// What to add to a directory whose tokenizer cannot be read: the command that makes it.
pub(crate) fn add_tokenizer_json(dir: &Path) -> String {
    format!(
        "add tokenizer.json to {} (python -c \"from transformers import AutoTokenizer; \
         AutoTokenizer.from_pretrained('{0}').save_pretrained('{0}')\")",
        dir.display()
    )
}

/// The tokenizer of a `model_type` checkpoint from its SentencePiece file `path`.
pub(crate) fn tokenizer_from_sentencepiece(path: &Path, model_type: &str) -> Result<Tokenizer, ScorerError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let refuse = |why: &str| ScorerError::file(path, format!("{why}: {}", add_tokenizer_json(dir)));
    let layout = match model_type {
        "xlm-roberta" => Layout::XlmRoberta,
        "camembert" => Layout::Camembert,
        _ => return Err(refuse(&format!("SentencePiece files of {model_type} models are not converted here"))),
    };
    let model =
        SentencePieceModel::from_file(path).map_err(|e| ScorerError::file(path, format!("not a readable SentencePiece model: {e}")))?;
    let trainer = model.trainer().ok_or_else(|| ScorerError::file(path, "the SentencePiece model has no trainer settings"))?;
    if trainer.model_type() != ModelType::Unigram {
        return Err(refuse(&format!("a {:?} SentencePiece model, not a unigram one", trainer.model_type())));
    }
    let pieces: Vec<(String, f64)> = model.pieces.iter().map(|p| (p.piece().to_owned(), f64::from(p.score()))).collect();
    let (vocab, unk_id) = layout.vocab(&pieces).ok_or_else(|| refuse("too few pieces for the checkpoint's layout"))?;
    let specials: Vec<AddedToken> = layout.specials().iter().map(|s| AddedToken::from(*s, true).normalized(false)).collect();
    let id = |token: &str| {
        vocab
            .iter()
            .position(|(t, _)| t == token)
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| ScorerError::file(path, format!("{token} is not in the vocabulary")))
    };
    let post = TemplateProcessing::builder()
        .try_single("<s> $A </s>")
        .and_then(|b| b.try_pair("<s> $A </s> </s> $B </s>"))
        .map_err(|e| ScorerError::Tokenizer(e.to_string()))?
        .special_tokens(vec![("<s>", id("<s>")?), ("</s>", id("</s>")?)])
        .build()
        .map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    let unigram = Unigram::from(vocab, Some(unk_id), false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    let mut tokenizer = Tokenizer::new(unigram);
    let charsmap = model.normalizer().map(|n| n.precompiled_charsmap()).unwrap_or_default();
    if !charsmap.is_empty() {
        let precompiled = Precompiled::from(charsmap).map_err(|e| ScorerError::file(path, format!("unreadable normalization map: {e}")))?;
        tokenizer.with_normalizer(Some(precompiled)).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    }
    tokenizer
        .with_pre_tokenizer(Some(Sequence::new(vec![WhitespaceSplit.into(), Metaspace::new('▁', PrependScheme::Always, true).into()])));
    tokenizer.with_decoder(Some(MetaspaceDecoder::new('▁', PrependScheme::Always, true)));
    tokenizer.with_post_processor(Some(post));
    tokenizer.add_special_tokens(specials).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
    Ok(tokenizer)
}

/// Where a family's checkpoints put SentencePiece's pieces.
#[derive(Clone, Copy)]
enum Layout {
    /// fairseq's four specials, then the pieces after SentencePiece's three, then `<mask>`.
    XlmRoberta,
    /// CamemBERT's five tokens (two placeholders and an unused `<unk>` copy scored
    /// -100), then the pieces after SentencePiece's `<unk>`, then `<mask>`.
    Camembert,
}

impl Layout {
    /// The vocabulary with scores, and the id of `<unk>`.
    fn vocab(self, pieces: &[(String, f64)]) -> Option<(Vec<(String, f64)>, usize)> {
        let (head, skip): (&[(&str, f64)], usize) = match self {
            Layout::XlmRoberta => (&[("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)], 3),
            Layout::Camembert => {
                (&[("<s>NOTUSED", 0.0), ("<pad>", 0.0), ("</s>NOTUSED", 0.0), ("<unk>", 0.0), ("<unk>NOTUSED", -100.0)], 1)
            }
        };
        let mut vocab: Vec<(String, f64)> = head.iter().map(|(t, s)| ((*t).to_owned(), *s)).collect();
        vocab.extend(pieces.get(skip..)?.iter().cloned());
        vocab.push(("<mask>".to_owned(), 0.0));
        Some((vocab, 3))
    }

    fn specials(self) -> &'static [&'static str] {
        match self {
            Layout::XlmRoberta => &["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
            Layout::Camembert => &["<s>NOTUSED", "</s>NOTUSED", "<unk>NOTUSED", "<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        }
    }
}
