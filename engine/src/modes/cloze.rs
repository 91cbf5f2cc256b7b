//! The cloze game's rules: a sentence of playable length the player has not had in
//! this game (one a model predicted in the next-word game first, so that its words
//! can be shown after the answer), with one of its words blanked: a position of the
//! next-word game (any word but the first) whose word is a whole word of letters
//! once in the sentence ([`blankable_positions`]), the same for every player, taken
//! from the sentence's id ([`blanked_word`]). A serving takes
//! one answer: it is right when it is the word, whatever the case; a second answer
//! is told as the first.

use gapwise_model::words::{normalize, same_word};
use gapwise_model::{
    blankable_positions, cloze_parts, playable, ClozeCard, ClozeResult, Language, PlayerId, Reported, ServingId, Timing, Trial,
};
use gapwise_store::{ClozeAnswer, ClozeServing, Store, StoreError};

use super::guess::check_length;
use super::{answer, not_served, open_or_serve, Answers, Judged};
use crate::error::EngineError;

/// Sentences looked at per draw when serving a new one.
const DRAW: i64 = 50;

crate::engine::part!(
    /// The cloze game's rounds and answers.
    Cloze,
    cloze
);

impl Cloze<'_> {
    /// The serving of `language` that `player` has not answered, else a new
    /// sentence with a word blanked; `None` when no sentence is left for them.
    pub async fn round(self, player: &PlayerId, language: Language) -> Result<Option<ClozeCard>, EngineError> {
        let store = &self.store;
        let serving = open_or_serve(|| store.cloze().open_serving(player, language), || serve_sentence(store, player, language)).await?;
        let Some(serving) = serving else { return Ok(None) };
        let card = store.cloze().card(player, &serving).await?.ok_or_else(StoreError::busy)?;
        Ok(Some(card))
    }

    /// `player` answers serving `serving` with the word `typed`. A serving takes one
    /// answer: a second is told as the first, whatever it says.
    pub async fn answer(self, player: &PlayerId, serving: &ServingId, typed: &str, reported: Reported) -> Result<ClozeResult, EngineError> {
        answer::<Answering>(&self.store, player, serving, typed.to_owned(), reported).await
    }

    /// What `player` was told of their answer to serving `serving` (the page a plain
    /// form post comes back to shows it); `None` while it has no answer.
    pub async fn told(self, player: &PlayerId, serving: &ServingId) -> Result<Option<ClozeResult>, EngineError> {
        let read = Answering::read(&self.store, player, serving, &String::new()).await?;
        let (round, model_words) = read.ok_or_else(|| not_served::<Answering>(serving))?;
        let Some(given) = &round.answer else { return Ok(None) };
        Ok(Some(told(given, &round, &model_words)?))
    }
}

