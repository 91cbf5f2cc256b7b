//! Causal language models: the log-probability of a whole sentence, summed over its
//! tokens, from one forward pass per batch of sentences.
//!
//! A sentence is read after a start token chosen by [`StartToken`]. By default
//! (`auto`) it is what the model's reference reader puts there: for a Hugging Face
//! directory, lm-evaluation-harness's loglikelihood prefix (`HFLM.prefix_token_id`):
//! the BOS token transformers gives the directory's tokenizer, else its EOS token
//! (resolved from the files as transformers resolves them: [`crate::hf`]); for a GGUF
//! file, BOS where llama.cpp adds one (`tokenizer.ggml.add_bos_token`, true by
//! default for SentencePiece vocabularies), else the end-of-text token, as the
//! harness does for a tokenizer without BOS. log p(sentence) = the sum over its
//! scored tokens of log p(token | start, earlier tokens). Without a start token the
//! first token has nothing to be predicted from and is not scored. A sentence is
//! tokenized once, as written; its words' scores come from those pieces
//! ([`words`]). The convention applied is described by [`CausalLm::convention`] and
//! stored with the scores.

mod architecture;
mod decoder;
mod full_precision;
mod gguf;
mod next_piece;
mod rope;
mod shared;
mod tokenizer;
pub mod words;

use std::collections::HashMap;
use std::path::Path;

use candle_core::Device;
use tokenizers::Tokenizer;

pub use full_precision::write_full_precision;

use crate::convention::{Conventions, FirstToken, StartToken};
use crate::hf::Config;
use crate::ScorerError;
use decoder::Decoder;
use gguf::GgufFile;
use shared::{consecutive_groups, Packed, Unit};

/// Tokens per forward pass in [`CausalLm::score`] on the CPU: rows run packed without
/// padding, so this bounds the activations' memory whatever the sentences' lengths (a
/// longer sentence goes alone). A GPU takes [`crate::batching::GPU_BATCH_TOKENS`].
pub const BATCH_TOKENS: usize = 512;

/// The word-start pieces of a vocabulary (see [`words`]).
pub(crate) struct WordStarts {
    /// The marker: the first character of the piece a lone space becomes.
    marker: Option<char>,
    /// For every id the model has: 1 for a piece that begins a word, else 0.
    mask: Vec<f32>,
}

/// A causal LM ready to score sentences.
pub struct CausalLm {
    model: Decoder,
    tokenizer: Tokenizer,
    start: Start,
    /// What each piece is to the top-word search (the Shannon game), worked out when
    /// first needed.
    piece_kinds: std::sync::OnceLock<Vec<crate::guess::PieceKind>>,
    /// The pieces that begin a word (the word-start correction), when first needed.
    word_starts: std::sync::OnceLock<WordStarts>,
}

/// The start token a model reads before each sentence, as resolved for this model.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Start {
    /// The token and its text, or none.
    token: Option<(u32, String)>,
    /// What was asked for (`auto` or the token named).
    asked: StartToken,
    /// Which token `auto` chose, or the one asked for.
    kind: StartToken,
    first_scored: bool,
    /// How `auto` chooses for this kind of model file.
    auto_rule: String,
}

/// The tokens a model could start a sentence with.
struct StartCandidates {
    bos: Option<u32>,
    eos: Option<u32>,
    /// Whether BOS, when there is one, comes before EOS (see the module).
    bos_first: bool,
    /// What decided BOS and EOS (a file and key), for refusals that name it.
    bos_decided_by: String,
    eos_decided_by: String,
    /// How `auto` chooses, in the convention's words.
    auto_rule: String,
}

impl Start {
    fn resolve(c: &StartCandidates, conventions: &Conventions, tokenizer: &Tokenizer) -> Result<Start, ScorerError> {
        let kind = match conventions.start {
            StartToken::Auto if c.bos_first && c.bos.is_some() => StartToken::Bos,
            StartToken::Auto if c.eos.is_some() => StartToken::Eos,
            StartToken::Auto if c.bos.is_some() => StartToken::Bos,
            StartToken::Auto => StartToken::None,
            asked => asked,
        };
        let missing = |what: &str, decided_by: &str| {
            ScorerError::Input(format!("--start-token {kind}: the model has no {what} token ({decided_by} names none)"))
        };
        let id = match kind {
            StartToken::Bos => Some(c.bos.ok_or_else(|| missing("BOS", &c.bos_decided_by))?),
            StartToken::Eos => Some(c.eos.ok_or_else(|| missing("end-of-text", &c.eos_decided_by))?),
            _ => None,
        };
        let first_scored = match (conventions.first_token, id) {
            (FirstToken::Scored, None) => return Err(ScorerError::Input("the first token cannot be scored without a start token".into())),
            (FirstToken::Auto, start) => start.is_some(),
            (first, _) => first == FirstToken::Scored,
        };
        let text = |id: u32| tokenizer.id_to_token(id).unwrap_or_else(|| format!("#{id}"));
        Ok(Start { token: id.map(|id| (id, text(id))), asked: conventions.start, kind, first_scored, auto_rule: c.auto_rule.clone() })
    }

