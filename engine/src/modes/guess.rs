//! The next-word game's rules (002_07d3f5412720a88c.txt): a sentence of playable
//! length the player has not had (in the easier mode, one a model predicted, whose
//! suggestions it offers), revealed word by word; a guess is right when it is the
//! word, whatever the case, and the positions are guessed in order.

use gapwise_model::words::{normalize, same_word};
use gapwise_model::{
    playable, positions, GuessCard, GuessMode, GuessResult, Language, PlayerId, RefusalKey, Reported, ServingId, Timing, Trial,
    MAX_GUESS_CHARS, RECENT_OUTCOME_MS,
};
use gapwise_store::{now_ms, GuessRow, GuessServing, Refusal, Store, StoreError};

use super::{answer, open_or_serve, Answers, Judged};
use crate::error::EngineError;

/// Sentences looked at per draw when serving a new one.
const DRAW: i64 = 50;

/// A player's latest rounds of a language looked at for one left unfinished (older
/// ones count as given up).
const OPEN_LOOKED_AT: i64 = 3;

/// A guess as a player sends it.
struct SentGuess {
    /// The word guessed: 1 is the sentence's second word.
    position: usize,
    /// As typed (ignored with `rank`).
    typed: String,
    /// The 1-based place of a suggestion picked (the easier mode).
    rank: Option<usize>,
}

crate::engine::part!(
    /// The next-word game's rounds and guesses.
    Guess,
    guess
);

impl Guess<'_> {
    /// The round in progress for `annotator` in `lang`, else a new sentence (in
    /// `mode`); `None` when no sentence is left for them.
    pub async fn round(self, player: &PlayerId, language: Language, mode: GuessMode) -> Result<Option<GuessCard>, EngineError> {
        let store = &self.store;
        let serving = open_or_serve(|| open_round(store, player, language, mode), || serve_sentence(store, player, language, mode)).await?;
        let Some(serving) = serving else { return Ok(None) };
        card(store, player, &serving).await.map(Some)
    }

    /// `annotator` guesses word `position` of round `serving`: `guess` as typed, or
    /// with `rank`, the suggestion at that 1-based place (the easier mode). A
    /// position guessed already answers as before; one further ahead is refused.
    pub async fn guess(
        self,
        player: &PlayerId,
        serving: &ServingId,
        position: usize,
        guess: &str,
        rank: Option<usize>,
        reported: Reported,
    ) -> Result<GuessResult, EngineError> {
        let given = SentGuess { position, typed: guess.to_owned(), rank };
        answer::<Guessing>(&self.store, player, serving, given, reported).await
    }
}

/// The latest round of `lang` that `annotator` has not guessed to the end. A round
/// begins at its first guess: one opened in the other mode and left without a guess
/// is forgotten, so that `mode` serves its own sentence (with suggestions when it
/// is the easier mode).
async fn open_round(store: &Store, player: &PlayerId, language: Language, mode: GuessMode) -> Result<Option<ServingId>, StoreError> {
    for round in store.guess().latest_rounds(player, language, OPEN_LOOKED_AT).await? {
        if round.guessed >= positions(&round.text).len() {
            continue;
        }
        if round.guessed == 0 && round.mode != mode {
            store.guess().forget_unguessed(player, &round.serving_id).await?;
            continue;
        }
        return Ok(Some(round.serving_id));
    }
    Ok(None)
}

