//! Section 6 of the paper: Table 8, the dominance analysis of mean Likert ratings,
//! and Fig. 2, the heatmap of ratings against model scores.
//!
//! Predictors of an item's mean rating, as in the paper: the model's Eq. 2 score of
//! its context; the pair's success rate and mean log time in the main game (the
//! answers the report covers); the frequency of target and distractor (one group of
//! two columns, `ln(1 + n)` for n sentences of the language's corpus containing the
//! word); and the context's source (indicator columns). Items whose pair nobody has
//! played in the main game have no success rate or time and are left out of Table 8.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::ResearchError;
use gapwise_model::{AnswerFilter, ItemId, Language, ReportFigure, ReportTable};
use gapwise_stats::agreement::{krippendorff_alpha, Level};
use gapwise_stats::bootstrap::estimate_with_ci;
use gapwise_stats::dominance::{dominance, Predictor};
use gapwise_store::{day_range, filter_language, RateRow, Store};

use crate::answers::Answer;
use crate::figures::{likert_heatmap, nothing, RatePanel};
use crate::table::{num, table, with_ci, RESAMPLES, SEED};

/// Fewest items for a regression with up to 6 columns to mean anything.
const MIN_ITEMS: usize = 10;

type PairKey = (String, String, String);

/// Success rate and mean log time of each pair in the main game.
fn pair_stats(answers: &[Answer]) -> HashMap<PairKey, (f64, f64)> {
    let mut by_pair: HashMap<PairKey, (usize, usize, f64)> = HashMap::new();
    for a in answers.iter().filter(|a| a.ms > 0.0) {
        let e = by_pair.entry((a.language.clone(), a.pair.0.clone(), a.pair.1.clone())).or_default();
        e.0 += usize::from(a.correct);
        e.1 += 1;
        e.2 += a.ms.ln();
    }
    by_pair.into_iter().map(|(k, (right, n, log_time))| (k, (right as f64 / n as f64, log_time / n as f64))).collect()
}

pub(crate) async fn analyses(
    store: &Store,
    answers: &[Answer],
    models: &[String],
    filter: &AnswerFilter,
) -> Result<(ReportTable, Vec<ReportFigure>), ResearchError> {
    let rows = store.rate().rated_items(models, filter_language(filter)?, day_range(filter)?).await?;
    let mut by_language: BTreeMap<gapwise_model::Language, Vec<&RateRow>> = BTreeMap::new();
    for r in &rows {
        by_language.entry(r.language).or_default().push(r);
    }
    let stats = pair_stats(answers);
    let mut frequencies = HashMap::new();
    for (language, items) in &by_language {
        let words: HashSet<String> = items.iter().flat_map(|r| [r.target.clone(), r.distractor.clone()]).collect();
        frequencies.insert(*language, store.rate().sentence_frequencies(*language, &words).await?);
    }
    let mut table_rows = Vec::new();
    let mut figures = Vec::new();
    for (m, model) in models.iter().enumerate() {
        let mut panels = Vec::new();
        for (language, items) in &by_language {
            let scored: Vec<(&RateRow, f64)> = items.iter().filter_map(|r| r.model_scores[m].map(|s| (*r, s))).collect();
            if scored.is_empty() {
                continue;
            }
            panels.push(RatePanel {
                language: language.code().to_owned(),
                ratings: scored.iter().map(|(r, _)| r.mean_rating).collect(),
                scores: scored.iter().map(|(_, s)| *s).collect(),
            });
            table_rows.push(dominance_row(model, language.code(), &scored, &stats, &frequencies[language]));
        }
        if !panels.is_empty() {
            let file = format!("fig2_likert_{}", model.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
            figures.push(ReportFigure {
                file,
                title: format!("Figure 2: Likert ratings against {model} scores"),
                svg: likert_heatmap(model, &panels)?,
            });
        }
    }
    if figures.is_empty() {
        let why = if models.is_empty() {
            "no model named (the report's --model)"
        } else if rows.is_empty() {
            "no rated item among the ratings the filter selects"
        } else {
            "no rated item has a score of these models"
        };
        let title = "Figure 2: Likert ratings against model scores";
        figures.push(ReportFigure { file: "fig2_likert".into(), title: title.into(), svg: nothing(title, why)? });
    }
    let table8 = table(
        "table8_dominance",
        "Table 8: share of r² of mean Likert ratings explained by each predictor (%, general dominance), over the ratings \
         of the filter's language and days (Likert items have no k or strategy); n/a for a predictor that does not vary \
         (one source, one success rate)",
        &["model", "language", "items", "score", "success", "time", "frequency", "source", "r2"],
        table_rows,
    );
    Ok((table8, figures))
}

/// How far the people who rated the same Likert items agree, per language:
/// Krippendorff's alpha, ordinal (the five points are ranks), with a bootstrap
/// interval over items.
pub(crate) async fn agreement(store: &Store, filter: &AnswerFilter) -> Result<ReportTable, ResearchError> {
    let mut units: BTreeMap<Language, BTreeMap<ItemId, Vec<f64>>> = BTreeMap::new();
    for (language, item, rating) in store.rate().item_ratings(filter_language(filter)?, day_range(filter)?).await? {
        units.entry(language).or_default().entry(item).or_default().push(rating as f64);
    }
    let rows = units
        .into_iter()
        .map(|(language, by_item)| {
            let items: Vec<Vec<f64>> = by_item.into_values().collect();
            let alpha = |idx: &[usize]| krippendorff_alpha(&idx.iter().map(|&i| items[i].clone()).collect::<Vec<_>>(), Level::Ordinal);
            let mut row = vec![language.code().to_owned(), items.len().to_string(), items.iter().map(Vec::len).sum::<usize>().to_string()];
            row.extend(with_ci(estimate_with_ci(items.len(), alpha, RESAMPLES, 0.95, SEED)));
            row
        })
        .collect();
    Ok(table(
        "rate_agreement",
        "Agreement on Likert ratings: Krippendorff's alpha (ordinal) by language, over the ratings of the filter's language \
         and days (Likert items have no k or strategy)",
        &["language", "items", "ratings", "alpha", "alpha_ci_low", "alpha_ci_high"],
        rows,
    ))
}

/// A Likert item with every predictor of Table 8 at hand.
struct Observation<'a> {
    row: &'a RateRow,
    score: f64,
    success: f64,
    time: f64,
}

