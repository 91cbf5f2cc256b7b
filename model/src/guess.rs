//! The next-word game (002_07d3f5412720a88c.txt) as the player sees it.

use serde::{Deserialize, Serialize};

use crate::ServingId;

use crate::words::{game_spans, is_word_of_letters};
use crate::Language;

/// How a next-word round is played: every guess typed, or a model's suggestions
/// offered as well (the easier setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GuessMode {
    Type,
    Choose,
}

impl GuessMode {
    /// `type` or `choose`, as stored and in URLs.
    pub fn code(self) -> &'static str {
        match self {
            GuessMode::Type => "type",
            GuessMode::Choose => "choose",
        }
    }

    pub fn parse(code: &str) -> Option<GuessMode> {
        [GuessMode::Type, GuessMode::Choose].into_iter().find(|m| m.code() == code.trim())
    }
}

/// Sentences of the next-word game have this many words (inclusive).
pub const GUESS_WORDS: (usize, usize) = (4, 25);

/// (text before the word, the word) for every word of `text` after the first, as
/// the games count words ([`game_spans`]: "don't" is one, "l'" keeps its
/// apostrophe): the positions a player guesses. What is shown before a position is the sentence's
/// text up to that word, punctuation included, as models get it too.
pub fn positions(text: &str) -> Vec<(String, String)> {
    let spans = game_spans(text);
    spans.iter().skip(1).map(|&(start, end)| (text[..start].trim_end().to_owned(), text[start..end].to_owned())).collect()
}

/// Whether `text` is of a length the game plays ([`GUESS_WORDS`]).
pub fn playable(text: &str) -> bool {
    (GUESS_WORDS.0..=GUESS_WORDS.1).contains(&game_spans(text).len())
}

/// Longest guess, in characters.
pub const MAX_GUESS_CHARS: usize = 60;

/// Whether a model's predicted word may be offered as a suggestion in `language`:
/// one word as the games count them ([`game_spans`]: "don't", "l'"), of letters
/// apart from its apostrophes ([`is_word_of_letters`]), and of one letter only when
/// the language has such a word ("a", "y", "и"; not the "l" or "d" of an elision,
/// which are pieces). The store keeps, of these, the words its corpus of the
/// language has standing alone.
pub fn suggestable(language: Language, word: &str) -> bool {
    let one_letter: &[&str] = match language {
        Language::En => &["a", "i"],
        Language::Es => &["a", "e", "o", "u", "y"],
        Language::Fr => &["a", "à", "y", "ô"],
        Language::It => &["a", "e", "è", "i", "o"],
        Language::Ru => &["а", "в", "и", "к", "о", "с", "у", "я"],
    };
    // an elided word is one with its apostrophe after it
    let stem = word.strip_suffix(['\'', '\u{2019}']).unwrap_or(word);
    let one_word = game_spans(stem).as_slice() == [(0, stem.len())];
    let letters = is_word_of_letters(&stem.replace(['\'', '\u{2019}'], ""));
    one_word && letters && (word.chars().count() > 1 || one_letter.contains(&word.to_lowercase().as_str()))
}

/// A next-word round as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuessCard {
    pub serving_id: ServingId,
    pub mode: GuessMode,
    /// The sentence up to the word to guess.
    pub revealed: String,
    /// The word to guess: 1 is the sentence's second word.
    pub position: usize,
    /// Words to guess in the sentence.
    pub positions: usize,
    /// A model's words for this position, best first (the easier setting).
    pub suggestions: Vec<String>,
    /// Sentences the player has finished.
    pub finished: i64,
    /// The player's last guess in this language and mode, when it was just made
    /// ([`crate::RECENT_OUTCOME_MS`]).
    pub last: Option<GuessResult>,
}

/// What a guess was, and the word that was there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessResult {
    pub guess: String,
    pub word: String,
    pub correct: bool,
    /// Whether that was the sentence's last word.
    pub sentence_done: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_words_of_letters_and_one_letter_only_where_the_language_has_it() {
        assert!(suggestable(Language::Fr, "chat") && suggestable(Language::Fr, "à") && suggestable(Language::Ru, "и"));
        for piece in ["l", "d", "cRST", "t", "12", "l'été"] {
            assert!(!suggestable(Language::Fr, piece), "{piece}");
        }
        assert!(!suggestable(Language::En, "t") && suggestable(Language::En, "I"));
        assert!(suggestable(Language::En, "don't") && suggestable(Language::Fr, "l'") && suggestable(Language::It, "dell’"));
        assert!(suggestable(Language::Fr, "aujourd'hui"), "one word, as the games count them");
        assert!(!suggestable(Language::En, "'t") && !suggestable(Language::En, "do'n't"));
    }

    #[test]
    fn positions_are_the_words_after_the_first_with_the_text_before_them() {
        let p = positions("The dog, a poodle, barked twenty-one times.");
        let words: Vec<&str> = p.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(words, ["dog", "a", "poodle", "barked", "twenty-one", "times"]);
        assert_eq!(p[0].0, "The");
        assert_eq!(p[1].0, "The dog,");
        assert_eq!(p[5].0, "The dog, a poodle, barked twenty-one");
        assert!(positions("Hello!").is_empty());
        let p = positions("I don't know l'été.");
        assert_eq!(p.iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>(), ["don't", "know", "l'", "été"]);
        assert_eq!(p[3].0, "I don't know l'");
    }
}
