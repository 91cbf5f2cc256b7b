//! A causal LM playing the Shannon game ([`crate::guess`]): what each piece of its
//! vocabulary is to the top-word search, and next-piece distributions after the
//! pieces before a word.

use candle_core::Tensor;

use super::shared::{Packed, Unit};
use super::CausalLm;
use crate::guess::{NextPieceModel, PieceKind, WordReading};
use crate::ScorerError;
use gapwise_model::words::is_contraction_ending;

/// The kind of a piece from its raw form and its decoded text: a space marker (`Ġ`
/// of byte-level BPE, `▁` of SentencePiece) before a letter or digit starts a word;
/// a letter or digit goes on with one; anything else (punctuation, byte and special
/// tokens) does neither, except an English contraction's ending (`'t`, `’s`), which
/// goes on with the word before it, as the games count words
/// ([`gapwise_model::words::game_spans`]: "don't" is one word). The decoded text
/// decides what the first character is, as byte-level pieces spell non-ASCII
/// characters with stand-in letters (`’` is `âĢĻ`).
fn kind_of(raw: &str, decoded: &str) -> PieceKind {
    let first = decoded.trim_start().chars().next();
    match (raw.starts_with(['Ġ', '▁']), first.is_some_and(char::is_alphanumeric)) {
        (true, true) => PieceKind::WordStart,
        (false, true) if decoded.starts_with(|c: char| !c.is_whitespace()) => PieceKind::WordInside,
        (false, _) if is_contraction_ending(decoded) => PieceKind::WordInside,
        _ => PieceKind::Other,
    }
}

impl NextPieceModel for CausalLm {
    fn piece_kinds(&self) -> &[PieceKind] {
        self.piece_kinds.get_or_init(|| {
            let special = self.tokenizer.get_added_tokens_decoder();
            (0..self.tokenizer.get_vocab_size(true))
                .map(|i| {
                    let id = u32::try_from(i).unwrap_or(u32::MAX);
                    match (self.tokenizer.id_to_token(id), self.tokenizer.decode(&[id], false)) {
                        (Some(_), _) if special.contains_key(&id) => PieceKind::Other,
                        (Some(raw), Ok(decoded)) => kind_of(&raw, &decoded),
                        _ => PieceKind::Other,
                    }
                })
                .collect()
        })
    }

    fn decode_word(&self, pieces: &[u32]) -> Result<String, ScorerError> {
        let text = self.tokenizer.decode(pieces, false).map_err(|e| ScorerError::Tokenizer(e.to_string()))?;
        Ok(text.trim().to_owned())
    }

    fn next_log_probs(&self, prefixes: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, ScorerError> {
        if prefixes.iter().any(Vec::is_empty) {
            return Err(ScorerError::Input("an empty prefix (with no start token) predicts nothing".into()));
        }
        // the top-k search asks for one text's beginning and up to ten partial words
        // after it: that beginning runs once (see [`super::shared`])
        let rows: Vec<&[u32]> = prefixes.iter().map(Vec::as_slice).collect();
        let units = Unit::of(&rows, (0..rows.len()).collect());
        let packed = Packed::new(&rows, &units);
        let hidden = self.model.hidden_of(&packed.segments)?;
        let mut last = vec![0u32; rows.len()];
        for (r, index) in packed.rows() {
            last[r] = index(rows[r].len() - 1) as u32;
        }
        let ends = hidden.index_select(&Tensor::new(last.as_slice(), self.model.device())?, 0)?;
        let log_probs = self.model.log_probs(&ends)?;
        (0..prefixes.len()).map(|i| Ok(log_probs.get(i)?.to_vec1::<f32>()?)).collect()
    }

    fn read_words(&self, text: &str, words: &[(usize, usize)]) -> Result<Vec<WordReading>, ScorerError> {
        CausalLm::read_words(self, text, words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_both_tokenizer_families() {
        assert_eq!(kind_of("Ġcat", " cat"), PieceKind::WordStart);
        assert_eq!(kind_of("▁chat", "chat"), PieceKind::WordStart);
        assert_eq!(kind_of("Ġ7", " 7"), PieceKind::WordStart);
        assert_eq!(kind_of("raptor", "raptor"), PieceKind::WordInside);
        assert_eq!(kind_of("Ã©", "é"), PieceKind::WordInside);
        assert_eq!(kind_of("'s", "'s"), PieceKind::WordInside, "don't and dog's are one word");
        assert_eq!(kind_of("âĢĻt", "’t"), PieceKind::WordInside);
        for (raw, decoded) in
            [("Ġ,", " ,"), ("Ġ", " "), ("▁", ""), (".", "."), ("<0x0A>", "\n"), ("'", "'"), ("Ġ'", " 's"), ("▁'s", "'s"), ("ĠâĢľ", " “")]
        {
            assert_eq!(kind_of(raw, decoded), PieceKind::Other, "{raw}");
        }
    }
}
