//! The cloze patterns of Table 3: `<DEF>` is the definition and `_` the word the
//! model has to produce. Masked LMs average over several patterns; causal LMs use
//! one, which ends with the word, so the word is a continuation of a prefix.
//!
//! A word that opens the query is written with a capital first letter (the paper
//! does so for RoBERTa, which is case-sensitive; a lower-casing tokenizer does not
//! see the difference).

use super::Pos;

/// Masked-LM patterns by part of speech.
pub const MASKED_NOUN: [&str; 3] = ["_ is <DEF>", "_ means <DEF>", "_ is defined as <DEF>"];
pub const MASKED_VERB: [&str; 2] = ["definition of _ is to <DEF>", "to <DEF> is the definition of _"];
/// Causal-LM patterns by part of speech.
pub const CAUSAL_NOUN: &str = "<DEF> is the definition of _";
pub const CAUSAL_VERB: &str = "to <DEF> is the definition of _";

/// A pattern filled in: the text and the byte range of the word in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub text: String,
    pub word: (usize, usize),
}

impl Query {
    /// The text before the word, without the space that separates them, and the
    /// word with that space (what a causal LM continues the prefix with).
    pub fn split_at_word(&self) -> (&str, String) {
        let prefix = self.text[..self.word.0].trim_end();
        (prefix, format!(" {}", &self.text[self.word.0..self.word.1]))
    }
}

/// Fills `pattern` with `word` and `definition`.
pub fn fill(pattern: &str, word: &str, definition: &str) -> Query {
    let (before, after) = pattern.split_once('_').unwrap_or((pattern, ""));
    let before = before.replace("<DEF>", definition);
    let word = if before.is_empty() { capitalized(word) } else { word.to_owned() };
    let start = before.len();
    let text = format!("{before}{word}{}", after.replace("<DEF>", definition));
    Query { word: (start, start + word.len()), text }
}

/// The masked-LM queries for a word and a definition. Table 3 has patterns for verbs
/// and for nouns; the game plays only those two (`gapwise_model::DEFINITION_POS`), and
/// any other word takes the nouns' patterns.
pub fn masked(pos: Pos, word: &str, definition: &str) -> Vec<Query> {
    let patterns: &[&str] = if pos == Pos::Verb { &MASKED_VERB } else { &MASKED_NOUN };
    patterns.iter().map(|p| fill(p, word, definition)).collect()
}

/// The causal-LM query for a word and a definition (verbs', else nouns' pattern).
pub fn causal(pos: Pos, word: &str, definition: &str) -> Query {
    fill(if pos == Pos::Verb { CAUSAL_VERB } else { CAUSAL_NOUN }, word, definition)
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table3_patterns_filled() {
        let q = masked(Pos::Verb, "beckon", "signal with the hands or nod");
        assert_eq!(q[0].text, "definition of beckon is to signal with the hands or nod");
        assert_eq!(&q[0].text[q[0].word.0..q[0].word.1], "beckon");
        assert_eq!(q[1].text, "to signal with the hands or nod is the definition of beckon");
        let n = masked(Pos::Noun, "bel canto", "a style of operatic singing");
        assert_eq!(
            n.iter().map(|q| q.text.as_str()).collect::<Vec<_>>(),
            [
                "Bel canto is a style of operatic singing",
                "Bel canto means a style of operatic singing",
                "Bel canto is defined as a style of operatic singing"
            ]
        );
        assert_eq!(&n[2].text[n[2].word.0..n[2].word.1], "Bel canto");
        let c = causal(Pos::Noun, "bel canto", "a style of operatic singing");
        assert_eq!(c.text, "a style of operatic singing is the definition of bel canto");
        assert_eq!(c.split_at_word(), ("a style of operatic singing is the definition of", " bel canto".to_owned()));
        assert_eq!(causal(Pos::Verb, "wink", "signal by winking").text, "to signal by winking is the definition of wink");
    }
}
