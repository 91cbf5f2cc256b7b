//! `gapwise report`: the analyses of 004_fd0640cd187f2eac.txt (Sections 3-6) on the
//! live database, as tables (Markdown and CSV) and figures (SVG) in one folder, with
//! `README.md` as its index. The statistics are `gapwise_scorer::stats`; this module
//! gathers the answers (through the anonymised export, so a report never sees more
//! than an export does) and lays the results out.
//!
//! Decisions: the time of an answer is the browser's when it sent one, else the
//! server's; the log-time filter runs per language; Eq. 3 normalises by words for en
//! and es and by sentences for fr, it and ru, as the paper does; every rate and
//! correlation has a 95 % percentile bootstrap interval (seeded, so reruns agree).
//! Table 8 and Fig. 2 use the Likert ratings of Section 6 (see [`likert`]). The
//! word-definition game's tables (001_bf5d15b61b58df06.txt) follow (see [`definitions`]),
//! then the next-word game's (002_07d3f5412720a88c.txt, see [`guessing`]) and the
//! invented-word game's (003_e0d4aede4cc7e323.txt, see [`winodict`]).
//!
//! The same [`Report`] feeds the `report` command (files) and the researchers' page.

mod definitions;
mod figures;
mod guessing;
mod likert;
mod tables;
mod winodict;

use std::collections::BTreeSet;
use std::path::Path;

use gapwise_scorer::stats::bootstrap::bootstrap_ci;
use gapwise_scorer::stats::rates::success_rate;
use gapwise_model::{AnswerFilter, Report, ReportFigure, ReportTable};
use gapwise_store::{ExportRow, Store, StoreError};

/// Bootstrap resamples per interval, and the seed they start from.
const RESAMPLES: usize = 1000;
const SEED: u64 = 20261122;

/// One answer, as the analyses need it.
struct Answer {
    language: String,
    k: i64,
    strategy: String,
    pair: (String, String),
    annotator: String,
    correct: bool,
    ms: f64,
    words: f64,
    chars: f64,
    sources: Vec<String>,
    scores: Vec<Option<f64>>,
}

impl From<ExportRow> for Answer {
    fn from(r: ExportRow) -> Self {
        let texts: Vec<&str> = r.contexts.iter().map(|c| c.text.as_str()).collect();
        Answer {
            ms: r.client_ms.unwrap_or(r.server_ms) as f64,
            words: texts.iter().map(|t| t.split_whitespace().count()).sum::<usize>() as f64,
            chars: texts.iter().map(|t| t.chars().count()).sum::<usize>() as f64,
            sources: r.contexts.iter().map(|c| c.source.to_lowercase()).collect(),
            language: r.language,
            k: r.k,
            strategy: r.strategy,
            pair: (r.target, r.distractor),
            annotator: r.annotator,
            correct: r.correct,
            scores: r.model_scores,
        }
    }
}

/// A table of the report.
fn table(file: &str, title: &str, header: &[&str], rows: Vec<Vec<String>>) -> ReportTable {
    ReportTable { file: file.into(), title: title.into(), header: header.iter().map(|h| (*h).to_owned()).collect(), rows }
}

fn markdown(t: &ReportTable) -> String {
    let mut md = format!("## {}\n\n| {} |\n|{}\n", t.title, t.header.join(" | "), "---|".repeat(t.header.len()));
    for row in &t.rows {
        md.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    if t.rows.is_empty() {
        md.push_str("\n(no data yet)\n");
    }
    md
}

fn write_csv(t: &ReportTable, dir: &Path) -> Result<(), StoreError> {
    let mut w = csv::Writer::from_path(dir.join(format!("{}.csv", t.file))).map_err(io)?;
    w.write_record(&t.header).map_err(io)?;
    for row in &t.rows {
        w.write_record(row).map_err(io)?;
    }
    w.flush().map_err(io)
}

fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Invalid(format!("writing the report failed: {e}"))
}

fn num(v: f64) -> String {
    if v.is_nan() {
        "n/a".into()
    } else {
        format!("{v:.3}")
    }
}

fn p_value(v: f64) -> String {
    if v.is_nan() {
        "n/a".into()
    } else {
        format!("{v:.2e}")
    }
}

