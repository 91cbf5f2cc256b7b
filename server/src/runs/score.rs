//! `gapwise score`: runs a model over every context of every item and stores what
//! it says beside the answers — per context, then Eq. 2 per item.
//!
//! Work goes in batches; each batch's scores are committed before the next starts,
//! so a stop (Ctrl-C, a crash) loses at most the batch in flight and a rerun picks
//! up where the last one ended.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gapwise_model::{Language, ModelId};
use gapwise_scorer::{Context, ContextScorer, WordLogProbs};
use gapwise_store::{ContextScore, ContextToScore, Store};
use indicatif::ProgressBar;

/// What a scoring run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ScoreReport {
    pub contexts: usize,
    pub items: u64,
    /// The run stopped early on request; a rerun resumes.
    pub interrupted: bool,
}

/// Scores every context `model_id` has not scored yet, `batch` at a time, until
/// none is left or `stop` is set (checked between batches); then writes the Eq. 2
/// score of every item whose contexts are all scored.
pub async fn score_items(
    store: &Store,
    model: Arc<dyn ContextScorer>,
    model_id: &ModelId,
    language: Option<Language>,
    batch: usize,
    stop: &AtomicBool,
    progress: &ProgressBar,
) -> Result<ScoreReport, crate::error::CliError> {
    let limit = i64::try_from(batch.max(1))?;
    let mut report = ScoreReport::default();
    loop {
        if stop.load(Ordering::SeqCst) {
            report.interrupted = true;
            break;
        }
        let todo = store.scores().contexts_to_score(model_id, language, limit).await?;
        if todo.is_empty() {
            break;
        }
        let model = model.clone();
        let (todo, said) = tokio::task::spawn_blocking(move || {
            let said = score_batch(model.as_ref(), &todo);
            (todo, said)
        })
        .await?;
        let scores: Vec<ContextScore> = todo
            .iter()
            .zip(said?)
            .map(|(c, s)| ContextScore {
                pair: c.pair,
                sentence_id: c.sentence_id,
                target_logprob: s.target,
                distractor_logprob: s.distractor,
            })
            .collect();
        store.scores().save_context_scores(model_id, &scores).await?;
        report.contexts += scores.len();
        progress.inc(scores.len() as u64);
    }
    report.items = store.scores().update_item_scores(model_id).await?;
    Ok(report)
}

/// Scores a batch at once; when that fails, finds the context at fault so the
/// error can name its pair and sentence (a server that does not answer is at fault
/// itself).
fn score_batch(model: &dyn ContextScorer, todo: &[ContextToScore]) -> Result<Vec<WordLogProbs>, String> {
    let contexts: Vec<Context<'_>> = todo.iter().map(context).collect();
    model.score_contexts(&contexts).map_err(|batch_error| {
        if matches!(batch_error, gapwise_scorer::ScorerError::Server(_)) {
            return batch_error.to_string();
        }
        todo.iter()
            .find_map(|c| {
                model
                    .score_contexts(&[context(c)])
                    .err()
                    .map(|e| format!("pair {} ({} / {}), sentence {}: {e}", c.pair, c.target, c.distractor, c.sentence_id))
            })
            .unwrap_or_else(|| batch_error.to_string())
    })
}

fn context(c: &ContextToScore) -> Context<'_> {
    Context { text: &c.text, blank: c.blank, target: &c.target, distractor: &c.distractor }
}
