//! The answers of the substitution game as the analyses read them: one export row
//! each (so a report never sees more than an export does).

use std::collections::BTreeSet;

use gapwise_model::{ItemId, Trial};
use gapwise_store::ExportRow;

/// One answer, as the analyses need it.
pub(crate) struct Answer {
    pub item: ItemId,
    pub language: String,
    pub k: i64,
    pub strategy: String,
    pub pair: (String, String),
    pub annotator: String,
    pub correct: bool,
    pub ms: f64,
    pub words: f64,
    pub chars: f64,
    pub sources: Vec<String>,
    pub scores: Vec<Option<f64>>,
    /// The browser's time, when it sent one that can be true.
    pub browser_ms: Option<i64>,
    pub trial: Trial,
}

impl From<ExportRow> for Answer {
    fn from(r: ExportRow) -> Self {
        let texts: Vec<&str> = r.contexts.iter().map(|c| c.text.as_str()).collect();
        Answer {
            ms: r.client_ms.unwrap_or(r.server_ms) as f64,
            words: texts.iter().map(|t| t.split_whitespace().count()).sum::<usize>() as f64,
            chars: texts.iter().map(|t| t.chars().count()).sum::<usize>() as f64,
            sources: r.contexts.iter().map(|c| c.source.to_lowercase()).collect(),
            item: r.item_id,
            language: r.language,
            k: r.k,
            strategy: r.strategy,
            pair: (r.target, r.distractor),
            annotator: r.annotator,
            correct: r.correct,
            scores: r.model_scores,
            browser_ms: r.client_ms,
            trial: r.trial,
        }
    }
}

/// The languages of the answers, in order.
pub(crate) fn languages(answers: &[Answer]) -> BTreeSet<&String> {
    answers.iter().map(|a| &a.language).collect()
}
