//! Masked language models (BERT, DistilBERT, RoBERTa / XLM-R) from a Hugging Face
//! model directory, and the three ways they score a word in a context:
//!
//! - [`MaskedScoring::Mask`] (the paper's): the word replaced by as many mask tokens
//!   as it has pieces there, one forward pass, the log-probabilities of its pieces at
//!   the masked positions summed;
//! - [`MaskedScoring::PllOriginal`]: the pseudo-log-likelihood of the whole sentence
//!   with the word in it, every token masked in turn (Salazar et al. 2020);
//! - [`MaskedScoring::PllWordL2r`]: as above, but a token is scored with the later
//!   pieces of its own word masked too (Kauf & Ivanova 2023).
//!
//! The word's pieces are the tokens whose offsets overlap the blank, and the empty or
//! space-only pieces of the same word (see [`Encoded::pieces`]), so RoBERTa's
//! leading-space pieces (`Ġword`), lower-casing tokenizers and words at the start of
//! a sentence need no special case. Every masked sequence is run once: when target
//! and distractor have as many pieces, their masked sentences are the same sequence
//! and share one forward pass. Sequences are sorted by length and batched.

mod encoder;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use candle_core::{Device, Tensor};
use tokenizers::Tokenizer;

use crate::hf::{Config, ModelKind};
use crate::{Context, ContextScorer, Conventions, ScorerError, Sharing, WordLogProbs};
use encoder::{index, Encoder};

pub use crate::convention::MaskedScoring;

/// Tokens per forward pass, counted as rows x the longest row (the rows run packed
/// without padding, but length-sorted batches keep that count close).
const BATCH_TOKENS: usize = 512;

/// Positions per run of the masked-LM head (its log-probabilities take
/// vocabulary x 4 bytes each: 61 MiB for BERT's 30k words).
const HEAD_ROWS: usize = 512;

/// A masked LM ready to score contexts.
pub struct MaskedLm {
    encoder: Encoder,
    tokenizer: Tokenizer,
    mask_id: u32,
    scoring: MaskedScoring,
}

/// A sentence as the model sees it.
struct Encoded {
    ids: Vec<u32>,
    /// Indices of the tokens that are text (not [CLS], [SEP], <s>, </s>).
    text_tokens: Vec<usize>,
    offsets: Vec<(usize, usize)>,
    words: Vec<Option<u32>>,
}

impl Encoded {
    /// The word's pieces: the text tokens that overlap byte range `blank` of
    /// `sentence`, and the tokens of the same words (word ids) that cover nothing or
    /// only spaces, such as the lone `Ġ` a byte-level BPE puts before some Cyrillic
    /// words (its offsets are empty, so it overlaps nothing, yet it is the word's).
    fn pieces(&self, blank: (usize, usize), sentence: &str) -> Result<Vec<usize>, ScorerError> {
        let overlaps = |i: usize| self.offsets[i].0 < blank.1 && self.offsets[i].1 > blank.0;
        let words: Vec<u32> = self.text_tokens.iter().filter(|&&i| overlaps(i)).filter_map(|&i| self.words[i]).collect();
        let blank_space = |i: usize| {
            let (a, b) = self.offsets[i];
            sentence.get(a..b).is_some_and(|t| t.trim().is_empty())
        };
        let pieces: Vec<usize> = self
            .text_tokens
            .iter()
            .copied()
            .filter(|&i| overlaps(i) || (blank_space(i) && self.words[i].is_some_and(|w| words.contains(&w))))
            .collect();
        if pieces.is_empty() {
            return Err(ScorerError::Input(format!("no token covers bytes {blank:?} of {sentence:?}")));
        }
        Ok(pieces)
    }
}

/// Every distinct sequence to run, and which log-probability to take from where.
#[derive(Default)]
struct Plan {
    rows: Vec<Vec<u32>>,
    index: HashMap<Vec<u32>, usize>,
    /// (row, position, token, slot): add log p(token at position of row) to slot.
    picks: Vec<(usize, usize, u32, usize)>,
}

