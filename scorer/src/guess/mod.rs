//! Next-word guessing, the "Shannon game" of 002_07d3f5412720a88c.txt: whole-word
//! predictions of a causal LM, whatever its tokenisation (the metrics that compare
//! them with people's guesses are `gapwise_research::guess::metrics`).
//!
//! A sentence is shown word by word; at each position the model predicts the next
//! word from the text before it (after the start token), as a person sees it.
//!
//! - **Top word** (the paper's Algorithm 1): the most probable piece that starts a
//!   word, then the most probable next piece as long as it continues the word; the
//!   first piece that does not (a word start, punctuation, a special token) ends it.
//! - **Top-k list** (a bounded beam search over pieces, in place of the paper's
//!   Algorithm 2): the [`BEAM`] most probable word-start pieces are grown, at most
//!   [`MAX_PIECES`] pieces deep, by the word-continuing pieces among the [`BEAM`]
//!   most probable next pieces, keeping the [`BEAM`] most probable partial words at
//!   each depth. A partial word is complete when its most probable next piece is not
//!   a continuation, Algorithm 1's rule (or at the depth limit). Words
//!   rank by the product of their pieces' probabilities, as the paper scores them;
//!   the top word comes first. At most [`MAX_PIECES`] batched forward passes of at
//!   most [`BEAM`] prefixes per position.
//! - **Word log-probability** of the actual next word, two ways ([`WordLogProb`]),
//!   on the sentence's own pieces (the sentence is tokenized once; see
//!   [`crate::causal::words`]): the sum of the log-probabilities of its pieces (the
//!   paper's), and the word's own probability (Pimentel & Meister 2024, "How to
//!   compute the probability of a word", as minicons' `bow_correction` computes it).
//!   Word-level perplexity uses the latter. A word whose pieces reach into the text
//!   beside it has neither, and says why.
//!   The top word and the top-k search rank words by their pieces' product, as the
//!   paper does; Algorithm 1's rule for where a word ends (below, [`PieceKind`])
//!   decides where a predicted word stops, which is a rule of the search, not of the
//!   word probability.

use crate::ScorerError;

/// Hypotheses kept at each depth of the top-k search, and word-start pieces tried.
pub const BEAM: usize = 10;
/// Pieces in a word the top-k search and the top word go to at most.
pub const MAX_PIECES: usize = 6;
/// Words in a top-k list.
pub const TOP_K: usize = 10;

/// What a vocabulary piece is to the top-word search (Algorithm 1 of paper 002).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// Starts a word: a space marker then a letter or digit (`Ġcat`, `▁chat`).
    WordStart,
    /// Goes on with the word before it (`s`, `raptor`).
    WordInside,
    /// Anything else: punctuation, a bare space, special and byte tokens.
    Other,
}

/// A causal LM as the Shannon game needs it.
pub trait NextPieceModel: Send + Sync {
    /// The kind of every piece, indexed by id.
    fn piece_kinds(&self) -> &[PieceKind];
    /// The text of a word spelled by these pieces.
    fn decode_word(&self, pieces: &[u32]) -> Result<String, ScorerError>;
    /// The log-probabilities of the next piece after each prefix.
    fn next_log_probs(&self, prefixes: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, ScorerError>;
    /// Reads `text` once: for each word at a byte range of `words`, the pieces before
    /// it and its log-probability ([`WordReading`]).
    fn read_words(&self, text: &str, words: &[(usize, usize)]) -> Result<Vec<WordReading>, ScorerError>;
}

/// log p(a word | the text before it), both ways (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WordLogProb {
    /// The sum of the log-probabilities of the word's pieces (the paper's).
    pub pieces: f64,
    /// The word's own, with the word-start correction (see [`crate::causal::words`]).
    pub corrected: f64,
}

/// A word of a sentence as the model reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct WordReading {
    /// The start token and the sentence's pieces before the word.
    pub prefix: Vec<u32>,
    /// log p(the word | the text before it), or why the model gives it none.
    pub log_prob: Result<WordLogProb, String>,
}

/// The model's guesses at one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Up to [`TOP_K`] words, the top word first.
    pub top: Vec<String>,
    /// log p(the actual word | the text before it), or why there is none.
    pub word_log_prob: Result<WordLogProb, String>,
}

/// The ids of the `n` largest values, largest first.
fn best(values: &[f32], n: usize) -> Vec<usize> {
    let mut ids: Vec<usize> = (0..values.len()).collect();
    let n = n.min(ids.len());
    if n == 0 {
        return Vec::new();
    }
    ids.select_nth_unstable_by(n - 1, |&a, &b| values[b].total_cmp(&values[a]));
    ids.truncate(n);
    ids.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    ids
}