/// Serves `player` a sentence of `language` of playable length they have not had,
/// one a model predicted when there is, with its word blanked; false when none is
/// left.
async fn serve_sentence(store: &Store, player: &PlayerId, language: Language) -> Result<bool, EngineError> {
    for predicted in [true, false] {
        let drawn = store.cloze().unplayed_sentences(player, language, predicted, DRAW).await?;
        let blanked = drawn
            .into_iter()
            .filter(|(_, text)| playable(text))
            .find_map(|(id, text)| blanked_word(id, &blankable_positions(&text)).map(|p| (id, p)));
        if let Some((sentence, position)) = blanked {
            store.cloze().insert_serving(player, sentence, position).await?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// The word of sentence `sentence` that is blanked, among its `blankable`
/// positions (1 is the second word): the same for every player, drawn from the
/// sentence's id, so that the answers to a sentence are answers to one item (item
/// response theory fits them together) and the blanks spread over the positions
/// across sentences; `None` when no word may be blanked.
fn blanked_word(sentence: i64, blankable: &[usize]) -> Option<usize> {
    let count = u64::try_from(blankable.len()).ok().filter(|&n| n > 0)?;
    blankable.get(usize::try_from(sentence.unsigned_abs() % count).ok()?).copied()
}

/// The sentence of `round` around its blanked word: (before, word, after).
fn parts_of(round: &ClozeServing) -> Result<(String, String, String), EngineError> {
    let parts = cloze_parts(&round.text, round.position)
        .ok_or_else(|| StoreError::Corrupt(format!("a cloze serving blanks word {} of a sentence without it", round.position)))?;
    Ok(parts)
}

/// What a player is told of `answer` to `round`, where a model's top words were
/// `model_words`: the sentence with its word, and those words.
fn told(answer: &ClozeAnswer, round: &ClozeServing, model_words: &[String]) -> Result<ClozeResult, EngineError> {
    let (before, word, after) = parts_of(round)?;
    Ok(ClozeResult { typed: answer.typed.clone(), right: answer.correct, before, word, after, model_words: model_words.to_vec() })
}

struct Answering;

impl Answers for Answering {
    /// The serving with its answer so far, and a model's top words at its blank.
    type Serving = (ClozeServing, Vec<String>);
    /// The word as typed.
    type Given = String;
    type Row = ClozeAnswer;
    type Outcome = ClozeResult;
    const SERVED: &'static str = "a cloze sentence";

    fn served_at((round, _): &Self::Serving) -> i64 {
        round.served_at
    }

    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, _: &Self::Given) -> Result<Option<Self::Serving>, StoreError> {
        let Some(round) = store.cloze().serving(player, serving).await? else { return Ok(None) };
        let model_words = store.cloze().model_words(round.sentence_id, round.position).await?;
        Ok(Some((round, model_words)))
    }

    fn judge((round, model_words): &Self::Serving, typed: &Self::Given) -> Result<Judged<ClozeAnswer, ClozeResult>, EngineError> {
        if let Some(given) = &round.answer {
            return Ok(Judged::Repeated(told(given, round, model_words)?));
        }
        let (_, word, _) = parts_of(round)?;
        let typed = normalize(typed);
        check_length(&typed)?;
        let correct = same_word(&typed, &normalize(&word));
        let row = ClozeAnswer { typed, correct };
        let outcome = told(&row, round, model_words)?;
        Ok(Judged::New(row, outcome))
    }

    async fn write(
        store: &Store,
        _: &PlayerId,
        serving: &ServingId,
        row: &ClozeAnswer,
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        store.cloze().insert_answer(serving, row, timing, trial).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapwise_model::MAX_GUESS_CHARS;

    fn round(position: usize, answer: Option<(&str, bool)>) -> (ClozeServing, Vec<String>) {
        let answer = answer.map(|(typed, correct)| ClozeAnswer { typed: typed.into(), correct });
        let round = ClozeServing { sentence_id: 1, text: "The dog barked twice.".into(), position, served_at: 0, answer };
        (round, vec!["cat".into(), "dog".into()])
    }

    #[test]
    fn an_answer_is_right_whatever_its_case_and_tells_the_word_and_the_models_words() {
        let Judged::New(row, told) = Answering::judge(&round(1, None), &" DOG ".to_owned()).expect("judged") else { panic!("new") };
        assert_eq!(row, ClozeAnswer { typed: "DOG".into(), correct: true });
        assert_eq!(
            told,
            ClozeResult {
                typed: "DOG".into(),
                right: true,
                before: "The ".into(),
                word: "dog".into(),
                after: " barked twice.".into(),
                model_words: vec!["cat".into(), "dog".into()]
            }
        );
        let Judged::New(row, told) = Answering::judge(&round(2, None), &"meowed".to_owned()).expect("judged") else { panic!("new") };
        assert_eq!((row.correct, told.right, told.word.as_str()), (false, false, "barked"));
    }

    #[test]
    fn every_player_meets_the_same_blank_in_a_sentence_and_the_blanks_spread_over_its_words() {
        // a sentence's blank is one of its blankable words, the same at every call
        for sentence in [-3, 0, 1, 7, 41, i64::MAX, i64::MIN] {
            for blankable in [vec![], vec![2], vec![1, 4, 6], (1..=24).collect()] {
                let blank = blanked_word(sentence, &blankable);
                assert_eq!(blank.is_none(), blankable.is_empty());
                assert!(blank.is_none_or(|b| blankable.contains(&b)), "{sentence}, {blankable:?}: {blank:?}");
                assert_eq!(blank, blanked_word(sentence, &blankable));
            }
        }
        // consecutive sentences of one length blank each of its words in turn
        let blanks: std::collections::BTreeSet<Option<usize>> = (100..110).map(|s| blanked_word(s, &[1, 2, 3, 4, 5])).collect();
        assert_eq!(blanks, (1..=5).map(Some).collect());
    }

    #[test]
    fn a_second_answer_is_told_as_the_first_and_an_empty_or_long_one_is_refused() {
        let answered = round(3, Some(("often", false)));
        let again = Answering::judge(&answered, &"twice".to_owned()).expect("judged");
        let first = ClozeResult {
            typed: "often".into(),
            right: false,
            before: "The dog barked ".into(),
            word: "twice".into(),
            after: ".".into(),
            model_words: vec!["cat".into(), "dog".into()],
        };
        assert_eq!(again, Judged::Repeated(first));
        assert!(matches!(Answering::judge(&round(1, None), &"  ".to_owned()), Err(EngineError::Refused(_))));
        assert!(matches!(Answering::judge(&round(1, None), &"x".repeat(MAX_GUESS_CHARS + 1)), Err(EngineError::Refused(_))));
        // a position the sentence does not have is a stored row gone wrong
        assert!(matches!(Answering::judge(&round(9, None), &"dog".to_owned()), Err(EngineError::Store(_))));
    }
}