    /// Tokens at the start of a row that are not scored.
    fn unscored(&self) -> usize {
        1 + usize::from(self.token.is_some() && !self.first_scored)
    }
}

/// The tokens of one sentence and the log-probability of each scored one given the
/// ones before: `log_probs[i]` belongs to `ids[ids.len() - log_probs.len() + i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenScores {
    pub ids: Vec<u32>,
    pub log_probs: Vec<f32>,
}

impl TokenScores {
    /// log p(sentence): the sum over its scored tokens, accumulated in f64.
    pub fn total(&self) -> f64 {
        self.log_probs.iter().map(|&l| f64::from(l)).sum()
    }
}

impl CausalLm {
    /// Loads a Llama or Gemma 3 GGUF file, with the tokenizer rebuilt from its metadata.
    pub fn from_gguf(path: &Path, device: &Device, conventions: &Conventions) -> Result<Self, ScorerError> {
        let mut gguf = GgufFile::open(path)?;
        let tokenizer = tokenizer::from_gguf(&gguf)?;
        let id = |key: &str| gguf.meta_u32(key).ok().and_then(|v| u32::try_from(v).ok());
        let spm = gguf.meta_str("tokenizer.ggml.model").is_ok_and(|m| m == "llama");
        let candidates = StartCandidates {
            bos: id("tokenizer.ggml.bos_token_id"),
            eos: tokenizer.token_to_id("<|endoftext|>").or_else(|| id("tokenizer.ggml.eos_token_id")),
            // llama.cpp adds BOS unless the file says not to, for SentencePiece vocabularies
            bos_first: gguf.meta("tokenizer.ggml.add_bos_token").ok().and_then(|v| v.to_bool().ok()).unwrap_or(spm),
            bos_decided_by: "the GGUF file's tokenizer.ggml.bos_token_id".into(),
            eos_decided_by: "the GGUF file's vocabulary (<|endoftext|>) or tokenizer.ggml.eos_token_id".into(),
            auto_rule: "llama.cpp's BOS where it adds one, else the end-of-text token".into(),
        };
        let model = Decoder::from_gguf(&mut gguf, device, conventions.precision)?;
        Self::checked(model, tokenizer, &candidates, conventions, path)
    }

    /// Loads a causal model's Hugging Face directory (see [`crate::hf`] and the family
    /// table of [`architecture`]).
    pub fn from_hf_dir(dir: &Path, device: &Device, conventions: &Conventions) -> Result<Self, ScorerError> {
        let config = Config::read(dir)?;
        if config.kind != crate::hf::ModelKind::Causal {
            return Err(config.error(format!("{} is a masked language model, not a causal one", config.model_type)));
        }
        let tokenizer = crate::hf::load_tokenizer(dir, &config)?;
        // lm-evaluation-harness's prefix: BOS whenever the tokenizer has one, whether
        // or not tokenizer.json's post-processor prepends it (transformers 5 writes
        // Llama tokenizers without that template), else EOS
        let special = crate::hf::special_tokens(dir, &config.json, &tokenizer)?;
        let candidates = StartCandidates {
            bos: special.bos.id,
            eos: special.eos.id,
            bos_first: true,
            bos_decided_by: special.bos.decided_by,
            eos_decided_by: special.eos.decided_by,
            auto_rule: format!("lm-evaluation-harness's prefix: transformers {}'s BOS, else its EOS", crate::hf::transformers_version()),
        };
        let model = Decoder::from_hf(&config, dir, device, conventions.precision)?;
        Self::checked(model, tokenizer, &candidates, conventions, dir)
    }

    fn checked(
        model: Decoder,
        tokenizer: Tokenizer,
        candidates: &StartCandidates,
        conventions: &Conventions,
        path: &Path,
    ) -> Result<Self, ScorerError> {
        if tokenizer.get_vocab_size(true) > model.vocab_size() {
            return Err(ScorerError::file(path, "the tokenizer has more tokens than the model"));
        }
        let start = Start::resolve(candidates, conventions, &tokenizer)?;
        Ok(CausalLm { model, tokenizer, start, piece_kinds: std::sync::OnceLock::new(), word_starts: std::sync::OnceLock::new() })
    }

    /// Token ids of `text`, without any start token.
    pub fn tokenize(&self, text: &str) -> Result<Vec<u32>, ScorerError> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The start token every sentence is read after, if any.
    pub fn start_token(&self) -> Option<u32> {
        self.start.token.as_ref().map(|(id, _)| *id)
    }