fn id(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The top word after `prefix` (see the module documentation) and its pieces.
pub fn top_word(model: &dyn NextPieceModel, prefix: &[u32]) -> Result<Vec<u32>, ScorerError> {
    let kinds = model.piece_kinds();
    let first = model.next_log_probs(&[prefix.to_vec()])?.remove(0);
    let start = (0..first.len())
        .filter(|&i| kinds.get(i) == Some(&PieceKind::WordStart))
        .max_by(|&a, &b| first[a].total_cmp(&first[b]).then(b.cmp(&a)));
    let Some(start) = start else { return Err(ScorerError::Input("the vocabulary has no word-start piece".into())) };
    let mut pieces = vec![id(start)];
    while pieces.len() < MAX_PIECES {
        let next = model.next_log_probs(&[[prefix, &pieces].concat()])?.remove(0);
        match best(&next, 1).first() {
            Some(&p) if kinds.get(p) == Some(&PieceKind::WordInside) => pieces.push(id(p)),
            _ => break,
        }
    }
    Ok(pieces)
}

/// The top-k words after `prefix`, most probable first, the top word leading.
pub fn top_words(model: &dyn NextPieceModel, prefix: &[u32], top: &[u32]) -> Result<Vec<String>, ScorerError> {
    let kinds = model.piece_kinds();
    let first = model.next_log_probs(&[prefix.to_vec()])?.remove(0);
    let starting: Vec<f32> =
        first.iter().enumerate().map(|(i, &l)| if kinds.get(i) == Some(&PieceKind::WordStart) { l } else { f32::NEG_INFINITY }).collect();
    let mut partial: Vec<(Vec<u32>, f64)> =
        best(&starting, BEAM).into_iter().filter(|&i| starting[i].is_finite()).map(|i| (vec![id(i)], f64::from(first[i]))).collect();
    let mut complete: Vec<(Vec<u32>, f64)> = Vec::new();
    for depth in 1..=MAX_PIECES {
        if partial.is_empty() {
            break;
        }
        if depth == MAX_PIECES {
            complete.append(&mut partial);
            break;
        }
        let prefixes: Vec<Vec<u32>> = partial.iter().map(|(p, _)| [prefix, p].concat()).collect();
        let dists = model.next_log_probs(&prefixes)?;
        let mut grown = Vec::new();
        for ((pieces, lp), dist) in partial.drain(..).zip(dists) {
            let likely: Vec<usize> = best(&dist, BEAM).into_iter().filter(|&p| dist[p].is_finite()).collect();
            if likely.first().is_some_and(|&p| kinds.get(p) != Some(&PieceKind::WordInside)) {
                complete.push((pieces.clone(), lp));
            }
            for p in likely.into_iter().filter(|&p| kinds.get(p) == Some(&PieceKind::WordInside)) {
                grown.push(([pieces.as_slice(), &[id(p)]].concat(), lp + f64::from(dist[p])));
            }
        }
        grown.sort_by(|a, b| b.1.total_cmp(&a.1));
        grown.truncate(BEAM);
        partial = grown;
    }
    complete.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut words = vec![model.decode_word(top)?];
    for (pieces, _) in complete {
        let word = model.decode_word(&pieces)?;
        if words.len() < TOP_K && !words.iter().any(|w| w.to_lowercase() == word.to_lowercase()) {
            words.push(word);
        }
    }
    Ok(words)
}

/// The model's predictions at each word of `text` at the byte ranges `words`: the
/// words it guesses from the sentence's pieces before the word, and the word's
/// log-probability.
pub fn predict(model: &dyn NextPieceModel, text: &str, words: &[(usize, usize)]) -> Result<Vec<Prediction>, ScorerError> {
    let readings = model.read_words(text, words)?;
    let mut out = Vec::with_capacity(readings.len());
    for reading in readings {
        // nothing before the word (no start token, and its first piece is the
        // sentence's): nothing to predict it from
        let top = match reading.prefix.is_empty() {
            true => Vec::new(),
            false => top_words(model, &reading.prefix, &top_word(model, &reading.prefix)?)?,
        };
        out.push(Prediction { top, word_log_prob: reading.log_prob });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built model: the next-piece distribution depends on the last piece only.
    struct Toy {
        kinds: Vec<PieceKind>,
        texts: Vec<&'static str>,
        next: Vec<Vec<(usize, f32)>>,
    }

    const S: usize = 0; // <s>
    const THE: usize = 1; // Ġthe
    const VEL: usize = 2; // Ġvel
    const OCI: usize = 3; // oci
    const RAPTOR: usize = 4; // raptor
    const ATE: usize = 5; // Ġate
    const DOT: usize = 6; // .
    const CAT: usize = 7; // Ġcat
    const ES: usize = 8; // s

    fn toy() -> Toy {
        use PieceKind::*;
        let mut next = vec![Vec::new(); 9];
        next[S] = vec![(THE, 0.9), (CAT, 0.1)];
        next[THE] = vec![(VEL, 0.5), (CAT, 0.3), (OCI, 0.15), (DOT, 0.05)];
        next[VEL] = vec![(OCI, 0.9), (ATE, 0.1)];
        next[OCI] = vec![(RAPTOR, 0.8), (DOT, 0.2)];
        next[RAPTOR] = vec![(ATE, 0.7), (ES, 0.3)];
        next[CAT] = vec![(ATE, 0.6), (ES, 0.4)];
        next[ES] = vec![(ATE, 1.0)];
        next[ATE] = vec![(THE, 0.6), (DOT, 0.4)];
        next[DOT] = vec![(S, 1.0)];
        Toy {
            kinds: vec![Other, WordStart, WordStart, WordInside, WordInside, WordStart, Other, WordStart, WordInside],
            texts: vec!["<s>", "the", "vel", "oci", "raptor", "ate", ".", "cat", "s"],
            next,
        }
    }

    impl NextPieceModel for Toy {
        fn piece_kinds(&self) -> &[PieceKind] {
            &self.kinds
        }
        fn decode_word(&self, pieces: &[u32]) -> Result<String, ScorerError> {
            Ok(pieces.iter().map(|&p| self.texts[p as usize]).collect())
        }
        fn next_log_probs(&self, prefixes: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, ScorerError> {
            Ok(prefixes
                .iter()
                .map(|p| {
                    let mut lp = vec![f32::NEG_INFINITY; self.kinds.len()];
                    for &(i, prob) in &self.next[*p.last().unwrap_or(&0) as usize] {
                        lp[i] = prob.ln();
                    }
                    lp
                })
                .collect())
        }
        /// The toy's words are whole pieces after a space; it gives no correction.
        fn read_words(&self, text: &str, words: &[(usize, usize)]) -> Result<Vec<WordReading>, ScorerError> {
            words
                .iter()
                .map(|&(a, b)| {
                    let mut ids = self.encode(&text[..a])?;
                    let prefix = ids.clone();
                    let mut total = 0.0;
                    for p in self.encode(&text[a..b])?.into_iter().skip(1) {
                        total += f64::from(self.next_log_probs(&[ids.clone()])?[0][p as usize]);
                        ids.push(p);
                    }
                    Ok(WordReading { prefix, log_prob: Ok(WordLogProb { pieces: total, corrected: total }) })
                })
                .collect()
        }
    }

    impl Toy {
        fn encode(&self, text: &str) -> Result<Vec<u32>, ScorerError> {
            let mut ids = vec![id(S)];
            for w in text.split_whitespace() {
                ids.extend(
                    match w {
                        "the" => vec![THE],
                        "velociraptor" => vec![VEL, OCI, RAPTOR],
                        "cat" => vec![CAT],
                        "cats" => vec![CAT, ES],
                        "ate" => vec![ATE],
                        other => return Err(ScorerError::Input(format!("no pieces for {other}"))),
                    }
                    .into_iter()
                    .map(id),
                );
            }
            Ok(ids)
        }
    }

    #[test]
    fn the_top_word_joins_pieces_until_a_word_boundary() {
        let toy = toy();
        let prefix = toy.encode("the").expect("prefix");
        // Ġvel (0.5) beats Ġcat (0.3); oci and raptor continue it; Ġate ends it
        let top = top_word(&toy, &prefix).expect("top");
        assert_eq!(toy.decode_word(&top).expect("text"), "velociraptor");
        // after "cat" the likeliest piece is Ġate, so "cat" is a whole word
        let after_the_cat = toy.encode("cat").expect("prefix");
        assert_eq!(toy.decode_word(&top_word(&toy, &after_the_cat).expect("top")).expect("text"), "ate");
    }

    #[test]
    fn the_top_words_list_holds_complete_words_by_probability() {
        let toy = toy();
        let prefix = toy.encode("the").expect("prefix");
        let top = top_word(&toy, &prefix).expect("top");
        let words = top_words(&toy, &prefix, &top).expect("list");
        // velociraptor 0.5*0.9*0.8 = 0.36; cat 0.3 (complete: Ġate is likeliest next);
        // cats 0.3*0.4 = 0.12; velociraptors 0.36*0.3 = 0.108. "vel" and "veloci" are
        // not words: their likeliest next piece continues them.
        assert_eq!(words, ["velociraptor", "cat", "cats", "velociraptors"]);
    }

    #[test]
    fn predictions_give_the_top_words_and_the_actual_words_log_probability() {
        let toy = toy();
        let p = predict(&toy, "the velociraptor ate", &[(4, 16), (17, 20)]).expect("predictions");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].top[0], "velociraptor");
        let pieces = 0.5f64.ln() + 0.9f64.ln() + 0.8f64.ln();
        assert!((p[0].word_log_prob.as_ref().expect("scored").pieces - pieces).abs() < 1e-6);
        assert_eq!(p[1].top[0], "ate");
        assert!((p[1].word_log_prob.as_ref().expect("scored").pieces - 0.7f64.ln()).abs() < 1e-6);
    }
}