impl Plan {
    fn ask(&mut self, row: Vec<u32>, position: usize, token: u32, slot: usize) {
        let r = match self.index.get(&row) {
            Some(&r) => r,
            None => {
                self.rows.push(row.clone());
                self.index.insert(row, self.rows.len() - 1);
                self.rows.len() - 1
            }
        };
        self.picks.push((r, position, token, slot));
    }

    /// The tokens of the sequences to run.
    fn tokens(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
}

impl MaskedLm {
    /// Loads a Hugging Face model directory (config.json, a tokenizer, weights: see
    /// [`crate::hf`]).
    pub fn from_dir(dir: &Path, device: &Device, scoring: MaskedScoring) -> Result<Self, ScorerError> {
        Self::load(dir, device, &Conventions { masked: scoring, ..Conventions::default() })
    }

    /// Loads a Hugging Face model directory to score as `conventions` say (its
    /// masked-LM scoring and precision).
    pub fn load(dir: &Path, device: &Device, conventions: &Conventions) -> Result<Self, ScorerError> {
        let scoring = conventions.masked;
        let config = Config::read(dir)?;
        if config.kind != ModelKind::Masked {
            return Err(config.error(format!("{} is a causal language model, not a masked one", config.model_type)));
        }
        let encoder = Encoder::load(dir, &config, device, conventions.precision)?;
        let tokenizer = crate::hf::load_tokenizer(dir, &config)?;
        let mask_id = ["[MASK]", "<mask>"]
            .iter()
            .find_map(|t| tokenizer.token_to_id(t))
            .ok_or_else(|| ScorerError::file(dir, "the tokenizer has no [MASK] or <mask> token"))?;
        if tokenizer.get_vocab_size(true) > encoder.vocab_size() {
            return Err(ScorerError::file(dir, "the tokenizer has more tokens than the model"));
        }
        Ok(MaskedLm { encoder, tokenizer, mask_id, scoring })
    }

    pub fn scoring(&self) -> MaskedScoring {
        self.scoring
    }

    /// How this model's word scores are made, in words that name every choice.
    pub fn convention(&self) -> String {
        let how = match self.scoring {
            MaskedScoring::Mask => "the word's pieces masked together, the sum of their log-probs",
            MaskedScoring::PllOriginal => "the pseudo-log-likelihood of the sentence (each token masked alone, summed)",
            MaskedScoring::PllWordL2r => "the pseudo-log-likelihood of the sentence, each token masked with the later pieces of its word",
        };
        format!("masked, {}: {how}{}", self.scoring, crate::convention::computed_in(self.encoder.dtype()))
    }

    /// The token ids the model reads for `text`, special tokens included.
    pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, ScorerError> {
        Ok(self.encode(text)?.ids)
    }

    fn encode(&self, text: &str) -> Result<Encoded, ScorerError> {
        let e = self.tokenizer.encode(text, true).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        if e.get_ids().len() > self.encoder.max_positions() {
            return Err(ScorerError::Input(format!(
                "{} tokens, more than the {} the model takes: {text:?}",
                e.get_ids().len(),
                self.encoder.max_positions()
            )));
        }
        Ok(Encoded {
            ids: e.get_ids().to_vec(),
            text_tokens: (0..e.len()).filter(|&i| e.get_special_tokens_mask()[i] == 0).collect(),
            offsets: e.get_offsets().to_vec(),
            words: e.get_word_ids().to_vec(),
        })
    }

    /// For each (sentence, byte range of a word in it): the sum of the log-probabilities
    /// of the word's pieces with all of them masked at once (the paper's mask
    /// scoring, whatever this model's [`MaskedScoring`]), and how many pieces it has.
    pub fn span_log_probs(&self, spans: &[(&str, (usize, usize))]) -> Result<Vec<(f64, usize)>, ScorerError> {
        let mut plan = Plan::default();
        for (slot, (sentence, span)) in spans.iter().enumerate() {
            self.plan_sentence(&mut plan, sentence, *span, slot, MaskedScoring::Mask)?;
        }
        let mut pieces = vec![0; spans.len()];
        for &(_, _, _, slot) in &plan.picks {
            pieces[slot] += 1;
        }
        Ok(self.run(&plan, spans.len())?.into_iter().zip(pieces).collect())
    }

