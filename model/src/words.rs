//! Whole-word matching, Unicode-aware and case-insensitive.
//!
//! A word is a maximal run of alphanumeric characters (any script), where a hyphen
//! between two alphanumerics stays inside the word ("twenty-one" is one word, and
//! does not contain "one"). Apostrophes separate words, because French and Italian
//! elision ("l'été", "dell'anno") is far more common than words with an inner
//! apostrophe; so "dog's" contains "dog".
//! Text is compared after NFC normalisation and Unicode lower-casing.

use unicode_normalization::UnicodeNormalization;

fn is_joiner(c: char) -> bool {
    matches!(c, '-' | '\u{2010}')
}

/// NFC-normalises and trims text from the outside world.
pub fn normalize(text: &str) -> String {
    text.trim().nfc().collect()
}

/// Byte ranges of the words of `text`.
pub fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut spans = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &(at, c)) in chars.iter().enumerate() {
        let inside =
            c.is_alphanumeric() || (start.is_some() && is_joiner(c) && chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphanumeric()));
        match (inside, start) {
            (true, None) => start = Some(at),
            (false, Some(s)) => {
                spans.push((s, at));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

/// True when the word at byte range `span` of `text` is not glued to an apostrophe,
/// a digit, or a dot, comma, colon, slash, underscore or @ that goes on into more
/// text: then it is a piece of a longer token ("don't", "d'un", "12.9.5",
/// "example.org"), not a word a person would name on its own.
pub fn stands_alone(text: &str, (start, end): (usize, usize)) -> bool {
    let glued = |c: Option<char>, beyond: Option<char>| match c {
        Some('\'' | '\u{2019}' | '`') => true,
        Some(c) if c.is_numeric() => true,
        Some('.' | ',' | ':' | '/' | '_' | '@') => beyond.is_some_and(char::is_alphanumeric),
        _ => false,
    };
    let mut back = text.get(..start).unwrap_or_default().chars().rev();
    let mut ahead = text.get(end..).unwrap_or_default().chars();
    !glued(back.next(), back.next()) && !glued(ahead.next(), ahead.next())
}

/// True when `word` is written in letters only (a hyphen inside it kept), in one of
/// the cases a word is written in: lower case, a capital first, or all capitals
/// ("cRST" is not a word).
pub fn is_word_of_letters(word: &str) -> bool {
    let letters = !word.is_empty() && word.chars().all(|c| c.is_alphabetic() || is_joiner(c));
    let tail: String = word.chars().skip(1).collect();
    letters && (tail == tail.to_lowercase() || word == word.to_uppercase())
}

/// True when `word` is exactly one word by the rule above.
pub fn is_single_word(word: &str) -> bool {
    let spans = word_spans(word);
    spans.as_slice() == [(0, word.len())]
}

/// Byte ranges where `word` occurs in `text` as a whole word, ignoring case.
pub fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let wanted = word.to_lowercase();
    word_spans(text).into_iter().filter(|&(s, e)| text[s..e].to_lowercase() == wanted).collect()
}

/// The blank for a context of the pair: the one occurrence of `target` when it
/// occurs exactly once and `distractor` does not occur; otherwise `None`.
pub fn blank_for(text: &str, target: &str, distractor: &str) -> Option<(usize, usize)> {
    let found = occurrences(text, target);
    match found.as_slice() {
        [one] if occurrences(text, distractor).is_empty() => Some(*one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_whole_words_only() {
        let text = "The cat sat; a category of cats. CAT!";
        assert_eq!(occurrences(text, "cat"), vec![(4, 7), (33, 36)]);
        assert!(occurrences(text, "at").is_empty());
    }

    #[test]
    fn hyphens_join_and_apostrophes_split() {
        assert_eq!(occurrences("the dog's bone", "dog"), vec![(4, 7)]);
        assert_eq!(occurrences("l'été dell'anno", "été"), vec![(2, 7)]);
        assert!(occurrences("twenty-one", "one").is_empty());
        assert_eq!(occurrences("twenty-one", "twenty-one"), vec![(0, 10)]);
        // a leading or trailing hyphen is punctuation, not part of the word
        assert_eq!(occurrences("dogs -dog-", "dog"), vec![(6, 9)]);
    }

    #[test]
    fn cyrillic_and_accents_are_case_insensitive() {
        let text = "Это Красный дом, не зелёный.";
        let (s, e) = occurrences(text, "красный")[0];
        assert_eq!(&text[s..e], "Красный");
        assert_eq!(occurrences("ÉTÉ chaud, l'été", "été").len(), 2);
        // decomposed input is normalised before matching
        assert_eq!(occurrences(&normalize("e\u{301}te\u{301}"), "été").len(), 1);
    }

    #[test]
    fn blank_needs_one_target_and_no_distractor() {
        assert_eq!(blank_for("I saw two dogs and one cat", "two", "three"), Some((6, 9)));
        assert_eq!(blank_for("two or three", "two", "three"), None);
        assert_eq!(blank_for("two by two", "two", "three"), None);
        assert_eq!(blank_for("none here", "two", "three"), None);
    }

    #[test]
    fn words_that_stand_alone_and_words_of_letters() {
        let at = |text: &str, word: &str| occurrences(text, word)[0];
        assert!(!stands_alone("I don't", at("I don't", "t")));
        assert!(!stands_alone("I don't", at("I don't", "don")));
        assert!(!stands_alone("Debian 12.9.5", at("Debian 12.9.5", "5")));
        assert!(stands_alone("It ends here.", at("It ends here.", "here")));
        assert!(stands_alone("«chat», dit-il", at("«chat», dit-il", "chat")));
        assert!(is_word_of_letters("chat") && is_word_of_letters("Chat") && is_word_of_letters("NASA") && is_word_of_letters("dit-il"));
        assert!(!is_word_of_letters("cRST") && !is_word_of_letters("a1") && !is_word_of_letters("") && !is_word_of_letters("l'"));
    }

    #[test]
    fn single_words() {
        assert!(is_single_word("rouge"));
        assert!(is_single_word("twenty-one"));
        assert!(!is_single_word("aujourd'hui"));
        assert!(!is_single_word("ice cream"));
        assert!(!is_single_word("dog."));
        assert!(!is_single_word(""));
    }
}
