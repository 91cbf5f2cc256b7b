//! A context as every scorer sees it — a sentence, the byte range of the blanked
//! word, and the two words of the pair — and the trait each kind of model
//! implements to say how likely each word is in the blank.

use crate::ScorerError;

/// One context of an item.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The sentence as shown, with the target still in it.
    pub text: &'a str,
    /// Byte range of the target occurrence in `text`.
    pub blank: (usize, usize),
    pub target: &'a str,
    pub distractor: &'a str,
}

/// The model's log-probabilities for the context with each word in the blank
/// (natural log); `gapwise_model::eq2` makes an item's score of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WordLogProbs {
    pub target: f64,
    pub distractor: f64,
}

/// How much of its work a scorer does once for both words of contexts (see
/// [`ContextScorer::sharing`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sharing {
    pub contexts: usize,
    /// Contexts whose two sentences share a forward pass or a part of one.
    pub contexts_shared: usize,
    /// Tokens the model runs for the contexts.
    pub tokens_run: usize,
    /// Tokens it would run with every sentence (or masked sequence) run whole.
    pub tokens_whole: usize,
}

/// A model that plays the substitution game.
pub trait ContextScorer: Send + Sync {
    /// Scores contexts, in order; an error names the context at fault.
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError>;

    /// What [`Self::score_contexts`] shares between the two words of `contexts`; a
    /// model that runs no tokens (the baselines) shares nothing and counts none.
    fn sharing(&self, contexts: &[Context<'_>]) -> Result<Sharing, ScorerError> {
        Ok(Sharing { contexts: contexts.len(), ..Sharing::default() })
    }
}

impl Context<'_> {
    /// The sentence with `word` in the blank (see [`fill_blank`]) and the byte range
    /// it fills there, or an error naming the context when the blank does not fall
    /// on character boundaries.
    pub fn filled(&self, word: &str) -> Result<(String, (usize, usize)), ScorerError> {
        let sentence = fill_blank(self.text, self.blank, word)
            .ok_or_else(|| ScorerError::Input(format!("blank {:?} is not a word of {:?}", self.blank, self.text)))?;
        let end = sentence.len() - (self.text.len() - self.blank.1);
        Ok((sentence, (self.blank.0, end)))
    }
}

/// `text` with the word at byte range `blank` replaced by `word`, written in the
/// case of the word it replaces: all capitals stay all capitals, a capital first
/// letter stays (sentence starts), anything else takes `word` as it is.
pub fn fill_blank(text: &str, (start, end): (usize, usize), word: &str) -> Option<String> {
    let original = text.get(start..end)?;
    let mut letters = original.chars().filter(|c| c.is_alphabetic());
    let first_upper = letters.next().is_some_and(char::is_uppercase);
    let all_upper = first_upper && original.chars().count() > 1 && letters.all(char::is_uppercase);
    let cased = if all_upper {
        word.to_uppercase()
    } else if first_upper {
        let mut chars = word.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    } else {
        word.to_owned()
    };
    Some(format!("{}{cased}{}", &text[..start], &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_words_take_the_case_of_the_blank() {
        let text = "Two runners started; TWO of them won two prizes.";
        assert_eq!(fill_blank(text, (0, 3), "three").as_deref(), Some("Three runners started; TWO of them won two prizes."));
        assert_eq!(fill_blank(text, (21, 24), "three").as_deref(), Some("Two runners started; THREE of them won two prizes."));
        assert_eq!(fill_blank(text, (37, 40), "three").as_deref(), Some("Two runners started; TWO of them won three prizes."));
        assert_eq!(fill_blank("Ёлка стоит", (0, 8), "ель").as_deref(), Some("Ель стоит"));
        assert_eq!(fill_blank("on monday", (3, 9), "Friday").as_deref(), Some("on Friday"));
        assert_eq!(fill_blank("short", (2, 99), "x"), None);
    }
}