    /// Adds to `plan` what scores `sentence` (whose word sits at byte range `blank`) into `slot`.
    fn plan_sentence(
        &self,
        plan: &mut Plan,
        sentence: &str,
        blank: (usize, usize),
        slot: usize,
        scoring: MaskedScoring,
    ) -> Result<(), ScorerError> {
        let e = self.encode(sentence)?;
        let masked_with = |positions: &[usize]| {
            let mut row = e.ids.clone();
            for &p in positions {
                row[p] = self.mask_id;
            }
            row
        };
        match scoring {
            MaskedScoring::Mask => {
                let pieces = e.pieces(blank, sentence)?;
                let row = masked_with(&pieces);
                for &p in &pieces {
                    plan.ask(row.clone(), p, e.ids[p], slot);
                }
            }
            MaskedScoring::PllOriginal => {
                for &t in &e.text_tokens {
                    plan.ask(masked_with(&[t]), t, e.ids[t], slot);
                }
            }
            MaskedScoring::PllWordL2r => {
                for &t in &e.text_tokens {
                    let rest: Vec<usize> = e.text_tokens.iter().copied().filter(|&j| j >= t && e.words[j] == e.words[t]).collect();
                    plan.ask(masked_with(&rest), t, e.ids[t], slot);
                }
            }
        }
        Ok(())
    }

    /// Runs every row of the plan once, in length-sorted batches; returns the slot sums.
    ///
    /// A position is run through the last layer and the head once, however many
    /// picks read it: the target's and the distractor's pieces of a shared sequence
    /// sit at the same positions. The masked-LM head runs afterwards, on every picked
    /// position together, in chunks of [`HEAD_ROWS`]: its output matrix
    /// (vocabulary x hidden) is the largest in the model, and one pass over it per
    /// batch cost as much as the batch's last layer.
    fn run(&self, plan: &Plan, slots: usize) -> Result<Vec<f64>, ScorerError> {
        // for each row, its picked positions in order, each with the (token, slot)s read there
        let mut picks_of: Vec<BTreeMap<usize, Vec<(u32, usize)>>> = vec![BTreeMap::new(); plan.rows.len()];
        for &(row, position, token, slot) in &plan.picks {
            picks_of[row].entry(position).or_default().push((token, slot));
        }
        let (mut batches, mut reads) = (Vec::new(), Vec::new());
        let widths: Vec<usize> = plan.rows.iter().map(Vec::len).collect();
        let budget = crate::batching::tokens_per_pass(self.encoder.device(), BATCH_TOKENS);
        for now in crate::batching::by_length(&widths, budget) {
            let rows: Vec<Vec<u32>> = now.iter().map(|&r| plan.rows[r].clone()).collect();
            let mut at = Vec::new();
            for (i, &r) in now.iter().enumerate() {
                for (&position, wanted) in &picks_of[r] {
                    at.push((i, position));
                    reads.push(wanted);
                }
            }
            batches.push((rows, at));
        }
        let wide = |(rows, _): &(Vec<Vec<u32>>, _)| rows.iter().map(Vec::len).sum::<usize>() > budget;
        let hidden = crate::batching::each_batch(self.encoder.device(), &batches, wide, |(rows, at)| self.encoder.hidden_at(rows, at))?;
        let mut sums = vec![0f64; slots];
        if hidden.is_empty() {
            return Ok(sums);
        }
        let hidden = Tensor::cat(&hidden, 0)?;
        let device = hidden.device().clone();
        for start in (0..reads.len()).step_by(HEAD_ROWS) {
            let n = HEAD_ROWS.min(reads.len() - start);
            let log_probs = self.encoder.log_probs(&hidden.narrow(0, start, n)?)?;
            let vocab = log_probs.dim(1)?;
            let log_probs = log_probs.flatten_all()?;
            let (mut at, mut to) = (Vec::new(), Vec::new());
            for (i, wanted) in reads[start..start + n].iter().enumerate() {
                for &(token, slot) in wanted.iter() {
                    at.push(index(i * vocab + token as usize)?);
                    to.push(slot);
                }
            }
            let chosen = log_probs.index_select(&Tensor::new(at, &device)?, 0)?.to_vec1::<f32>()?;
            for (slot, lp) in to.into_iter().zip(chosen) {
                sums[slot] += f64::from(lp);
            }
        }
        Ok(sums)
    }
}

impl ContextScorer for MaskedLm {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        let mut plan = Plan::default();
        for (i, c) in contexts.iter().enumerate() {
            for (slot, (sentence, blank)) in sentences(c)?.iter().enumerate() {
                self.plan_sentence(&mut plan, sentence, *blank, 2 * i + slot, self.scoring)?;
            }
        }
        let sums = self.run(&plan, 2 * contexts.len())?;
        Ok(sums.chunks(2).map(|p| WordLogProbs { target: p[0], distractor: p[1] }).collect())
    }