    /// How this model's sentence scores are made, in words that name every choice.
    pub fn convention(&self) -> String {
        let start = match &self.start.token {
            Some((_, text)) => format!("after {} {text}", self.start.kind),
            None => "after no start token".into(),
        };
        let chosen = if self.start.asked == StartToken::Auto { format!(" (auto: {})", self.start.auto_rule) } else { String::new() };
        let first = if self.start.first_scored { "first token scored" } else { "first token not scored" };
        let words = match self.word_starts().marker {
            Some(marker) => format!("word-start correction as minicons' bow_correction (marker {marker})"),
            None => "no word-start marker, so no word-start correction".to_owned(),
        };
        format!(
            "causal: sentence log-prob, the sum of its tokens' log-probs {start}{chosen}; {first}; words on the sentence's own \
             pieces, {words}{}",
            crate::convention::computed_in(self.model.dtype())
        )
    }

    /// The start token (if any) followed by `ids`.
    fn row(&self, ids: &[u32]) -> Vec<u32> {
        self.start.token.iter().map(|(id, _)| *id).chain(ids.iter().copied()).collect()
    }

    /// Scores sentences, any number of them: they are tokenized, sorted by length and
    /// run in packed batches of at most [`BATCH_TOKENS`] tokens; results come back in
    /// input order, each the same as the sentence alone would get.
    pub fn score(&self, sentences: &[&str]) -> Result<Vec<TokenScores>, ScorerError> {
        let ids = sentences.iter().map(|s| self.sentence_ids(s)).collect::<Result<Vec<_>, _>>()?;
        self.score_ids(&ids)
    }

    /// The token ids of a sentence to score, refused when it has none.
    fn sentence_ids(&self, sentence: &str) -> Result<Vec<u32>, ScorerError> {
        let ids = self.tokenize(sentence)?;
        if ids.is_empty() {
            return Err(ScorerError::Input(format!("empty sentence {sentence:?}")));
        }
        Ok(ids)
    }

    /// Scores token sequences (without the start token); results in input order.
    pub fn score_ids(&self, ids: &[Vec<u32>]) -> Result<Vec<TokenScores>, ScorerError> {
        let rows: Vec<ScoredRow> = ids.iter().map(|t| (self.row(t), self.start.unscored())).collect();
        let scored = self.log_probs_from(&rows, alone(rows.len()))?;
        Ok(ids.iter().zip(scored).map(|(ids, log_probs)| TokenScores { ids: ids.clone(), log_probs }).collect())
    }

