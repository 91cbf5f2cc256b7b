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

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

/// What follows the apostrophe of an English contraction or possessive: "don't",
/// "it's", "they're", "I've", "we'll", "I'd", "I'm".
const CONTRACTION_ENDINGS: [&str; 7] = ["t", "s", "re", "ve", "ll", "d", "m"];

/// Words written with an apostrophe inside, not an elision before another word.
const APOSTROPHE_WORDS: [&str; 8] =
    ["aujourd'hui", "quelqu'un", "quelqu'une", "prud'homme", "prud'hommes", "presqu'île", "presqu'îles", "o'clock"];

/// True when `piece` is an apostrophe and an English contraction's ending ("'t", "’s", "'LL").
pub fn is_contraction_ending(piece: &str) -> bool {
    let mut chars = piece.chars();
    chars.next().is_some_and(is_apostrophe) && CONTRACTION_ENDINGS.contains(&chars.as_str().to_lowercase().as_str())
}

/// A word in lower case, with the typographic apostrophe as the typewriter one.
pub fn folded(word: &str) -> String {
    word.to_lowercase().replace('\u{2019}', "'")
}

/// A word as a typed word is compared with it: [`folded`], and an elision's final
/// apostrophe optional ("L’" is "l'" is "l").
fn compared(word: &str) -> String {
    folded(word).trim_end_matches('\'').to_owned()
}

/// Whether a typed word is the word of a sentence (see [`compared`]).
pub fn same_word(typed: &str, word: &str) -> bool {
    compared(typed) == compared(word)
}

/// Byte ranges of the words the games play in `text`: the next-word game's
/// positions and the cloze game's blanks. They are the words of [`word_spans`],
/// except around an apostrophe with a word right before and right after it:
/// - an English contraction or possessive is one word ("don't", "they're", "dog's"),
///   and so are the French words written with an apostrophe ("aujourd'hui");
/// - any other apostrophe ends an elision, and stays with it ("l'", "dell'", "qu'"),
///   so that the elided word is named with its apostrophe, as a person writes it.
pub fn game_spans(text: &str) -> Vec<(usize, usize)> {
    let words = word_spans(text);
    let mut spans = Vec::with_capacity(words.len());
    let mut i = 0;
    while let Some(&(start, mut end)) = words.get(i) {
        while let Some(&(next, next_end)) = words.get(i + 1) {
            let between = text.get(end..next).unwrap_or_default();
            if between.chars().count() != 1 || !between.chars().all(is_apostrophe) {
                break;
            }
            let joined = text.get(start..next_end).unwrap_or_default();
            if is_contraction_ending(text.get(end..next_end).unwrap_or_default()) || APOSTROPHE_WORDS.contains(&folded(joined).as_str()) {
                end = next_end;
                i += 1;
            } else {
                end = next;
                break;
            }
        }
        spans.push((start, end));
        i += 1;
    }
    spans
}

/// Byte ranges where `word` is one of the words the games play in `text`
/// ([`game_spans`]), ignoring case and the kind of apostrophe: "don't" is in "I
/// don’t", "don" is not.
pub fn game_occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let wanted = folded(word);
    game_spans(text).into_iter().filter(|&(s, e)| text.get(s..e).is_some_and(|w| folded(w) == wanted)).collect()
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

    #[test]
    fn games_keep_contractions_whole_and_elisions_with_their_apostrophe() {
        let words = |text: &str| -> Vec<String> { game_spans(text).into_iter().map(|(s, e)| text[s..e].to_owned()).collect() };
        assert_eq!(words("I don't know, they’re sure it's the dog's."), ["I", "don't", "know", "they’re", "sure", "it's", "the", "dog's"]);
        assert_eq!(words("At 7 o’clock"), ["At", "7", "o’clock"]);
        assert_eq!(words("Aujourd'hui, l'été qu'il aime."), ["Aujourd'hui", "l'", "été", "qu'", "il", "aime"]);
        assert_eq!(words("Dell'anno, un’altra volta."), ["Dell'", "anno", "un’", "altra", "volta"]);
        assert_eq!(words("El perro del vecino."), ["El", "perro", "del", "vecino"]);
        assert_eq!(words("Это красный дом."), ["Это", "красный", "дом"]);
        // an apostrophe beside a space is a quote, not part of a word
        assert_eq!(words("'Tis 'quoted' po' rock"), ["Tis", "quoted", "po", "rock"]);
        assert!(
            is_contraction_ending("'t") && is_contraction_ending("’LL") && !is_contraction_ending("'il") && !is_contraction_ending("t")
        );
        assert_eq!(game_occurrences("I don’t, DON'T", "don't"), [(2, 9), (11, 16)]);
        assert!(game_occurrences("I don't", "don").is_empty() && game_occurrences("l'été", "l").is_empty());
        assert!(same_word("L’", "l'") && same_word("l", "l'") && same_word("DON’T", "don't") && !same_word("don", "don't"));
    }
}
