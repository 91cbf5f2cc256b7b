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
//! Table 8 and Fig. 2 need Likert ratings, which the game does not collect yet: the
//! report says so instead of drawing them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use gapwise_scorer::stats::binomial::{binomial_test, Alternative};
use gapwise_scorer::stats::bootstrap::bootstrap_ci;
use gapwise_scorer::stats::correlation::{matthews, spearman};
use gapwise_scorer::stats::mann_whitney::mann_whitney;
use gapwise_scorer::stats::rates::{keep_by_log_time, success_rate, time_weighted};
use gapwise_store::{ExportRow, Store, StoreError};
use plotters::prelude::*;

/// Bootstrap resamples per interval, and the seed they start from.
const RESAMPLES: usize = 1000;
const SEED: u64 = 20261122;
/// Fewest distinct annotators for a pair to be judged indistinguishable.
const MIN_ANNOTATORS: usize = 5;

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
struct Table {
    file: &'static str,
    title: &'static str,
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn markdown(&self) -> String {
        let mut md = format!("## {}\n\n| {} |\n|{}\n", self.title, self.header.join(" | "), "---|".repeat(self.header.len()));
        for row in &self.rows {
            md.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        if self.rows.is_empty() {
            md.push_str("\n(no data yet)\n");
        }
        md
    }

    fn write_csv(&self, dir: &Path) -> Result<(), StoreError> {
        let mut w = csv::Writer::from_path(dir.join(format!("{}.csv", self.file))).map_err(io)?;
        w.write_record(&self.header).map_err(io)?;
        for row in &self.rows {
            w.write_record(row).map_err(io)?;
        }
        w.flush().map_err(io)
    }
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

/// Writes the report for `models` into `dir`; answers with a context from one of
/// `drop_sources` (e.g. `wikipedia`) are left out of the filtered rates. Returns the
/// files written.
pub async fn write_report(store: &Store, models: &[String], drop_sources: &[String], dir: &Path) -> Result<Vec<String>, StoreError> {
    let mut answers: Vec<Answer> = Vec::new();
    store
        .export_answers(models, |row| {
            answers.push(row.into());
            Ok(())
        })
        .await?;
    std::fs::create_dir_all(dir).map_err(io)?;
    let kept = filtered(&answers, drop_sources);
    let tables = [
        success_rates(&answers, &kept),
        indistinguishable_pairs(&answers),
        mcc_table(&answers, models),
        time_effects(&answers),
        spearman_table(&answers, models),
    ];
    let mut files = Vec::new();
    let mut index = format!(
        "# Gapwise report\n\n{} answers, {} annotators, models: {}. Filtered = log time within one standard deviation \
         of its language's mean{}. Intervals: 95 % percentile bootstrap, {RESAMPLES} resamples.\n\n",
        answers.len(),
        answers.iter().map(|a| &a.annotator).collect::<BTreeSet<_>>().len(),
        if models.is_empty() { "none".to_owned() } else { models.join(", ") },
        if drop_sources.is_empty() { String::new() } else { format!(", contexts from {} dropped", drop_sources.join(", ")) },
    );
    for table in &tables {
        table.write_csv(dir)?;
        std::fs::write(dir.join(format!("{}.md", table.file)), table.markdown()).map_err(io)?;
        index.push_str(&table.markdown());
        index.push_str(&format!("\nFiles: `{0}.md`, `{0}.csv`\n\n", table.file));
        files.extend([format!("{}.md", table.file), format!("{}.csv", table.file)]);
    }
    figure_success_by_k(&answers, &kept, &dir.join("fig1_success_by_k.svg"))?;
    files.push("fig1_success_by_k.svg".into());
    index.push_str(
        "## Figure 1: success rate by number of contexts\n\n![Figure 1](fig1_success_by_k.svg)\n\n\
         ## Table 8 and Figure 2 (Likert ratings)\n\nNot drawn: this database holds no Likert ratings yet.\n",
    );
    std::fs::write(dir.join("README.md"), index).map_err(io)?;
    files.push("README.md".into());
    Ok(files)
}

/// Which answers survive the paper's filter: log time per language, and no context
/// from a dropped source.
fn filtered(answers: &[Answer], drop_sources: &[String]) -> Vec<bool> {
    let mut keep = vec![false; answers.len()];
    for language in languages(answers) {
        let idx: Vec<usize> = (0..answers.len()).filter(|&i| &answers[i].language == language).collect();
        let times: Vec<f64> = idx.iter().map(|&i| answers[i].ms).collect();
        for (&i, k) in idx.iter().zip(keep_by_log_time(&times)) {
            keep[i] = k && !answers[i].sources.iter().any(|s| drop_sources.iter().any(|d| d.eq_ignore_ascii_case(s)));
        }
    }
    keep
}

/// Tables 3-4: success rates by language, k and strategy, before and after filtering.
fn success_rates(answers: &[Answer], kept: &[bool]) -> Table {
    let mut groups: BTreeMap<(String, String, String), Vec<usize>> = BTreeMap::new();
    for (i, a) in answers.iter().enumerate() {
        for key in [
            (a.language.clone(), a.k.to_string(), a.strategy.clone()),
            (a.language.clone(), a.k.to_string(), "all".into()),
            (a.language.clone(), "all".into(), "all".into()),
        ] {
            groups.entry(key).or_default().push(i);
        }
    }
    let rows = groups
        .into_iter()
        .map(|((language, k, strategy), idx)| {
            let all: Vec<bool> = idx.iter().map(|&i| answers[i].correct).collect();
            let after: Vec<bool> = idx.iter().filter(|&&i| kept[i]).map(|&i| answers[i].correct).collect();
            let mut row = vec![language, k, strategy, all.len().to_string()];
            row.extend(rate_with_ci(&all));
            row.push(after.len().to_string());
            row.extend(rate_with_ci(&after));
            row
        })
        .collect();
    Table {
        file: "table3_4_success_rates",
        title: "Tables 3-4: success rates by language, k and strategy",
        header: vec!["language", "k", "strategy", "answers", "success", "ci_low", "ci_high", "answers_filtered", "success_filtered", "ci_low_filtered", "ci_high_filtered"],
        rows,
    }
}

/// Word pairs people cannot tell apart: at least 5 annotators, success at or below
/// chance; the p-value is the binomial test against "better than chance".
fn indistinguishable_pairs(answers: &[Answer]) -> Table {
    let mut pairs: BTreeMap<(String, String, String), Vec<&Answer>> = BTreeMap::new();
    for a in answers {
        pairs.entry((a.language.clone(), a.pair.0.clone(), a.pair.1.clone())).or_default().push(a);
    }
    let rows = pairs
        .into_iter()
        .filter_map(|((language, target, distractor), given)| {
            let annotators = given.iter().map(|a| &a.annotator).collect::<BTreeSet<_>>().len();
            let right = given.iter().filter(|a| a.correct).count();
            let rate = right as f64 / given.len() as f64;
            (annotators >= MIN_ANNOTATORS && rate <= 0.5).then(|| {
                let p = binomial_test(right as u64, given.len() as u64, 0.5, Alternative::Greater);
                vec![language, target, distractor, annotators.to_string(), given.len().to_string(), num(rate), p_value(p)]
            })
        })
        .collect();
    Table {
        file: "indistinguishable_pairs",
        title: "Word pairs people cannot tell apart (>= 5 annotators, success <= 1/2; binomial p of doing better than chance)",
        header: vec!["language", "target", "distractor", "annotators", "answers", "success", "p_better_than_chance"],
        rows,
    }
}

/// The answers of each (model, language) that have the model's score.
fn scored_groups<'a>(answers: &'a [Answer], models: &'a [String]) -> impl Iterator<Item = (&'a String, String, Vec<(f64, &'a Answer)>)> {
    models.iter().enumerate().flat_map(move |(m, model)| {
        languages(answers).into_iter().cloned().map(move |language| {
            let scored: Vec<(f64, &Answer)> =
                answers.iter().filter(|a| a.language == language).filter_map(|a| a.scores[m].map(|s| (s, a))).collect();
            (model, language, scored)
        })
    })
}

/// Table 5: Matthews correlation of the model's prediction (Eq. 2 > 0) with human correctness.
fn mcc_table(answers: &[Answer], models: &[String]) -> Table {
    let rows = scored_groups(answers, models)
        .map(|(model, language, scored)| {
            let predicted: Vec<bool> = scored.iter().map(|(s, _)| *s > 0.0).collect();
            let actual: Vec<bool> = scored.iter().map(|(_, a)| a.correct).collect();
            let (lo, hi) = bootstrap_ci(scored.len(), |idx| matthews(&pick(idx, &predicted), &pick(idx, &actual)), RESAMPLES, 0.95, SEED);
            let model_rate = success_rate(&predicted);
            vec![model.clone(), language, scored.len().to_string(), num(model_rate), num(matthews(&predicted, &actual)), num(lo), num(hi)]
        })
        .collect();
    Table {
        file: "table5_mcc",
        title: "Table 5: Matthews correlation of model predictions (Eq. 2 > 0) with human correctness",
        header: vec!["model", "language", "answers", "model_success", "mcc", "ci_low", "ci_high"],
        rows,
    }
}

/// The length N of an answer that its time is divided by.
type Length = fn(&Answer) -> f64;

/// The length normalisations of Table 6.
const NORMALISATIONS: [(&str, Length); 4] =
    [("none", |_| 1.0), ("sentences", |a| a.k as f64), ("words", |a| a.words), ("characters", |a| a.chars)];

/// Table 6: Mann-Whitney effect size of log(time / N), correct vs incorrect answers.
fn time_effects(answers: &[Answer]) -> Table {
    let mut rows = Vec::new();
    for language in languages(answers) {
        for (name, n) in NORMALISATIONS {
            let s = |want: bool| -> Vec<f64> {
                answers.iter().filter(|a| &a.language == language && a.correct == want && a.ms > 0.0).map(|a| (a.ms / n(a)).ln()).collect()
            };
            let (right, wrong) = (s(true), s(false));
            let r = mann_whitney(&right, &wrong);
            rows.push(vec![language.clone(), name.into(), right.len().to_string(), wrong.len().to_string(), num(r.effect_size), p_value(r.p_value)]);
        }
    }
    Table {
        file: "table6_time_effect",
        title: "Table 6: Mann-Whitney effect size (U / max U) of log time, correct vs incorrect (below 0.5: correct answers are faster)",
        header: vec!["language", "normalised_by", "correct", "incorrect", "effect_size", "p_value"],
        rows,
    }
}

/// Table 7: Spearman correlation of model scores with time-weighted judgments (Eq. 3).
fn spearman_table(answers: &[Answer], models: &[String]) -> Table {
    let rows = scored_groups(answers, models)
        .map(|(model, language, scored)| {
            let by_words = language == "en" || language == "es";
            let s: Vec<f64> = scored.iter().map(|(_, a)| (a.ms.max(1.0) / if by_words { a.words } else { a.k as f64 }).ln()).collect();
            let correct: Vec<bool> = scored.iter().map(|(_, a)| a.correct).collect();
            let weighted = time_weighted(&s, &correct);
            let score: Vec<f64> = scored.iter().map(|(v, _)| *v).collect();
            let (lo, hi) = bootstrap_ci(scored.len(), |idx| spearman(&pick(idx, &score), &pick(idx, &weighted)).0, RESAMPLES, 0.95, SEED);
            let (rho, p) = spearman(&score, &weighted);
            vec![model.clone(), language, scored.len().to_string(), num(rho), p_value(p), num(lo), num(hi)]
        })
        .collect();
    Table {
        file: "table7_spearman",
        title: "Table 7: Spearman correlation of model scores with time-weighted judgments (Eq. 3)",
        header: vec!["model", "language", "answers", "rho", "p_value", "ci_low", "ci_high"],
        rows,
    }
}

/// Figure 1: success rate by k for each language, before (dashed) and after filtering.
fn figure_success_by_k(answers: &[Answer], kept: &[bool], path: &Path) -> Result<(), StoreError> {
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(io)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Success rate by number of contexts", ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.5f64..5.5f64, 0f64..1f64)
        .map_err(io)?;
    chart.configure_mesh().x_desc("k (sentences shown)").y_desc("success rate").draw().map_err(io)?;
    for (n, language) in languages(answers).into_iter().enumerate() {
        let color = Palette99::pick(n).to_rgba();
        for filtered in [false, true] {
            let points: Vec<(f64, f64)> = [1, 3, 5]
                .into_iter()
                .filter_map(|k| {
                    let c: Vec<bool> = answers
                        .iter()
                        .zip(kept)
                        .filter(|(a, &keep)| &a.language == language && a.k == k && (keep || !filtered))
                        .map(|(a, _)| a.correct)
                        .collect();
                    (!c.is_empty()).then(|| (k as f64, success_rate(&c)))
                })
                .collect();
            let label = format!("{language}{}", if filtered { ", filtered" } else { "" });
            let style = if filtered { color.stroke_width(2) } else { color.mix(0.5).stroke_width(1) };
            chart
                .draw_series(LineSeries::new(points.clone(), style))
                .map_err(io)?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(io)?;
        }
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(io)?;
    root.present().map_err(io)
}
