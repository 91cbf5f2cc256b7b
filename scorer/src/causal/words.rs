//! The words of a sentence as a causal LM reads them: the sentence is tokenized once,
//! as the model's tokenizer does the running text, and each word's pieces are taken
//! from that tokenization by their offsets; no word is ever tokenized on its own.
//!
//! - A word's pieces are the tokens whose offsets overlap it, with the tokens right
//!   before it that cover only spaces (a lone `▁` or `Ġ`). The word is *aligned* when
//!   no piece reaches outside it (spaces before it aside); a piece that spans it and
//!   another word (GPT-2's `'t` in "Isn't", a SentencePiece `9.`) leaves it without a
//!   log-probability, and the reason says which piece.
//! - Its log-probability is the sum over its pieces (the paper's), and the word's own
//!   with the word-start correction of Pimentel & Meister (2024, "How to compute the
//!   probability of a word") exactly as minicons implements it
//!   (`IncrementalLMScorer.compute_stats(bow_correction=True)`, minicons 0.3.39):
//!   a piece *begins a word* when its vocabulary string starts with the tokenizer's
//!   word-start marker (the first character of the piece a lone space becomes: `Ġ`,
//!   `▁`), or it is an added token that strips the space before it. Each piece then
//!   gains log P(the next piece begins a word), when the next piece does or it is the
//!   sentence's last, and loses log P(a piece beginning a word here), when it begins a
//!   word itself and is not the first piece scored. End-of-text is not a word start
//!   (minicons' set holds the vocabulary's marked pieces only), so a sentence's last
//!   piece gains P(a word follows). Byte pieces (`<0xD0>`, `Ð`) carry no marker: they
//!   go on with the word. Punctuation without a space before it (`.`, `,`) goes on
//!   with the word too, as in minicons: the correction of "morning" in "morning." is
//!   carried by the full stop, which is not part of the game's word.
//!   A tokenizer with no marker (a space becomes nothing, or a special token) gets no
//!   correction, as in minicons.

use std::ops::Range;

use candle_core::Tensor;

use super::{CausalLm, WordStarts};
use crate::guess::{WordLogProb, WordReading};
use crate::ScorerError;

/// Every token's log-probability after the start token and the tokens before it,
/// plain and with the word-start correction; none for a first token nothing predicts.
struct TokenValues {
    plain: Vec<Option<f64>>,
    corrected: Vec<Option<f64>>,
}

/// The pieces of the word at `word` (byte range) among tokens at `offsets` of `text`,
/// or why they do not make the word (see the module).
pub(crate) fn pieces_of(
    text: &str,
    offsets: &[(usize, usize)],
    tokens: &[String],
    word: (usize, usize),
) -> Result<Range<usize>, (usize, String)> {
    let (a, b) = word;
    let overlapping: Vec<usize> = (0..offsets.len()).filter(|&i| offsets[i].0 < b && offsets[i].1 > a).collect();
    let (Some(&first), Some(&last)) = (overlapping.first(), overlapping.last()) else {
        return Err((0, format!("no piece covers {:?}", text.get(a..b).unwrap_or_default())));
    };
    let mut start = first;
    while start > 0 {
        let (s, e) = offsets[start - 1];
        if e <= a && text.get(s..e).is_some_and(|t| t.trim().is_empty()) {
            start -= 1;
        } else {
            break;
        }
    }
    let (s, e) = (offsets[start].0, offsets[last].1);
    let before_is_space = text.get(s.min(a)..a).is_some_and(|t| t.trim().is_empty());
    if before_is_space && e <= b {
        return Ok(start..last + 1);
    }
    let spanning = if before_is_space { last } else { start };
    let word = text.get(a..b).unwrap_or_default();
    Err((start, format!("the piece {:?} spans {word:?} and the text beside it", tokens.get(spanning).map_or("", String::as_str))))
}