    /// Counted from the plans [`Self::score_contexts`] runs: a context shares when its
    /// two sentences plan fewer sequences together than apart.
    fn sharing(&self, contexts: &[Context<'_>]) -> Result<Sharing, ScorerError> {
        let mut all = Plan::default();
        let mut sharing = Sharing { contexts: contexts.len(), ..Sharing::default() };
        for (i, c) in contexts.iter().enumerate() {
            let (mut both, mut apart) = (Plan::default(), 0);
            for (slot, (sentence, blank)) in sentences(c)?.iter().enumerate() {
                let mut alone = Plan::default();
                self.plan_sentence(&mut alone, sentence, *blank, 0, self.scoring)?;
                apart += alone.rows.len();
                sharing.tokens_whole += alone.tokens();
                self.plan_sentence(&mut both, sentence, *blank, slot, self.scoring)?;
                self.plan_sentence(&mut all, sentence, *blank, 2 * i + slot, self.scoring)?;
            }
            sharing.contexts_shared += usize::from(both.rows.len() < apart);
        }
        sharing.tokens_run = all.tokens();
        Ok(sharing)
    }
}

/// A sentence and the byte range of its word.
type Sentence = (String, (usize, usize));

/// A context's sentence with the target and with the distractor.
fn sentences(c: &Context<'_>) -> Result<[Sentence; 2], ScorerError> {
    Ok([(c.text.to_owned(), c.blank), c.filled(c.distractor)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bert() -> MaskedLm {
        let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")).join("fixtures/mlm/bert");
        MaskedLm::from_dir(&dir, &Device::Cpu, MaskedScoring::Mask).expect("load")
    }

    /// Two words with as many pieces give the same masked sequence: one forward.
    #[test]
    fn equal_piece_counts_share_one_forward() {
        let lm = bert();
        let c = Context { text: "We counted thirty-one ducks.", blank: (11, 21), target: "thirty-one", distractor: "forty-two" };
        let (with_distractor, blank) = c.filled(c.distractor).expect("fill");
        let mut plan = Plan::default();
        lm.plan_sentence(&mut plan, c.text, c.blank, 0, lm.scoring).expect("target");
        lm.plan_sentence(&mut plan, &with_distractor, blank, 1, lm.scoring).expect("distractor");
        assert_eq!(plan.rows.len(), 1);
        assert_eq!(plan.picks.len(), 10, "5 pieces each");

        let c = Context { distractor: "red", ..c };
        let (with_distractor, blank) = c.filled(c.distractor).expect("fill");
        let mut plan = Plan::default();
        lm.plan_sentence(&mut plan, c.text, c.blank, 0, lm.scoring).expect("target");
        lm.plan_sentence(&mut plan, &with_distractor, blank, 1, lm.scoring).expect("distractor");
        assert_eq!(plan.rows.len(), 2);
    }

    #[test]
    fn scoring_names_round_trip() {
        for name in MaskedScoring::NAMES {
            assert_eq!(name.parse::<MaskedScoring>().expect("parse").name(), *name);
        }
        assert!("pll".parse::<MaskedScoring>().is_err());
    }
}
