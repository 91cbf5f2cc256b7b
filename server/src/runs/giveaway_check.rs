//! `gapwise giveaway-check`: the item builder's giveaway rules (`gapwise_model::giveaway`)
//! checked by a model, held back from the rules themselves. For a sample of each
//! pair's contexts, before the rules, the model scores the target and the distractor
//! in the sentence (Eq. 2's log-probabilities), then again with the word before the
//! blank taken out ("Beaucoup d'_____" read as "Beaucoup _____"). When taking that
//! word out shrinks the target's lead by at least [`FROM_BEFORE`] nats, the gap comes
//! from the word before the blank, not from the sentence's meaning. The check counts
//! such contexts among all of them and among those the rules keep: a rule that works
//! leaves fewer of them kept.

use std::collections::BTreeMap;

use gapwise_model::words::word_spans;
use gapwise_model::{Giveaway, Language};
use gapwise_scorer::{Context, ContextScorer};
use gapwise_store::Store;
use indicatif::ProgressBar;

use crate::error::CliError;

/// The lead (in nats) the word before the blank must give the target to count as
/// where the gap comes from: a factor of e in the odds.
pub const FROM_BEFORE: f64 = 1.0;

/// Contexts, and those whose gap comes from the word before the blank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Share {
    pub contexts: usize,
    pub from_before: usize,
}

impl Share {
    fn add(&mut self, from_before: bool) {
        self.contexts += 1;
        self.from_before += usize::from(from_before);
    }
}

impl std::fmt::Display for Share {
    /// "12 of 240 (5.0 %)", or "n/a (no context)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.contexts {
            0 => write!(f, "n/a (no context)"),
            n => write!(f, "{} of {n} ({:.1} %)", self.from_before, 100.0 * self.from_before as f64 / n as f64),
        }
    }
}

/// What the check found in a language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Every context with a word before its blank, before the rules.
    pub before_rules: Share,
    /// Those the rules keep.
    pub kept: Share,
    /// Those the rules drop, by reason.
    pub dropped: BTreeMap<Giveaway, Share>,
}

/// `text` without the word before its blank at `blank` (and what glues it to the
/// blank: the space, or an elision's apostrophe), with the blank's new range; `None`
/// when the blank is the sentence's first word.
pub fn without_word_before(text: &str, blank: (usize, usize)) -> Option<(String, (usize, usize))> {
    let spans = word_spans(text);
    let at = spans.iter().position(|&(s, _)| s == blank.0)?;
    let &(start, _) = spans.get(at.checked_sub(1)?)?;
    let cut = format!("{}{}", text.get(..start)?, text.get(blank.0..)?);
    Some((cut, (start, start + blank.1 - blank.0)))
}

/// Checks up to `per_pair` contexts of each of the first `pairs` active pairs of
/// `language` with `model`.
pub async fn check(
    store: &Store,
    model: &dyn ContextScorer,
    language: Language,
    pairs: usize,
    per_pair: usize,
    progress: &ProgressBar,
) -> Result<Check, CliError> {
    let mut check = Check::default();
    let chosen: Vec<(String, String)> = store.material().active_pairs(language).await?.into_iter().take(pairs).collect();
    progress.set_length(chosen.len() as u64);
    for (target, distractor) in chosen {
        let judged = store.material().judged_contexts(language, &target, &distractor, per_pair).await?;
        let cut: Vec<_> = judged.iter().filter_map(|(f, verdict)| Some((without_word_before(&f.text, f.blank)?, f, *verdict))).collect();
        let contexts: Vec<Context<'_>> = cut
            .iter()
            .flat_map(|((text, blank), f, _)| {
                [
                    Context { text: &f.text, blank: f.blank, target: &target, distractor: &distractor },
                    Context { text, blank: *blank, target: &target, distractor: &distractor },
                ]
            })
            .collect();
        let scores = model.score_contexts(&contexts).map_err(|e| format!("{target} / {distractor}: {e}"))?;
        for (pair, (_, _, verdict)) in scores.chunks(2).zip(&cut) {
            let [whole, without] = pair else { continue };
            let lead = |s: &gapwise_scorer::WordLogProbs| s.target - s.distractor;
            let from_before = lead(whole) - lead(without) >= FROM_BEFORE;
            check.before_rules.add(from_before);
            match verdict {
                None => check.kept.add(from_before),
                Some(reason) => check.dropped.entry(*reason).or_default().add(from_before),
            }
        }
        progress.inc(1);
    }
    Ok(check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_before_goes_with_its_glue() {
        let text = "Beaucoup d'orcs attendaient.";
        let (cut, blank) = without_word_before(text, (11, 15)).expect("a word before");
        assert_eq!((cut.as_str(), &cut[blank.0..blank.1]), ("Beaucoup orcs attendaient.", "orcs"));
        let text = "There is an old route.";
        let (cut, blank) = without_word_before(text, (12, 15)).expect("a word before");
        assert_eq!((cut.as_str(), &cut[blank.0..blank.1]), ("There is old route.", "old"));
        assert_eq!(without_word_before("Old routes close.", (0, 3)), None);
    }
}