impl CausalLm {
    /// The word-start pieces of this model's vocabulary (see the module).
    pub(crate) fn word_starts(&self) -> &WordStarts {
        self.word_starts.get_or_init(|| {
            let marker = self
                .tokenizer
                .encode(" ", false)
                .ok()
                .and_then(|e| e.get_ids().first().copied())
                .filter(|id| self.start.token.as_ref().is_none_or(|(start, _)| start != id))
                .and_then(|id| self.tokenizer.id_to_token(id))
                .and_then(|t| t.chars().next());
            let added = self.tokenizer.get_added_tokens_decoder();
            let mask = (0..self.model.vocab_size())
                .map(|i| {
                    let id = u32::try_from(i).unwrap_or(u32::MAX);
                    let marked = self.tokenizer.id_to_token(id).zip(marker).is_some_and(|(t, m)| t.starts_with(m));
                    let strips = added.get(&id).is_some_and(|t| t.lstrip);
                    if marker.is_some() && (marked || strips) {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect();
            WordStarts { marker, mask }
        })
    }

    /// Reads `text` once and gives each word at the byte ranges `words` its prefix and
    /// log-probability (see the module).
    pub fn read_words(&self, text: &str, words: &[(usize, usize)]) -> Result<Vec<WordReading>, ScorerError> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        let ids = encoding.get_ids();
        if ids.is_empty() {
            return Err(ScorerError::Input(format!("empty sentence {text:?}")));
        }
        let TokenValues { plain, corrected } = self.token_values(ids)?;
        let row = self.row(ids);
        let before = row.len() - ids.len();
        Ok(words
            .iter()
            .map(|&word| match pieces_of(text, encoding.get_offsets(), encoding.get_tokens(), word) {
                Ok(pieces) => {
                    let prefix = row[..before + pieces.start].to_vec();
                    let sum = |values: &[Option<f64>]| values[pieces.clone()].iter().copied().sum::<Option<f64>>();
                    let log_prob = match (sum(&plain), sum(&corrected)) {
                        (Some(pieces), Some(corrected)) if pieces.is_finite() && corrected.is_finite() => {
                            Ok(WordLogProb { pieces, corrected })
                        }
                        (Some(_), Some(_)) => Err("its log-probability is not a finite number".to_owned()),
                        _ => Err("its first piece is one the convention leaves unscored (the first, without a start token)".to_owned()),
                    };
                    WordReading { prefix, log_prob }
                }
                Err((at, why)) => WordReading { prefix: row[..before + at].to_vec(), log_prob: Err(why) },
            })
            .collect())
    }

    /// The values of every token of `ids` (see [`TokenValues`] and the module).
    fn token_values(&self, ids: &[u32]) -> Result<TokenValues, ScorerError> {
        let row = self.row(ids);
        let unscored = self.start.unscored();
        let hidden = self.model.hidden(&[row.as_slice()])?;
        let at: Vec<(usize, u32)> = (unscored..row.len()).map(|t| (t - 1, row[t])).collect();
        let log_probs = self.model.token_log_probs(&hidden, &at)?;
        let starts = self.word_starts();
        // log P(the next piece begins a word) after each token of the row
        let mass = match starts.marker {
            Some(_) => {
                let mask = Tensor::new(starts.mask.as_slice(), self.model.device())?;
                self.model.masked_log_mass(&hidden, &(0..row.len()).collect::<Vec<_>>(), &mask)?
            }
            None => Vec::new(),
        };
        let begins = |t: usize| starts.marker.is_some() && starts.mask.get(row[t] as usize).is_some_and(|&m| m > 0.0);
        let mut plain = vec![None; ids.len()];
        let mut corrected = vec![None; ids.len()];
        let offset = row.len() - ids.len();
        for (j, &lp) in log_probs.iter().enumerate() {
            let t = unscored + j; // row index of the token
            let mut value = f64::from(lp);
            if starts.marker.is_some() {
                let last = t + 1 == row.len();
                if last || begins(t + 1) {
                    value += f64::from(mass[t]);
                }
                if j > 0 && begins(t) {
                    value -= f64::from(mass[t - 1]);
                }
            }
            plain[t - offset] = Some(f64::from(lp));
            corrected[t - offset] = Some(value);
        }
        Ok(TokenValues { plain, corrected })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    #[test]
    fn a_words_pieces_are_found_by_their_offsets() {
        // "Isn't it" as GPT-2 splits it: Is|n|'t|Ġit
        let text = "Isn't it";
        let offsets = [(0, 2), (2, 3), (3, 5), (5, 8)];
        assert_eq!(pieces_of(text, &offsets, &tokens(4), (0, 3)), Ok(0..2));
        let spans = pieces_of(text, &offsets, &tokens(4), (4, 5)).expect_err("'t spans the apostrophe");
        assert_eq!(spans.0, 2);
        assert!(spans.1.contains("t2"), "{}", spans.1);
        assert_eq!(pieces_of(text, &offsets, &tokens(4), (6, 8)), Ok(3..4));
        // a lone marker piece covering only the space belongs to the word after it
        let text = "we know";
        assert_eq!(pieces_of(text, &[(0, 2), (2, 3), (3, 7)], &tokens(3), (3, 7)), Ok(1..3));
        // a lone marker with empty offsets (trimmed), and a byte piece sharing its
        // character's offsets with the next: both the word's
        let text = "мы над";
        assert_eq!(pieces_of(text, &[(0, 4), (5, 5), (5, 7), (5, 7), (7, 9)], &tokens(5), (5, 9)), Ok(1..5));
        // the first word of a sentence
        assert_eq!(pieces_of(text, &[(0, 2), (2, 4), (4, 9)], &tokens(3), (0, 4)), Ok(0..2));
        // a piece that runs on past the word: "1999." as 199|9.
        let text = "in 1999.";
        let err = pieces_of(text, &[(0, 2), (2, 6), (6, 8)], &tokens(3), (3, 7)).expect_err("9. spans");
        assert!(err.1.contains("t2"), "{}", err.1);
    }
}
