//! Tables 3-7 of the paper, from the answers.

use std::collections::{BTreeMap, BTreeSet};

use gapwise_model::{ItemId, ReportTable};
use gapwise_stats::agreement::{krippendorff_alpha, split_half, Level};
use gapwise_stats::binomial::{binomial_test, Alternative};
use gapwise_stats::bootstrap::estimate_with_ci;
use gapwise_stats::correlation::{matthews, spearman};
use gapwise_stats::mann_whitney::mann_whitney;
use gapwise_stats::rates::{keep_by_log_time, success_rate, time_weighted};
use gapwise_store::ModelInfo;

use crate::answers::{languages, Answer};
use crate::table::{num, p_value, pick, rate_with_ci, table, with_ci, RESAMPLES, SEED};

/// Fewest distinct annotators for a pair to be judged indistinguishable.
const MIN_ANNOTATORS: usize = 5;

/// Which answers survive the paper's filter: log time per language, and no context
/// from a dropped source.
pub(crate) fn filtered(answers: &[Answer], drop_sources: &[String]) -> Vec<bool> {
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

/// How far the people who answered the same items agree, by language and k:
/// Krippendorff's alpha (nominal: right or wrong, the word chosen on an item with one right word) and the split-half reliability
/// of the items' success rates (Spearman-Brown), each with a bootstrap interval
/// over items.
pub(crate) fn agreement(answers: &[Answer]) -> ReportTable {
    let mut groups: BTreeMap<(String, String), BTreeMap<ItemId, Vec<bool>>> = BTreeMap::new();
    for a in answers {
        for k in [a.k.to_string(), "all".into()] {
            groups.entry((a.language.clone(), k)).or_default().entry(a.item).or_default().push(a.correct);
        }
    }
    let rows = groups
        .into_iter()
        .map(|((language, k), by_item)| {
            let items: Vec<Vec<bool>> = by_item.into_values().collect();
            let units: Vec<Vec<f64>> = items.iter().map(|answers| answers.iter().map(|&c| f64::from(u8::from(c))).collect()).collect();
            let alpha = |idx: &[usize]| krippendorff_alpha(&idx.iter().map(|&i| units[i].clone()).collect::<Vec<_>>(), Level::Nominal);
            let halves = |idx: &[usize]| split_half(&idx.iter().map(|&i| items[i].clone()).collect::<Vec<_>>());
            let mut row = vec![language, k, items.len().to_string(), items.iter().map(Vec::len).sum::<usize>().to_string()];
            row.extend(with_ci(estimate_with_ci(items.len(), alpha, RESAMPLES, 0.95, SEED)));
            row.extend(with_ci(estimate_with_ci(items.len(), halves, RESAMPLES, 0.95, SEED)));
            row
        })
        .collect();
    table(
        "agreement",
        "Agreement: Krippendorff's alpha (nominal) and split-half reliability of item success (Spearman-Brown) by language and k; \
         n/a: alpha with one value only, split-half with fewer than 3 items of 2 answers or halves that correlate negatively, \
         an interval that would not hold its estimate (too few items)",
        &[
            "language",
            "k",
            "items",
            "answers",
            "alpha",
            "alpha_ci_low",
            "alpha_ci_high",
            "split_half",
            "split_half_ci_low",
            "split_half_ci_high",
        ],
        rows,
    )
}

/// Tables 3-4: success rates by language, k and strategy, before and after filtering.
pub(crate) fn success_rates(answers: &[Answer], kept: &[bool]) -> ReportTable {
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
    table(
        "table3_4_success_rates",
        "Tables 3-4: success rates by language, k and strategy",
        &[
            "language",
            "k",
            "strategy",
            "answers",
            "success",
            "ci_low",
            "ci_high",
            "answers_filtered",
            "success_filtered",
            "ci_low_filtered",
            "ci_high_filtered",
        ],
        rows,
    )
}

/// The models compared with people, and how each one's scores were made (start
/// token, first token, masked scoring: see `gapwise_scorer::convention`), so that a
/// reader knows which convention every number below follows.
pub(crate) fn models(models: &[ModelInfo]) -> ReportTable {
    let rows = models
        .iter()
        .map(|m| {
            let how = if m.convention.is_empty() { "not recorded (scored before conventions were kept)" } else { &m.convention };
            vec![m.id.to_string(), m.kind.clone(), how.to_owned()]
        })
        .collect();
    table("models", "Models and how their scores were made", &["model", "kind", "convention"], rows)
}

/// Word pairs people cannot tell apart: at least 5 annotators, success at or below
/// chance; the p-value is the binomial test against "better than chance".
pub(crate) fn indistinguishable_pairs(answers: &[Answer]) -> ReportTable {
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
    table(
        "indistinguishable_pairs",
        "Word pairs people cannot tell apart (>= 5 annotators, success <= 1/2; binomial p of doing better than chance)",
        &["language", "target", "distractor", "annotators", "answers", "success", "p_better_than_chance"],
        rows,
    )
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
pub(crate) fn mcc_table(answers: &[Answer], models: &[String]) -> ReportTable {
    let rows = scored_groups(answers, models)
        .map(|(model, language, scored)| {
            let predicted: Vec<bool> = scored.iter().map(|(s, _)| *s > 0.0).collect();
            let actual: Vec<bool> = scored.iter().map(|(_, a)| a.correct).collect();
            let mcc = estimate_with_ci(scored.len(), |idx| matthews(&pick(idx, &predicted), &pick(idx, &actual)), RESAMPLES, 0.95, SEED);
            let model_rate = success_rate(&predicted);
            // a model with no scores in this language: n/a, not sklearn's 0 for an undefined MCC
            let mut row = vec![model.clone(), language, scored.len().to_string(), num(model_rate)];
            row.extend(with_ci(mcc));
            row
        })
        .collect();
    table(
        "table5_mcc",
        "Table 5: Matthews correlation of model predictions (Eq. 2 > 0) with human correctness",
        &["model", "language", "answers", "model_success", "mcc", "ci_low", "ci_high"],
        rows,
    )
}

/// The length N of an answer that its time is divided by.
type Length = fn(&Answer) -> f64;

/// The length normalisations of Table 6.
const NORMALISATIONS: [(&str, Length); 4] =
    [("none", |_| 1.0), ("sentences", |a| a.k as f64), ("words", |a| a.words), ("characters", |a| a.chars)];

/// Table 6: Mann-Whitney effect size of log(time / N), correct vs incorrect answers.
pub(crate) fn time_effects(answers: &[Answer]) -> ReportTable {
    let mut rows = Vec::new();
    for language in languages(answers) {
        for (name, n) in NORMALISATIONS {
            let s = |want: bool| -> Vec<f64> {
                answers.iter().filter(|a| &a.language == language && a.correct == want && a.ms > 0.0).map(|a| (a.ms / n(a)).ln()).collect()
            };
            let (right, wrong) = (s(true), s(false));
            let r = mann_whitney(&right, &wrong);
            rows.push(vec![
                language.clone(),
                name.into(),
                right.len().to_string(),
                wrong.len().to_string(),
                num(r.effect_size),
                p_value(r.p_value),
            ]);
        }
    }
    table(
        "table6_time_effect",
        "Table 6: Mann-Whitney effect size (U / max U) of log time, correct vs incorrect (below 0.5: correct answers are faster)",
        &["language", "normalised_by", "correct", "incorrect", "effect_size", "p_value"],
        rows,
    )
}

/// Table 7: Spearman correlation of model scores with time-weighted judgments (Eq. 3).
pub(crate) fn spearman_table(answers: &[Answer], models: &[String]) -> ReportTable {
    let rows = scored_groups(answers, models)
        .map(|(model, language, scored)| {
            let by_words = language == "en" || language == "es";
            let s: Vec<f64> = scored.iter().map(|(_, a)| (a.ms.max(1.0) / if by_words { a.words } else { a.k as f64 }).ln()).collect();
            let correct: Vec<bool> = scored.iter().map(|(_, a)| a.correct).collect();
            let weighted = time_weighted(&s, &correct);
            let score: Vec<f64> = scored.iter().map(|(v, _)| *v).collect();
            let (rho, (lo, hi)) =
                estimate_with_ci(scored.len(), |idx| spearman(&pick(idx, &score), &pick(idx, &weighted)).0, RESAMPLES, 0.95, SEED);
            let p = spearman(&score, &weighted).1;
            vec![model.clone(), language, scored.len().to_string(), num(rho), p_value(p), num(lo), num(hi)]
        })
        .collect();
    table(
        "table7_spearman",
        "Table 7: Spearman correlation of model scores with time-weighted judgments (Eq. 3)",
        &["model", "language", "answers", "rho", "p_value", "ci_low", "ci_high"],
        rows,
    )
}
