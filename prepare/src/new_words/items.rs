//! WinoDict items as `data/new_words/winogrande.jsonl` holds them (built by
//! `scripts/make_new_words_items.py`): a Winograd sentence with its key word, and the
//! key word's lemma, form, part of speech and definition. An item is played with the
//! key word itself (the original task), with an invented word in its place, or with
//! another item's key word (the meaning shift).

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::morphology::{inflect, Form};
use gapwise_model::{NewWordsItem, Pos};

use super::definition::definition_sentence;
use crate::PrepareError;

/// One line of the items file.
#[derive(Clone, Debug, Deserialize)]
pub struct KeyedItem {
    /// The sentence, with `_` for the blank and the key word in place.
    pub sentence: String,
    pub options: [String; 2],
    pub answer: usize,
    /// The key word as it stands in the sentence.
    pub key: String,
    pub lemma: String,
    pub form: Form,
    pub pos: Pos,
    /// WordNet's gloss of the lemma's first sense.
    pub definition: String,
    /// Where the sentence comes from.
    #[serde(default)]
    pub source: String,
}

/// Reads the items file (JSON lines).
pub fn read_items(text: &str) -> Result<Vec<KeyedItem>, PrepareError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            let item: KeyedItem = serde_json::from_str(line).map_err(|e| PrepareError::Input(format!("line {}: {e}", n + 1)))?;
            if item.answer > 1 || item.sentence.matches('_').count() != 1 {
                return Err(PrepareError::Input(format!("line {}: one blank and an answer of 0 or 1 are needed", n + 1)));
            }
            Ok(item)
        })
        .collect()
}

impl KeyedItem {
    /// A stable id: `wd-` and the first twelve hex digits of the SHA-256 of the sentence.
    pub fn id(&self) -> String {
        let digest = Sha256::digest(self.sentence.as_bytes());
        format!("wd-{}", digest.iter().take(6).map(|b| format!("{b:02x}")).collect::<String>())
    }

    /// The item with `lemma` standing for the key word, in the key word's form and
    /// capitalisation (`played_as` keeps the capital), defined by the Table 6 sentence
    /// of the key word's definition.
    pub fn with_word(&self, lemma: &str) -> NewWordsItem {
        self.played_as(lemma, inflect(lemma, self.form))
    }

    /// The item played with `other`'s key word as written (see [`shift_partners`]),
    /// defined by this item's definition: the meaning-shift variant.
    pub fn shifted_to(&self, other: &KeyedItem) -> NewWordsItem {
        self.played_as(&other.lemma, other.key.to_lowercase())
    }

    fn played_as(&self, lemma: &str, mut word: String) -> NewWordsItem {
        if self.key.starts_with(char::is_uppercase) {
            word = word.chars().take(1).flat_map(char::to_uppercase).chain(word.chars().skip(1)).collect();
        }
        NewWordsItem {
            sentence: replace_word(&self.sentence, &self.key, &word),
            options: self.options.clone(),
            answer: self.answer,
            definition: Some(definition_sentence(self.pos, lemma, &self.definition)),
        }
    }

    /// The original item: the key word itself, as written (irregular forms such as
    /// `drove` included), defined the same way.
    pub fn original(&self) -> NewWordsItem {
        self.played_as(&self.lemma, self.key.to_lowercase())
    }
}

/// For each item, the other item whose key word it is played with in the
/// meaning-shift variant (paper 003, Table 3: a known word given the key word's
/// definition): one of the same part of speech and form, so the word stands in the
/// sentence as written (`crowded`, `ran`), with another lemma; drawn with `seed`.
/// `None` when no item fits.
pub fn shift_partners(items: &[KeyedItem], seed: u64) -> Vec<Option<usize>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut groups: BTreeMap<(Pos, Form), Vec<usize>> = BTreeMap::new();
    for (n, item) in items.iter().enumerate() {
        groups.entry((item.pos, item.form)).or_default().push(n);
    }
    for group in groups.values_mut() {
        group.shuffle(&mut rng);
    }
    items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let group = groups.get(&(item.pos, item.form))?;
            // start at a place that moves with the item, then skip its own lemma
            (0..group.len())
                .filter_map(|k| group.get((n + k) % group.len()).copied())
                .find(|&other| items.get(other).is_some_and(|o| o.lemma != item.lemma))
        })
        .collect()
}

/// `text` with the whole-word occurrences of `word` replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().last();
        let after = rest[at + word.len()..].chars().next();
        let whole = !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        out.push_str(if whole { by } else { word });
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invented_word_takes_the_key_words_place_form_and_definition() {
        let line = r#"{"sentence": "Crowded rooms: the rats fled the holes since the _ were crowded, overcrowded.", "options": ["holes", "spaces"], "answer": 0, "key": "crowded", "lemma": "crowd", "form": "past", "pos": "verb", "definition": "fill or occupy to the point of overflowing"}"#;
        let items = read_items(line).expect("items");
        let item = items[0].with_word("plest");
        assert_eq!(item.sentence, "Crowded rooms: the rats fled the holes since the _ were plested, overcrowded.");
        assert_eq!(item.definition.as_deref(), Some("The verb to plest means to fill or occupy to the point of overflowing."));
        assert_eq!(items[0].original().sentence, items[0].sentence, "the key word as written");
        assert!(read_items(&line.replace("\"answer\": 0", "\"answer\": 2")).is_err());
    }

    #[test]
    fn a_shifted_word_is_another_items_key_word_of_the_same_part_of_speech_and_form() {
        let items = read_items(include_str!("../../../data/new_words/winogrande.jsonl")).expect("the committed items");
        let partners = shift_partners(&items, 7);
        assert_eq!(partners, shift_partners(&items, 7), "seeded");
        assert_ne!(partners, shift_partners(&items, 8));
        for (item, partner) in items.iter().zip(&partners) {
            let other = &items[partner.expect("every part of speech and form has several lemmas")];
            assert_ne!(other.lemma, item.lemma);
            assert_eq!((other.pos, other.form), (item.pos, item.form));
            let shifted = item.shifted_to(other);
            assert!(shifted.sentence.to_lowercase().contains(&other.key.to_lowercase()), "{shifted:?}");
            assert!(
                shifted.definition.as_deref().is_some_and(|d| d.contains(&item.definition)),
                "the key word's own definition: {shifted:?}"
            );
        }
        let ids: std::collections::HashSet<String> = items.iter().map(KeyedItem::id).collect();
        assert_eq!(ids.len(), items.len(), "ids are unique");
        assert!(ids.iter().all(|id| id.len() == 15 && id.starts_with("wd-")));
    }

    #[test]
    fn every_committed_item_reads_and_gives_its_key_word_back() {
        let items = read_items(include_str!("../../../data/new_words/winogrande.jsonl")).expect("the committed items");
        assert!(items.len() >= 500, "{}", items.len());
        for item in &items {
            assert_eq!(item.original().sentence, item.sentence, "{item:?}");
        }
    }
}