/// Serves `annotator` a sentence of `lang` of playable length they have not had: one
/// a model predicted when there is (always, in the easier mode); false when none is left.
async fn serve_sentence(store: &Store, player: &PlayerId, language: Language, mode: GuessMode) -> Result<bool, EngineError> {
    for predicted in [true, false] {
        if !predicted && mode == GuessMode::Choose {
            break;
        }
        let drawn = store.guess().unplayed_sentences(player, language, predicted, DRAW).await?;
        if let Some((sentence, _)) = drawn.into_iter().find(|(_, text)| playable(text)) {
            store.guess().insert_serving(player, sentence, mode).await?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Refuses a typed word of no characters or more than [`MAX_GUESS_CHARS`]: the
/// next-word game's guesses and the cloze game's answers alike.
pub(super) fn check_length(word: &str) -> Result<(), EngineError> {
    if word.is_empty() || word.chars().count() > MAX_GUESS_CHARS {
        return Err(EngineError::Refused(
            Refusal::new(RefusalKey::GuessLength, format!("a guess is one word of 1 to {MAX_GUESS_CHARS} characters"))
                .arg("max", MAX_GUESS_CHARS),
        ));
    }
    Ok(())
}

/// What the player sees of round `serving`.
async fn card(store: &Store, player: &PlayerId, serving: &ServingId) -> Result<GuessCard, EngineError> {
    let round = store.guess().serving(player, serving).await?.ok_or_else(StoreError::busy)?;
    let all = positions(&round.text);
    let position = round.guesses.len() + 1;
    let revealed = all.get(position - 1).map(|(before, _)| before.clone()).unwrap_or_default();
    let suggestions = match round.mode {
        GuessMode::Type => Vec::new(),
        GuessMode::Choose => store.guess().suggested_words(round.sentence_id, position).await?,
    };
    let rounds = store.guess().rounds(player).await?;
    let finished = rounds.iter().filter(|r| r.guessed >= positions(&r.text).len()).count();
    let last = store.guess().latest(player, serving, now_ms() - RECENT_OUTCOME_MS).await?;
    Ok(GuessCard {
        serving_id: serving.to_owned(),
        mode: round.mode,
        revealed,
        position,
        positions: all.len(),
        suggestions,
        finished: i64::try_from(finished).unwrap_or(i64::MAX),
        last: last.map(|(guess, text)| told(&guess, positions(&text).len())),
    })
}

/// What a player is told of `guess` in a sentence of `positions` words to guess.
fn told(guess: &GuessRow, positions: usize) -> GuessResult {
    GuessResult { guess: guess.guess.clone(), word: guess.word.clone(), correct: guess.correct, sentence_done: guess.position == positions }
}

struct Guessing;

impl Answers for Guessing {
    /// The round, with the suggestions at its next position when one was picked.
    type Serving = (GuessServing, Vec<String>);
    type Given = SentGuess;
    type Row = GuessRow;
    type Outcome = GuessResult;
    const SERVED: &'static str = "a sentence";

    fn served_at((round, _): &Self::Serving) -> i64 {
        round.served_at
    }

    async fn read(store: &Store, player: &PlayerId, serving: &ServingId, given: &SentGuess) -> Result<Option<Self::Serving>, StoreError> {
        let Some(round) = store.guess().serving(player, serving).await? else { return Ok(None) };
        // a suggestion picked is judged against those of the position to guess now
        let suggestions = match (round.mode, given.rank) {
            (GuessMode::Choose, Some(_)) => store.guess().suggested_words(round.sentence_id, round.guesses.len() + 1).await?,
            _ => Vec::new(),
        };
        Ok(Some((round, suggestions)))
    }

    fn judge((round, suggestions): &Self::Serving, given: &SentGuess) -> Result<Judged<GuessRow, GuessResult>, EngineError> {
        let all = positions(&round.text);
        if let Some(earlier) = round.guesses.iter().find(|g| g.position == given.position) {
            return Ok(Judged::Repeated(told(earlier, all.len())));
        }
        let next = round.guesses.len() + 1;
        let Some((_, word)) = all.get(next - 1).filter(|_| given.position == next) else {
            return Err(EngineError::Invalid(format!("word {next} is the one to guess now, not {}", given.position)));
        };
        let guess = match given.rank {
            None => normalize(&given.typed),
            Some(_) if round.mode != GuessMode::Choose => {
                return Err(EngineError::Invalid("suggestions are only offered in the easier mode".into()))
            }
            Some(rank) => rank
                .checked_sub(1)
                .and_then(|i| suggestions.get(i).cloned())
                .ok_or_else(|| EngineError::Invalid(format!("there are {} suggestions, not {rank}", suggestions.len())))?,
        };
        check_length(&guess)?;
        let correct = same_word(&guess, word);
        let row = GuessRow { position: next, guess, word: word.clone(), correct, rank: given.rank };
        let outcome = told(&row, all.len());
        Ok(Judged::New(row, outcome))
    }

    async fn write(
        store: &Store,
        _: &PlayerId,
        serving: &ServingId,
        row: &GuessRow,
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        store.guess().insert(serving, row, timing, trial).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(mode: GuessMode, guessed: &[&str]) -> GuessServing {
        round_of("The dog barked twice.", mode, guessed)
    }

    fn round_of(text: &str, mode: GuessMode, guessed: &[&str]) -> GuessServing {
        let guesses = positions(text)
            .into_iter()
            .zip(guessed)
            .enumerate()
            .map(|(i, ((_, word), guess))| GuessRow { position: i + 1, guess: (*guess).into(), word, correct: false, rank: None })
            .collect();
        GuessServing { mode, sentence_id: 1, text: text.into(), served_at: 0, guesses }
    }

    fn guess(position: usize, typed: &str, rank: Option<usize>) -> SentGuess {
        SentGuess { position, typed: typed.into(), rank }
    }

    #[test]
    fn a_guess_is_right_whatever_its_case_and_a_repeated_one_is_told_as_before() {
        let serving = (round(GuessMode::Type, &["cat"]), Vec::new());
        let Judged::New(row, told) = Guessing::judge(&serving, &guess(2, " BARKED ", None)).expect("judged") else { panic!("new") };
        assert_eq!((row.position, row.word.as_str(), told.correct, told.sentence_done), (2, "barked", true, false));
        let again = Guessing::judge(&serving, &guess(1, "anything", None)).expect("judged");
        assert_eq!(again, Judged::Repeated(GuessResult { guess: "cat".into(), word: "dog".into(), correct: false, sentence_done: false }));
    }

    #[test]
    fn positions_are_guessed_in_order_and_suggestions_only_in_the_easier_mode() {
        let typed = (round(GuessMode::Type, &["cat"]), Vec::new());
        assert!(matches!(Guessing::judge(&typed, &guess(3, "twice", None)), Err(EngineError::Invalid(_))));
        assert!(matches!(Guessing::judge(&typed, &guess(2, "", Some(1))), Err(EngineError::Invalid(_))));
        assert!(matches!(Guessing::judge(&typed, &guess(2, "  ", None)), Err(EngineError::Refused(_))));
        let chosen = (round(GuessMode::Choose, &["cat", "barked"]), vec!["slept".into(), "twice".into()]);
        let Judged::New(row, told) = Guessing::judge(&chosen, &guess(3, "", Some(2))).expect("judged") else { panic!("new") };
        assert_eq!((row.guess.as_str(), row.rank, told.correct, told.sentence_done), ("twice", Some(2), true, true));
        assert!(matches!(Guessing::judge(&chosen, &guess(3, "", Some(3))), Err(EngineError::Invalid(_))));
        let done = (round(GuessMode::Type, &["cat", "barked", "twice"]), Vec::new());
        assert!(matches!(Guessing::judge(&done, &guess(4, "more", None)), Err(EngineError::Invalid(_))));
    }

    #[test]
    fn a_contraction_is_one_word_and_an_elision_is_named_with_or_without_its_apostrophe() {
        let english = (round_of("I don't know.", GuessMode::Type, &[]), Vec::new());
        let Judged::New(row, told) = Guessing::judge(&english, &guess(1, "DON’T", None)).expect("judged") else { panic!("new") };
        assert_eq!((row.word.as_str(), told.correct), ("don't", true));
        let Judged::New(_, told) = Guessing::judge(&english, &guess(1, "don", None)).expect("judged") else { panic!("new") };
        assert!(!told.correct, "a piece of the word is not the word");
        let french = (round_of("Il voit l'été.", GuessMode::Type, &["voit"]), Vec::new());
        for typed in ["l'", "L’", "l"] {
            let Judged::New(row, told) = Guessing::judge(&french, &guess(2, typed, None)).expect("judged") else { panic!("new") };
            assert_eq!((row.word.as_str(), told.correct), ("l'", true), "{typed}");
        }
    }
}