    /// The log-probability of each token of `continuation` after `prefix`, for each
    /// (prefix, continuation): the two are read as one text, tokenized once, and the
    /// continuation's tokens are those from the first whose offsets reach past the
    /// prefix (the pieces the text as written has there; see [`Self::continued`]).
    /// Consecutive pairs whose texts begin alike (a new-words item's two prompts, the
    /// candidates after one definition) run that beginning once.
    pub fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        let rows = pairs.iter().map(|(prefix, continuation)| self.continued(prefix, continuation)).collect::<Result<Vec<_>, _>>()?;
        let all: Vec<&[u32]> = rows.iter().map(|(r, _)| r.as_slice()).collect();
        let groups = consecutive_groups(&all, crate::batching::tokens_per_pass(self.model.device(), BATCH_TOKENS));
        self.log_probs_from(&rows, groups)
    }

    /// The start token and the tokens of `prefix` followed by `continuation`, with
    /// where the continuation's tokens start. A piece that holds the end of the prefix
    /// and the start of the continuation together is refused by name (spaces at the
    /// prefix's end go with the continuation, as lm-evaluation-harness moves them).
    fn continued(&self, prefix: &str, continuation: &str) -> Result<ScoredRow, ScorerError> {
        let text = format!("{prefix}{continuation}");
        let encoding = self.tokenizer.encode(text.as_str(), false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        let cut = prefix.trim_end().len();
        let offsets = encoding.get_offsets();
        let Some(first) = offsets.iter().position(|&(s, e)| s >= cut || e > cut) else {
            return Err(ScorerError::Input(format!("empty continuation {continuation:?}")));
        };
        if offsets[first].0 < cut {
            let piece = encoding.get_tokens().get(first).map_or("", String::as_str);
            return Err(ScorerError::Input(format!(
                "{prefix:?} + {continuation:?}: the piece {piece:?} holds the end of the first and the start of the second, \
                 so the continuation has no pieces of its own"
            )));
        }
        let row = self.row(encoding.get_ids());
        let from = row.len() - encoding.get_ids().len() + first;
        if from == 0 {
            return Err(ScorerError::Input(format!(
                "{continuation:?} has nothing before it to be predicted from (no prefix and no start token)"
            )));
        }
        Ok((row, from))
    }

    /// For each (row, from): the log-probability of `row[from..]`, each token given the
    /// ones before it. Each group of rows runs its shared beginning once
    /// ([`shared`]); the units run sorted by size in packed batches.
    fn log_probs_from(&self, rows: &[ScoredRow], groups: Vec<Vec<usize>>) -> Result<Vec<Vec<f32>>, ScorerError> {
        let all: Vec<&[u32]> = rows.iter().map(|(r, _)| r.as_slice()).collect();
        let units: Vec<Unit> = groups.into_iter().flat_map(|g| Unit::of(&all, g)).collect();
        let sizes: Vec<usize> = units.iter().map(|u| u.tokens(&all)).collect();
        let budget = crate::batching::tokens_per_pass(self.model.device(), BATCH_TOKENS);
        let batches = crate::batching::by_length(&sizes, budget);
        let wide = |batch: &Vec<usize>| batch.iter().map(|&u| sizes[u]).sum::<usize>() > budget;
        let done = crate::batching::each_batch(self.model.device(), &batches, wide, |batch| {
            let packed = Packed::new(&all, batch.iter().map(|&u| &units[u]));
            let hidden = self.model.hidden_of(&packed.segments)?;
            // position t predicts token t + 1; a shared beginning's positions go
            // through the output head once for all the rows that share them
            let (mut at, mut first_asked) = (Vec::new(), HashMap::new());
            let mut wanted: Vec<(usize, Vec<usize>)> = Vec::new();
            for (r, index) in packed.rows() {
                let (row, from) = &rows[r];
                let asked = (*from..row.len()).map(|t| {
                    *first_asked.entry((index(t - 1), row[t])).or_insert_with(|| {
                        at.push((index(t - 1), row[t]));
                        at.len() - 1
                    })
                });
                wanted.push((r, asked.collect()));
            }
            let picked = self.model.token_log_probs(&hidden, &at)?;
            Ok(wanted.into_iter().map(|(r, asked)| (r, asked.into_iter().map(|i| picked[i]).collect())).collect::<Vec<_>>())
        })?;
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); rows.len()];
        for (r, scores) in done.into_iter().flatten() {
            out[r] = scores;
        }
        Ok(out)
    }

    /// The rows of the sentences with the target and with the distractor, each pair
    /// a group that shares its beginning.
    fn context_rows(&self, contexts: &[crate::Context<'_>]) -> Result<(Vec<ScoredRow>, Vec<Vec<usize>>), ScorerError> {
        let mut rows = Vec::with_capacity(2 * contexts.len());
        for c in contexts {
            for sentence in [c.text.to_owned(), c.filled(c.distractor)?.0] {
                rows.push((self.row(&self.sentence_ids(&sentence)?), self.start.unscored()));
            }
        }
        Ok((rows, (0..contexts.len()).map(|i| vec![2 * i, 2 * i + 1]).collect()))
    }
}

/// A row of tokens (the start token first) and the index of its first scored token.
type ScoredRow = (Vec<u32>, usize);

/// Each of `n` rows in a group of its own.
fn alone(n: usize) -> Vec<Vec<usize>> {
    (0..n).map(|r| vec![r]).collect()
}

/// A causal LM's word score is the log-probability of the whole sentence with the
/// word in the blank (the target: the sentence as written; the distractor: put in
/// the target's place, in its case). The two sentences of a context run their
/// common beginning once ([`shared`]) with the same numbers as each run whole, and
/// all contexts share batches.
impl crate::ContextScorer for CausalLm {
    fn score_contexts(&self, contexts: &[crate::Context<'_>]) -> Result<Vec<crate::WordLogProbs>, ScorerError> {
        let (rows, pairs) = self.context_rows(contexts)?;
        let scores = self.log_probs_from(&rows, pairs)?;
        let total = |lp: &[f32]| lp.iter().map(|&l| f64::from(l)).sum::<f64>();
        Ok(scores.chunks(2).map(|pair| crate::WordLogProbs { target: total(&pair[0]), distractor: total(&pair[1]) }).collect())
    }

    fn sharing(&self, contexts: &[crate::Context<'_>]) -> Result<crate::Sharing, ScorerError> {
        let (rows, pairs) = self.context_rows(contexts)?;
        let all: Vec<&[u32]> = rows.iter().map(|(r, _)| r.as_slice()).collect();
        let mut sharing =
            crate::Sharing { contexts: contexts.len(), tokens_whole: all.iter().map(|r| r.len()).sum(), ..Default::default() };
        for unit in pairs.into_iter().flat_map(|g| Unit::of(&all, g)) {
            sharing.tokens_run += unit.tokens(&all);
            // more than the start token alone
            sharing.contexts_shared += usize::from(unit.shared > usize::from(self.start.token.is_some()));
        }
        Ok(sharing)
    }
}
