//! The cloze game as the player sees it: a corpus sentence with one word blanked
//! out, the player types the word; then they are told whether it was right, the
//! word that was there, and the words a model predicted there (the next-word game's
//! predictions of the same position, when a model made any).

use serde::{Deserialize, Serialize};

use crate::words::{game_spans, is_word_of_letters, occurrences, stands_alone};
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
    let spans = game_spans(text);
    let &(start, end) = spans.get(position).filter(|_| position >= 1)?;
    Some((text.get(..start)?.to_owned(), text.get(start..end)?.to_owned(), text.get(end..)?.to_owned()))
}

/// The positions of `text` (as [`cloze_parts`] numbers them) whose word may be
/// blanked: a word of letters ([`is_word_of_letters`]), once in the sentence (any
/// case: a repeated word answers itself), and standing alone ([`stands_alone`]:
/// not "don't", the "un" of "d'un" or a piece of "12.9.5").
pub fn blankable_positions(text: &str) -> Vec<usize> {
    let spans = game_spans(text);
    let mut positions = Vec::new();
    for (position, &(start, end)) in spans.iter().enumerate().skip(1) {
        let Some(word) = text.get(start..end) else { continue };
        if is_word_of_letters(word) && stands_alone(text, (start, end)) && occurrences(text, word).len() == 1 {
            positions.push(position);
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_words_of_letters_that_occur_once_are_blanked() {
        let blanked = |text: &str| -> Vec<String> {
            blankable_positions(text).into_iter().filter_map(|p| cloze_parts(text, p).map(|(_, w, _)| w)).collect()
        };
        assert_eq!(blanked("I don't know."), ["know"]);
        assert_eq!(blanked("Il dit qu'il aime l'été."), ["dit", "aime"]);
        assert_eq!(blanked("Créez d'un fichier."), ["fichier"]);
        assert_eq!(blanked("Installez Debian 12.9.5 maintenant."), ["Debian", "maintenant"]);
        assert_eq!(blanked("Он хар и хар."), ["и"]);
        assert_eq!(blanked("The twenty-one dogs barked, loudly."), ["twenty-one", "dogs", "barked", "loudly"]);
        assert_eq!(blanked("See www.example.org now."), ["now"]);
    }

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
