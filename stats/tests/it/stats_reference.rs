//! The statistics against scipy / scikit-learn / numpy values on committed data
//! (fixtures/stats/reference.json, made by fixtures/make_stats_reference.py): within
//! 1e-9, 1e-6 for the iterative ones (p-values from distribution functions, least squares).

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use gapwise_stats::binomial::{binomial_test, Alternative};
use gapwise_stats::correlation::{matthews, spearman};
use gapwise_stats::dominance::{dominance, Predictor};
use gapwise_stats::heatmap::heatmap;
use gapwise_stats::mann_whitney::mann_whitney;
use gapwise_stats::rates::{keep_by_log_time, success_rate, time_weighted};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    answers: Answers,
    success_rate: f64,
    keep_by_log_time: Vec<bool>,
    success_rate_kept: f64,
    time_weighted: Vec<f64>,
    spearman: Spearman,
    mann_whitney: Vec<MannWhitneyRow>,
    mcc: Vec<MccRow>,
    binomial: Vec<BinomialRow>,
    dominance: DominanceRow,
    heatmap: HeatmapRow,
}

#[derive(Deserialize)]
struct Answers {
    times: Vec<f64>,
    correct: Vec<bool>,
    scores: Vec<f64>,
    sentences: Vec<f64>,
}

#[derive(Deserialize)]
struct Spearman {
    rho: f64,
    p_value: f64,
}

#[derive(Deserialize)]
struct MannWhitneyRow {
    norm: String,
    u: f64,
    effect_size: f64,
    p_value: f64,
}

#[derive(Deserialize)]
struct MccRow {
    predicted: Vec<bool>,
    actual: Vec<bool>,
    mcc: f64,
}

#[derive(Deserialize)]
struct BinomialRow {
    k: u64,
    n: u64,
    p: f64,
    alternative: String,
    p_value: f64,
}

#[derive(Deserialize)]
struct DominanceRow {
    likert: Vec<f64>,
    groups: Vec<Vec<Vec<f64>>>,
    r2: f64,
    general: Vec<f64>,
}

#[derive(Deserialize)]
struct HeatmapRow {
    x_edges: Vec<f64>,
    y_edges: Vec<f64>,
    counts: Vec<Vec<u64>>,
}

fn reference() -> Reference {
    let path = Path::new(&manifest_dir()).join("fixtures/stats/reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON")
}

fn close(ours: f64, theirs: f64, tol: f64, what: &str) {
    assert!((ours - theirs).abs() <= tol, "{what}: ours {ours}, reference {theirs}");
}

/// Log time per sentence, the length normalisation of Eq. 3 used in the fixture.
fn per_sentence(a: &Answers) -> Vec<f64> {
    a.times.iter().zip(&a.sentences).map(|(t, n)| (t / n).ln()).collect()
}

#[test]
fn success_rates_before_and_after_the_log_time_filter() {
    let r = reference();
    let a = &r.answers;
    close(success_rate(&a.correct), r.success_rate, 1e-12, "success rate");
    let keep = keep_by_log_time(&a.times);
    assert_eq!(keep, r.keep_by_log_time);
    let kept: Vec<bool> = a.correct.iter().zip(&keep).filter(|(_, &k)| k).map(|(&c, _)| c).collect();
    close(success_rate(&kept), r.success_rate_kept, 1e-12, "success rate after filtering");
}

#[test]
fn eq3_weights_and_their_spearman_correlation_with_model_scores() {
    let r = reference();
    let weighted = time_weighted(&per_sentence(&r.answers), &r.answers.correct);
    for (i, (ours, theirs)) in weighted.iter().zip(&r.time_weighted).enumerate() {
        close(*ours, *theirs, 1e-9, &format!("Eq. 3 weight {i}"));
    }
    let (rho, p) = spearman(&r.answers.scores, &weighted);
    close(rho, r.spearman.rho, 1e-9, "Spearman rho (tied scores)");
    close(p, r.spearman.p_value, 1e-6 * r.spearman.p_value.max(1e-300) + 1e-12, "Spearman p");
}

#[test]
fn mann_whitney_effect_sizes_of_log_time_with_ties() {
    let r = reference();
    let a = &r.answers;
    for row in &r.mann_whitney {
        let logs: Vec<f64> = match row.norm.as_str() {
            "none" => a.times.iter().map(|t| t.ln()).collect(),
            _ => per_sentence(a),
        };
        let split = |want: bool| -> Vec<f64> { logs.iter().zip(&a.correct).filter(|(_, &c)| c == want).map(|(l, _)| *l).collect() };
        let ours = mann_whitney(&split(true), &split(false));
        close(ours.u, row.u, 1e-9, &format!("U ({})", row.norm));
        close(ours.effect_size, row.effect_size, 1e-9, &format!("effect size ({})", row.norm));
        close(ours.p_value, row.p_value, 1e-6 * row.p_value, &format!("p ({})", row.norm));
    }
}

#[test]
fn matthews_correlation_including_an_all_correct_column() {
    for row in reference().mcc {
        close(matthews(&row.predicted, &row.actual), row.mcc, 1e-9, "MCC");
    }
}

#[test]
fn binomial_tests_every_alternative() {
    for row in reference().binomial {
        let alternative = match row.alternative.as_str() {
            "less" => Alternative::Less,
            "greater" => Alternative::Greater,
            _ => Alternative::TwoSided,
        };
        let ours = binomial_test(row.k, row.n, row.p, alternative);
        let what = format!("binomial {} of {} at {} ({})", row.k, row.n, row.p, row.alternative);
        close(ours, row.p_value, 1e-9, &what);
    }
}

#[test]
fn dominance_with_a_constant_predictor_and_a_categorical_group() {
    let d = reference().dominance;
    let names = ["score", "success", "time", "constant", "source"];
    let predictors: Vec<Predictor> =
        d.groups.into_iter().zip(names).map(|(columns, name)| Predictor { name: name.into(), columns }).collect();
    let ours = dominance(&d.likert, &predictors).expect("fit");
    close(ours.r2, d.r2, 1e-6, "r2");
    for ((name, g), want) in names.iter().zip(&ours.general).zip(&d.general) {
        close(*g, *want, 1e-6, &format!("general dominance of {name}"));
    }
    close(ours.general.iter().sum(), ours.r2, 1e-9, "dominances add up to r2");
}

#[test]
fn heatmap_counts_follow_numpy_histogram2d() {
    let r = reference();
    let h = &r.heatmap;
    let scores = {
        // the fixture's heatmap is of the dominance data: Likert means against model scores
        let d = &r.dominance;
        (d.likert.clone(), d.groups[0][0].clone())
    };
    assert_eq!(heatmap(&scores.0, &scores.1, &h.x_edges, &h.y_edges), h.counts);
}

/// The package folder, read when the test runs (a test binary reused from a build in
/// another checkout must not look in that checkout).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")
}
