//! The cloze game as the player sees it: a corpus sentence with one word blanked
//! out, the player types the word; then they are told whether it was right, the
//! word that was there, and the words a model predicted there (the next-word game's
//! predictions of the same position, when a model made any).

use serde::{Deserialize, Serialize};

use crate::words::word_spans;
use crate::ServingId;

/// A cloze round as the player sees it: the sentence around the blank.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClozeCard {
    /// The serving the answer is sent back with.
    pub serving_id: ServingId,
    /// The sentence's text before the blank (with the space before it).
    pub before: String,
    /// The sentence's text after the blank (with the space or punctuation after it).
    pub after: String,
}

/// What an answer to a cloze round was, and the word that was there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClozeResult {
    /// The word as the player typed it (normalised).
    pub typed: String,
    /// Whether it is the word, whatever the case.
    pub right: bool,
    /// The sentence's text before the word, as on the card.
    pub before: String,
    /// The word that was there.
    pub word: String,
    /// The sentence's text after the word, as on the card.
    pub after: String,
    /// A model's top words at the blank, best first (the next-word game's
    /// predictions of this position); empty when no model predicted the sentence.
    pub model_words: Vec<String>,
}

/// `text` around its word `position` (the positions of the next-word game:
/// [`crate::positions`], 1 is the sentence's second word): (the text before the
/// word, the word, the text after it); `None` when the sentence has no such word.
pub fn cloze_parts(text: &str, position: usize) -> Option<(String, String, String)> {
    let spans = word_spans(text);
    let &(start, end) = spans.get(position).filter(|_| position >= 1)?;
    Some((text.get(..start)?.to_owned(), text.get(start..end)?.to_owned(), text.get(end..)?.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blank_splits_the_sentence_at_a_word_after_the_first() {
        let text = "The dog, a poodle, barked twenty-one times.";
        assert_eq!(cloze_parts(text, 1), Some(("The ".into(), "dog".into(), ", a poodle, barked twenty-one times.".into())));
        assert_eq!(cloze_parts(text, 5), Some(("The dog, a poodle, barked ".into(), "twenty-one".into(), " times.".into())));
        assert_eq!(cloze_parts(text, 0), None, "the first word is never blanked");
        assert_eq!(cloze_parts(text, 7), None);
        // the positions are the next-word game's
        let all = crate::positions(text);
        assert_eq!(cloze_parts(text, 3).map(|(_, w, _)| w), all.get(2).map(|(_, w)| w.clone()));
    }
}
