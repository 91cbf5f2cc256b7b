//! Partial scoring (Trinh & Le 2018) as paper 003 uses it (Sec. 2.3): the blank of a
//! Winograd sentence is filled with each option in turn, and the model scores the
//! same continuation (the text after the blank) after each filled prefix; the option
//! whose prefix makes the continuation likelier is the model's answer.
//!
//! The invented word is taught by its definition sentence (see [`super::prompt`]):
//! as a suffix of the continuation, so that the model scores the definition (the
//! paper's best setup), as a prefix it conditions on, or not at all (the "empty"
//! control). k-shot prompts put k solved items, each with its definition, first.

use gapwise_model::{NewWordsItem, Teaching};

use crate::causal::CausalLm;
use crate::error::ScorerError;

/// Anything that gives the log-probability of each token of a continuation after a
/// prefix (a causal model; a table of hand-set values in the tests).
pub trait ContinuationScorer: Send + Sync {
    fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError>;
}

impl ContinuationScorer for CausalLm {
    fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        CausalLm::continuation_log_probs(self, pairs)
    }
}

/// The two prefixes and the shared continuation of an item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompts {
    pub prefixes: [String; 2],
    pub continuation: String,
}

/// What the model made of an item.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Log-likelihood of the continuation after each option.
    pub log_likelihoods: [f64; 2],
    /// The option with the higher log-likelihood (the first on a tie).
    pub choice: usize,
    pub correct: bool,
}

fn halves(item: &NewWordsItem) -> Result<(&str, &str), ScorerError> {
    let mut parts = item.sentence.splitn(3, '_');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(before), Some(after), None) => Ok((before, after)),
        _ => Err(ScorerError::Input(format!("the sentence must hold exactly one blank `_`: {:?}", item.sentence))),
    }
}

/// The prompts of `item` taught as `teaching`, after the solved `shots`.
pub fn prompts(item: &NewWordsItem, teaching: Teaching, shots: &[NewWordsItem]) -> Result<Prompts, ScorerError> {
    let (before, after) = halves(item)?;
    let definition = match teaching {
        Teaching::Empty => None,
        _ => Some(item.definition.as_deref().ok_or_else(|| ScorerError::Input(format!("no definition for {:?}", item.sentence)))?),
    };
    let mut context = String::new();
    for shot in shots {
        let (b, a) = halves(shot)?;
        let solved = format!("{b}{}{a}", shot.options[shot.answer]);
        let taught = match (teaching, &shot.definition) {
            (Teaching::DefinitionPrefix, Some(d)) => format!("{d} {solved}"),
            (Teaching::DefinitionSuffix, Some(d)) => format!("{solved} {d}"),
            _ => solved,
        };
        context.push_str(&taught);
        context.push('\n');
    }
    if let (Teaching::DefinitionPrefix, Some(d)) = (teaching, definition) {
        context.push_str(d);
        context.push(' ');
    }
    let mut continuation = after.trim_end().to_owned();
    if let (Teaching::DefinitionSuffix, Some(d)) = (teaching, definition) {
        continuation.push(' ');
        continuation.push_str(d);
    }
    if continuation.trim().is_empty() {
        return Err(ScorerError::Input(format!("nothing after the blank to score: {:?}", item.sentence)));
    }
    let prefix = |option: &str| format!("{context}{before}{option}");
    Ok(Prompts { prefixes: [prefix(&item.options[0]), prefix(&item.options[1])], continuation })
}

