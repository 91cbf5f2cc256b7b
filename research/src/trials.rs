//! How the main game's response times were taken (see `gapwise_model::Trial`):
//! per input, the answers, their median browser-measured time, the shares given
//! across a hidden page or with a coarse clock, and the median frame interval (the
//! onset's precision) and clock step.

use gapwise_model::{Input, ReportTable};

use crate::answers::Answer;
use crate::table::{num, table};
use gapwise_stats::bootstrap::quantile;

/// The `response_times` table: one row per input that answered, and one for the
/// answers sent without JavaScript (no trial: the server's time stands in).
pub(crate) fn response_times(answers: &[Answer]) -> ReportTable {
    let groups = Input::ALL.into_iter().map(|i| (i.code(), Some(i))).chain([("none (no JavaScript)", None)]);
    let rows = groups
        .filter_map(|(name, input)| {
            let mine: Vec<&Answer> = answers.iter().filter(|a| a.trial.input == input).collect();
            if mine.is_empty() {
                return None;
            }
            let median = |values: Vec<f64>| {
                let mut values = values;
                values.sort_by(f64::total_cmp);
                num(quantile(&values, 0.5))
            };
            // a share of the answers where it was measured; n/a where it was not on any
            let share = |measured: Vec<bool>| {
                let flagged = measured.iter().filter(|&&f| f).count();
                if measured.is_empty() {
                    "n/a".to_owned()
                } else {
                    num(100.0 * flagged as f64 / measured.len() as f64)
                }
            };
            Some(vec![
                name.to_owned(),
                mine.len().to_string(),
                median(mine.iter().filter_map(|a| a.browser_ms).map(|ms| ms as f64).collect()),
                share(mine.iter().filter(|a| a.trial.hidden.is_some()).map(|a| a.trial.was_hidden()).collect()),
                share(mine.iter().filter(|a| a.trial.clock_us.is_some()).map(|a| a.trial.coarse_clock()).collect()),
                median(mine.iter().filter_map(|a| a.trial.frame_us).map(|us| f64::from(us) / 1000.0).collect()),
                median(mine.iter().filter_map(|a| a.trial.clock_us).map(f64::from).collect()),
            ])
        })
        .collect();
    table(
        "response_times",
        "How the response times were taken: per input, the median browser time (ms, from the item's first frame), the shares of answers given across a hidden page and with a clock coarser than 1 ms (of the answers where the page measured them), the median frame interval (ms) and clock step (µs); n/a: nothing measured (answers sent without JavaScript carry no browser measurement)",
        &["input", "answers", "median_ms", "tab_hidden_pct", "coarse_clock_pct", "frame_ms", "clock_us"],
        rows,
    )
}
