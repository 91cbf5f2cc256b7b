//! How the report lays results out: tables, their Markdown and CSV, numbers, and the
//! bootstrap interval every rate carries.

use std::path::Path;

use crate::ResearchError;
use gapwise_model::ReportTable;

use gapwise_stats::bootstrap::estimate_with_ci;
use gapwise_stats::rates::success_rate;

/// Bootstrap resamples per interval, and the seed they start from.
pub(crate) const RESAMPLES: usize = 1000;
pub(crate) const SEED: u64 = 20261122;

/// A table of the report.
pub(crate) fn table(file: &str, title: &str, header: &[&str], rows: Vec<Vec<String>>) -> ReportTable {
    ReportTable { file: file.into(), title: title.into(), header: header.iter().map(|h| (*h).to_owned()).collect(), rows }
}

pub(crate) fn markdown(t: &ReportTable) -> String {
    let mut md = format!("## {}\n\n| {} |\n|{}\n", t.title, t.header.join(" | "), "---|".repeat(t.header.len()));
    for row in &t.rows {
        md.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    if t.rows.is_empty() {
        md.push_str("\n(no data yet)\n");
    }
    md
}

pub(crate) fn write_csv(t: &ReportTable, dir: &Path) -> Result<(), ResearchError> {
    let mut w = csv::Writer::from_path(dir.join(format!("{}.csv", t.file))).map_err(io)?;
    w.write_record(&t.header).map_err(io)?;
    for row in &t.rows {
        w.write_record(row).map_err(io)?;
    }
    w.flush().map_err(io)
}

/// A failed write of the report.
pub(crate) fn io(e: impl std::fmt::Display) -> ResearchError {
    ResearchError::Write { what: "report", message: e.to_string() }
}

/// A statistic to three decimals; n/a where it is not a finite number (the table's
/// caption or a column says why).
/// `v` with three decimals; a value that rounds to zero is 0.000, whatever its sign.
pub(crate) fn num(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let printed = format!("{v:.3}");
    match printed.strip_prefix('-') {
        Some(zero) if zero == "0.000" => zero.to_owned(),
        _ => printed,
    }
}

pub(crate) fn p_value(v: f64) -> String {
    if v.is_nan() {
        "n/a".into()
    } else {
        format!("{v:.2e}")
    }
}

/// The elements of `values` at `idx` (a bootstrap resample).
pub(crate) fn pick<T: Copy>(idx: &[usize], values: &[T]) -> Vec<T> {
    idx.iter().map(|&i| values[i]).collect()
}

/// A rate and its bootstrap interval over the given answers' correctness.
pub(crate) fn rate_with_ci(correct: &[bool]) -> [String; 3] {
    let rate = |idx: &[usize]| success_rate(&pick(idx, correct));
    with_ci(estimate_with_ci(correct.len(), rate, RESAMPLES, 0.95, SEED))
}

/// An estimate and its interval as cells (n/a where either is none; see
/// [`estimate_with_ci`]).
pub(crate) fn with_ci((estimate, (lo, hi)): (f64, (f64, f64))) -> [String; 3] {
    [num(estimate), num(lo), num(hi)]
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn a_value_that_rounds_to_zero_has_no_sign() {
        assert_eq!(num(-0.0), "0.000");
        assert_eq!(num(-0.0004), "0.000");
        assert_eq!(num(-0.0006), "-0.001");
        assert_eq!(num(1.2346), "1.235");
        assert_eq!(num(f64::NAN), "n/a");
    }
}
