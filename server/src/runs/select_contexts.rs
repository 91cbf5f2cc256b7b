//! `gapwise select-contexts`: the model-selected contexts of Section 6. For each
//! pair, up to `sample` sentences (default 10,000) are scored with Eq. 2 on one
//! context; the `per_end` lowest and highest (default 5 each) become single-context
//! Likert items. A sentence serves one pair only, and a pair that already has Likert
//! items is left alone, so a rerun only adds what is missing.
//!
//! The scores of the chosen sentences are stored like any other (`context_scores`,
//! then `item_scores`), so the report's Table 8 and Fig. 2 find them.

use gapwise_model::{Language, ModelId};
use std::sync::Arc;

use gapwise_scorer::{Context, ContextScorer};
use gapwise_store::{ContextScore, Found, Store};
use indicatif::ProgressBar;

/// What a selection run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SelectReport {
    pub pairs: usize,
    pub items: usize,
    /// Pairs for which no unused sentence qualified.
    pub pairs_without_sentences: usize,
}

/// How many pairs, sentences and items a run works on.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Only the most extreme pairs by success rate; every pair without Likert items when `None`.
    pub pairs: Option<usize>,
    /// Sentences scored per pair.
    pub sample: usize,
    /// Items kept at each end of the ranking.
    pub per_end: usize,
}

impl Default for Selection {
    fn default() -> Self {
        Selection { pairs: None, sample: 10_000, per_end: 5 }
    }
}

/// The `per_end` lowest and `per_end` highest of `scored` by score, lowest first;
/// everything when there are no more than `2 * per_end`.
pub fn extremes<T>(mut scored: Vec<(T, f64)>, per_end: usize) -> Vec<(T, f64)> {
    scored.sort_by(|a, b| a.1.total_cmp(&b.1));
    if scored.len() > 2 * per_end {
        scored.drain(per_end..scored.len() - per_end);
    }
    scored
}

/// Selects and publishes the Likert items of `language` with `model` (stored as `model_id`).
pub async fn select_contexts(
    store: &Store,
    model: Arc<dyn ContextScorer>,
    model_id: &ModelId,
    language: Language,
    selection: Selection,
    progress: &ProgressBar,
) -> Result<SelectReport, crate::error::CliError> {
    let pairs = store.rate().pairs_without_items(language, selection.pairs).await?;
    progress.set_length(pairs.len() as u64);
    let mut report = SelectReport::default();
    for pair in pairs {
        let candidates = store.rate().candidates(language, &pair, selection.sample).await?;
        report.pairs += 1;
        progress.inc(1);
        if candidates.is_empty() {
            report.pairs_without_sentences += 1;
            continue;
        }
        let (target, distractor) = (pair.target.clone(), pair.distractor.clone());
        let model = model.clone();
        let (candidates, said) = tokio::task::spawn_blocking(move || {
            let contexts: Vec<Context<'_>> =
                candidates.iter().map(|c| Context { text: &c.text, blank: c.blank, target: &target, distractor: &distractor }).collect();
            let said = model.score_contexts(&contexts);
            (candidates, said)
        })
        .await?;
        let said = said.map_err(|e| format!("pair {} ({} / {}): {e}", pair.id, pair.target, pair.distractor))?;
        let scored: Vec<(Found, (f64, f64))> = candidates.into_iter().zip(said.into_iter().map(|s| (s.target, s.distractor))).collect();
        let kept = extremes(scored.into_iter().map(|(c, (t, d))| ((c, t, d), gapwise_model::eq2([(t, d)]))).collect(), selection.per_end);
        let scores: Vec<ContextScore> = kept
            .iter()
            .map(|((c, t, d), _)| ContextScore { pair: pair.id, sentence_id: c.sentence_id, target_logprob: *t, distractor_logprob: *d })
            .collect();
        store.scores().save_context_scores(model_id, &scores).await?;
        let contexts: Vec<(i64, (usize, usize))> = kept.iter().map(|((c, _, _), _)| (c.sentence_id, c.blank)).collect();
        report.items += store.rate().publish_items(pair.id, &contexts).await?.len();
    }
    store.scores().update_item_scores(model_id).await?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::extremes;

    #[test]
    fn keeps_both_ends_of_the_ranking() {
        let scored: Vec<(usize, f64)> = [3.0, -7.0, 0.5, 9.0, -1.0, 2.0, 8.0].into_iter().enumerate().collect();
        let kept: Vec<usize> = extremes(scored, 2).into_iter().map(|(i, _)| i).collect();
        assert_eq!(kept, vec![1, 4, 6, 3], "two lowest, then two highest");
    }

    #[test]
    fn keeps_everything_when_there_are_few() {
        let scored = vec![("a", 1.0), ("b", -1.0), ("c", 0.0)];
        assert_eq!(extremes(scored, 5).len(), 3);
    }
}