/// One line of Table 8: the dominance analysis of one model in one language.
fn dominance_row(
    model: &str,
    language: &str,
    scored: &[(&RateRow, f64)],
    stats: &HashMap<PairKey, (f64, f64)>,
    frequency: &HashMap<String, u64>,
) -> Vec<String> {
    let usable: Vec<Observation> = scored
        .iter()
        .filter_map(|&(row, score)| {
            let &(success, time) = stats.get(&(row.language.code().to_owned(), row.target.clone(), row.distractor.clone()))?;
            Some(Observation { row, score, success, time })
        })
        .collect();
    let mut row = vec![model.to_owned(), language.to_owned(), usable.len().to_string()];
    let column = |f: &dyn Fn(&Observation) -> f64| usable.iter().map(f).collect::<Vec<f64>>();
    let log_frequency = |w: &String| (1.0 + frequency.get(w).copied().unwrap_or(0) as f64).ln();
    let sources: BTreeSet<&String> = usable.iter().map(|o| &o.row.source).collect();
    let y = column(&|o| o.row.mean_rating);
    let predictors = [
        Predictor { name: "score".into(), columns: vec![column(&|o| o.score)] },
        Predictor { name: "success".into(), columns: vec![column(&|o| o.success)] },
        Predictor { name: "time".into(), columns: vec![column(&|o| o.time)] },
        Predictor {
            name: "frequency".into(),
            columns: vec![column(&|o| log_frequency(&o.row.target)), column(&|o| log_frequency(&o.row.distractor))],
        },
        // one indicator column per source but the first (the baseline)
        Predictor {
            name: "source".into(),
            columns: sources.iter().skip(1).map(|s| column(&|o| f64::from(u8::from(&o.row.source == *s)))).collect(),
        },
    ];
    match (usable.len() >= MIN_ITEMS).then(|| dominance(&y, &predictors)) {
        Some(Ok(d)) => {
            // a predictor that does not vary (one source: no column) explains nothing: n/a, not 0
            let varies = |p: &Predictor| p.columns.iter().any(|c| c.iter().any(|v| c.first() != Some(v)));
            row.extend(d.share.iter().zip(&predictors).map(|(s, p)| if varies(p) { num(100.0 * s) } else { "n/a".to_owned() }));
            row.push(num(d.r2));
        }
        _ => row.extend(std::iter::repeat_n("n/a".to_owned(), predictors.len() + 1)),
    }
    row
}