/// The languages of the answers, in order.
fn languages(answers: &[Answer]) -> BTreeSet<&String> {
    answers.iter().map(|a| &a.language).collect()
}

/// The elements of `values` at `idx` (a bootstrap resample).
fn pick<T: Copy>(idx: &[usize], values: &[T]) -> Vec<T> {
    idx.iter().map(|&i| values[i]).collect()
}

/// A rate and its bootstrap interval over the given answers' correctness.
fn rate_with_ci(correct: &[bool]) -> [String; 3] {
    let (lo, hi) = bootstrap_ci(correct.len(), |idx| idx.iter().filter(|&&i| correct[i]).count() as f64 / idx.len() as f64, RESAMPLES, 0.95, SEED);
    [num(success_rate(correct)), num(lo), num(hi)]
}

/// The paper's analyses of the answers `filter` selects, with the scores of `models`;
/// answers with a context from one of `drop_sources` (e.g. `wikipedia`) are left out
/// of the filtered rates.
pub async fn build_report(store: &Store, models: &[String], filter: &AnswerFilter, drop_sources: &[String]) -> Result<Report, StoreError> {
    let mut answers: Vec<Answer> = Vec::new();
    store
        .export_answers(models, filter, |row| {
            answers.push(row.into());
            Ok(())
        })
        .await?;
    let kept = tables::filtered(&answers, drop_sources);
    let mut tables = vec![
        tables::models(&store.models_info(models).await?),
        tables::success_rates(&answers, &kept),
        tables::indistinguishable_pairs(&answers),
        tables::mcc_table(&answers, models),
        tables::time_effects(&answers),
        tables::spearman_table(&answers, models),
    ];
    let mut figures = vec![ReportFigure {
        file: "fig1_success_by_k".into(),
        title: "Figure 1: success rate by number of contexts".into(),
        svg: figures::success_by_k(&answers, &kept)?,
    }];
    let (table8, figure2) = likert::analyses(store, &answers, models, filter).await?;
    tables.push(table8);
    figures.extend(figure2);
    tables.extend(definitions::tables(store).await?);
    tables.extend(guessing::tables(store).await?);
    tables.extend(winodict::tables(store).await?);
    let summary = format!(
        "{} answers, {} annotators, models: {}. Filtered = log time within one standard deviation \
         of its language's mean{}. Intervals: 95 % percentile bootstrap, {RESAMPLES} resamples.",
        answers.len(),
        answers.iter().map(|a| &a.annotator).collect::<BTreeSet<_>>().len(),
        if models.is_empty() { "none".to_owned() } else { models.join(", ") },
        if drop_sources.is_empty() { String::new() } else { format!(", contexts from {} dropped", drop_sources.join(", ")) },
    );
    Ok(Report { summary, tables, figures })
}

/// Writes the report into `dir` (see [`build_report`]): each table as Markdown and
/// CSV, each figure as SVG, and `README.md` with all of them. Returns the files written.
pub async fn write_report(
    store: &Store,
    models: &[String],
    filter: &AnswerFilter,
    drop_sources: &[String],
    dir: &Path,
) -> Result<Vec<String>, StoreError> {
    let report = build_report(store, models, filter, drop_sources).await?;
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut files = Vec::new();
    let mut index = format!("# Gapwise report\n\n{}\n\n", report.summary);
    for table in &report.tables {
        write_csv(table, dir)?;
        let md = markdown(table);
        std::fs::write(dir.join(format!("{}.md", table.file)), &md).map_err(io)?;
        index.push_str(&md);
        index.push_str(&format!("\nFiles: `{0}.md`, `{0}.csv`\n\n", table.file));
        files.extend([format!("{}.md", table.file), format!("{}.csv", table.file)]);
    }
    for figure in &report.figures {
        let file = format!("{}.svg", figure.file);
        std::fs::write(dir.join(&file), &figure.svg).map_err(io)?;
        index.push_str(&format!("## {}\n\n![{}]({file})\n\n", figure.title, figure.title));
        files.push(file);
    }
    std::fs::write(dir.join("README.md"), index).map_err(io)?;
    files.push("README.md".into());
    Ok(files)
}