/// Judges every item in one batch of model calls.
pub fn judge(
    model: &(impl ContinuationScorer + ?Sized),
    items: &[NewWordsItem],
    teaching: Teaching,
    shots: &[NewWordsItem],
) -> Result<Vec<Judgement>, ScorerError> {
    let prompts = items.iter().map(|item| prompts(item, teaching, shots)).collect::<Result<Vec<_>, _>>()?;
    let pairs: Vec<(&str, &str)> =
        prompts.iter().flat_map(|p| p.prefixes.iter().map(|prefix| (prefix.as_str(), p.continuation.as_str()))).collect();
    let scores = model.continuation_log_probs(&pairs)?;
    let total = |i: usize| {
        scores
            .get(i)
            .map(|s| s.iter().map(|&x| f64::from(x)).sum::<f64>())
            .ok_or_else(|| ScorerError::Input("the model scored too few pairs".into()))
    };
    items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let log_likelihoods = [total(2 * n)?, total(2 * n + 1)?];
            let choice = usize::from(log_likelihoods[1] > log_likelihoods[0]);
            Ok(Judgement { log_likelihoods, choice, correct: choice == item.answer })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A model whose token log-probabilities are set by hand for each prompt.
    struct Table(HashMap<(String, String), Vec<f32>>);

    impl ContinuationScorer for Table {
        fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
            pairs
                .iter()
                .map(|(p, c)| {
                    self.0
                        .get(&((*p).to_owned(), (*c).to_owned()))
                        .cloned()
                        .ok_or_else(|| ScorerError::Input(format!("unexpected prompt {p:?} / {c:?}")))
                })
                .collect()
        }
    }

    fn item() -> NewWordsItem {
        NewWordsItem {
            sentence: "The rats fled the holes for the fields since the _ were vorny.".into(),
            options: ["holes".into(), "fields".into()],
            answer: 0,
            definition: Some("The meaning of vorny is filled with people.".into()),
        }
    }

    #[test]
    fn the_definition_goes_after_the_continuation_or_before_the_sentence() {
        let suffix = prompts(&item(), Teaching::DefinitionSuffix, &[]).expect("prompts");
        assert_eq!(
            suffix.prefixes,
            ["The rats fled the holes for the fields since the holes", "The rats fled the holes for the fields since the fields"]
        );
        assert_eq!(suffix.continuation, " were vorny. The meaning of vorny is filled with people.");
        let prefix = prompts(&item(), Teaching::DefinitionPrefix, &[]).expect("prompts");
        assert_eq!(
            prefix.prefixes[1],
            "The meaning of vorny is filled with people. The rats fled the holes for the fields since the fields"
        );
        assert_eq!(prefix.continuation, " were vorny.");
        let empty = prompts(&item(), Teaching::Empty, &[]).expect("prompts");
        assert_eq!(empty.continuation, " were vorny.");

        let shot = NewWordsItem {
            sentence: "Ann thanked Sue because _ plested her.".into(),
            options: ["Ann".into(), "Sue".into()],
            answer: 1,
            definition: Some("The verb to plest means to help.".into()),
        };
        let one_shot = prompts(&item(), Teaching::DefinitionSuffix, std::slice::from_ref(&shot)).expect("prompts");
        assert_eq!(one_shot.prefixes[0], "Ann thanked Sue because Sue plested her. The verb to plest means to help.\nThe rats fled the holes for the fields since the holes");
        assert!(prompts(&NewWordsItem { sentence: "no blank".into(), ..item() }, Teaching::Empty, &[]).is_err());
        assert!(prompts(&NewWordsItem { definition: None, ..item() }, Teaching::DefinitionSuffix, &[]).is_err());
    }

    #[test]
    fn partial_scoring_picks_the_option_that_makes_the_continuation_likelier() {
        let p = prompts(&item(), Teaching::DefinitionSuffix, &[]).expect("prompts");
        let key = |i: usize| (p.prefixes[i].clone(), p.continuation.clone());
        // hand-set token log-probabilities: holes -1.0 -0.5 -2.0 = -3.5; fields -0.75 -0.25 -3.0 = -4.0
        let model = Table(HashMap::from([(key(0), vec![-1.0, -0.5, -2.0]), (key(1), vec![-0.75, -0.25, -3.0])]));
        let judged = judge(&model, &[item()], Teaching::DefinitionSuffix, &[]).expect("judged");
        assert_eq!(judged[0].log_likelihoods, [-3.5, -4.0]);
        assert_eq!((judged[0].choice, judged[0].correct), (0, true));
        // the same model, the other option right: now wrong
        let flipped = NewWordsItem { answer: 1, ..item() };
        let judged = judge(&model, &[flipped], Teaching::DefinitionSuffix, &[]).expect("judged");
        assert_eq!((judged[0].choice, judged[0].correct), (0, false));
        // the second option ahead by a little: chosen
        let model = Table(HashMap::from([(key(0), vec![-1.0, -0.5, -2.0]), (key(1), vec![-1.0, -0.5, -1.75])]));
        assert_eq!(judge(&model, &[item()], Teaching::DefinitionSuffix, &[]).expect("judged")[0].choice, 1);
    }
}
