//! The cloze game's analysis: how often people typed the blanked word, per
//! language, with its bootstrap interval. Its answers are also fitted by item
//! response theory with the other modes' (an item is a blanked position of a
//! sentence; see `gapwise_store::ModeResponse`).

use std::collections::BTreeMap;

use crate::ResearchError;
use gapwise_model::ReportTable;
use gapwise_store::{ClozeRecord, Store};

use crate::table::{rate_with_ci, table};

/// The cloze game's table, from people's answers.
pub async fn tables(store: &Store) -> Result<Vec<ReportTable>, ResearchError> {
    Ok(vec![accuracy(&store.cloze().answers().await?)])
}

/// Answers and the share right, per language.
fn accuracy(answers: &[ClozeRecord]) -> ReportTable {
    let mut by_language: BTreeMap<&str, Vec<bool>> = BTreeMap::new();
    for a in answers {
        by_language.entry(a.lang.as_str()).or_default().push(a.correct);
    }
    let rows = by_language
        .into_iter()
        .map(|(lang, correct)| {
            let mut row = vec![lang.to_owned(), correct.len().to_string()];
            row.extend(rate_with_ci(&correct));
            row
        })
        .collect();
    table(
        "cloze_accuracy",
        "Cloze: people's share of blanked words typed right",
        &["language", "answers", "right", "ci_low", "ci_high"],
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_counted_per_language() {
        let answer = |lang: &str, correct| ClozeRecord { lang: lang.into(), correct };
        let t = accuracy(&[answer("fr", true), answer("en", true), answer("en", false), answer("en", true)]);
        let counted: Vec<(&str, &str)> = t.rows.iter().map(|r| (r[0].as_str(), r[1].as_str())).collect();
        assert_eq!(counted, [("en", "3"), ("fr", "1")]);
        assert_eq!(t.rows[0][2], "0.667");
        assert!(accuracy(&[]).rows.is_empty());
    }
}
