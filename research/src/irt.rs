//! Item response theory of the main game's answers, per language: each item's
//! difficulty (1PL, with its standard error, and 2PL with its discrimination), and
//! where the players and each scored model stand on the same ability scale (a
//! model is a respondent whose answer is right when its Eq. 2 score is positive);
//! and the same fits of the other modes' answers ([`mode_tables`]).

use std::collections::BTreeMap;

use crate::ResearchError;
use gapwise_model::{ReportFigure, ReportTable};
use gapwise_store::ModeResponse;

use crate::answers::{languages, Answer};
use crate::figures::{abilities, AbilityPanel};
use crate::table::{num, table};
use gapwise_stats::bootstrap::quantile;
use gapwise_stats::irt::{fit, numbered, Fit, Model, Numbered};

/// Both fits of `r`.
fn fits<K>(r: &Numbered<K>) -> (Fit, Fit) {
    (fit(r.players, r.items.len(), &r.cells, Model::OnePl), fit(r.players, r.items.len(), &r.cells, Model::TwoPl))
}

/// An item's row after its labels: answers, 1PL difficulty and its standard
/// error, 2PL difficulty and discrimination.
fn item_cells(i: usize, answered: &[usize], one: &Fit, two: &Fit) -> [String; 5] {
    let at = |v: &[f64]| num(v.get(i).copied().unwrap_or(f64::NAN));
    [
        answered.get(i).copied().unwrap_or(0).to_string(),
        at(&one.difficulty),
        at(&one.difficulty_se),
        at(&two.difficulty),
        at(&two.discrimination),
    ]
}

const ITEM_COLUMNS: [&str; 5] = ["answers", "difficulty_1pl", "se_1pl", "difficulty_2pl", "discrimination_2pl"];
const ABILITY_COLUMNS: [&str; 5] = ["answers", "ability", "percentile", "ability_q25", "ability_q75"];

/// The two tables, `irt_items` and `irt_abilities`, and one figure per language.
/// The curves are those of `curve_item` in its language, elsewhere of the most
/// informative item ([`most_informative`]).
pub(crate) fn analyses(
    answers: &[Answer],
    models: &[String],
    curve_item: Option<i64>,
) -> Result<([ReportTable; 2], Vec<ReportFigure>), ResearchError> {
    let (mut item_rows, mut ability_rows, mut figures) = (Vec::new(), Vec::new(), Vec::new());
    for language in languages(answers) {
        let mine: Vec<&Answer> = answers.iter().filter(|a| &a.language == language).collect();
        let r = numbered(mine.iter().map(|a| (a.annotator.as_str(), a.item, a.correct)));
        let (one, two) = fits(&r);
        let labels: BTreeMap<i64, (&str, &str, i64)> = mine.iter().map(|a| (a.item, (a.pair.0.as_str(), a.pair.1.as_str(), a.k))).collect();
        let label = |i: usize| r.items.get(i).and_then(|id| labels.get(id)).copied().unwrap_or(("", "", 0));
        for i in 0..r.items.len() {
            let (target, distractor, k) = label(i);
            let mut row = vec![language.clone(), target.to_owned(), distractor.to_owned(), k.to_string()];
            row.extend(item_cells(i, &r.answered, &one, &two));
            item_rows.push(row);
        }
        let players = fitted_abilities(&one);
        ability_rows.push(players_row(&[language], &players));
        let item_of: BTreeMap<i64, usize> = r.items.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut panel = AbilityPanel { language: language.clone(), players, models: Vec::new(), item: None };
        let chosen = curve_item.and_then(|id| r.items.iter().position(|&item| item == id));
        if let Some(i) = chosen.or_else(|| most_informative(&one, &two, &panel.players)) {
            let at = |v: &[f64]| v.get(i).copied().unwrap_or(f64::NAN);
            let (target, distractor, k) = label(i);
            let id = r.items.get(i).copied().unwrap_or_default();
            let label = format!("item {id}: {target} / {distractor}, k = {k}");
            panel.item = Some((label, (at(&one.discrimination), at(&one.difficulty)), (at(&two.discrimination), at(&two.difficulty))));
        }
        for (m, model) in models.iter().enumerate() {
            let mut seen = BTreeMap::new();
            for a in &mine {
                if let (Some(&i), Some(Some(score))) = (item_of.get(&a.item), a.scores.get(m)) {
                    seen.insert(i, *score > 0.0);
                }
            }
            let model_answers: Vec<(usize, bool)> = seen.into_iter().collect();
            let theta = one.ability(&model_answers);
            let below = panel.players.iter().filter(|&&t| t < theta).count();
            // n/a for a model with no scores here (its ability is NaN) or no players
            let percentile =
                if panel.players.is_empty() || theta.is_nan() { f64::NAN } else { 100.0 * below as f64 / panel.players.len() as f64 };
            ability_rows.push(vec![
                language.clone(),
                model.clone(),
                model_answers.len().to_string(),
                num(theta),
                num(percentile),
                String::new(),
                String::new(),
            ]);
            panel.models.push((model.clone(), theta));
        }
        figures.push(ReportFigure {
            file: format!("fig_irt_{}", language.replace(|c: char| !c.is_ascii_alphanumeric(), "_")),
            title: format!("IRT ({language}): abilities of players and models, an item's curves"),
            svg: abilities(&panel)?,
        });
    }
    let tables = [
        table(
            "irt_items",
            "IRT: item difficulty (1PL, with standard error; 2PL with discrimination), joint maximum likelihood per language; \
             the 2PL estimates items with at least 5 answers from players with right and wrong answers, both right and wrong among them (n/a otherwise)",
            &[&["language", "target", "distractor", "k"][..], &ITEM_COLUMNS].concat(),
            item_rows,
        ),
        table(
            "irt_abilities",
            "IRT: the players' abilities (1PL) and where each model stands among them",
            &[&["language", "respondent"][..], &ABILITY_COLUMNS].concat(),
            ability_rows,
        ),
    ];
    Ok((tables, figures))
}

/// The item whose curves the figure draws by default: among the items both fits
/// estimated (the 1PL's alone when the 2PL estimated none), the one with the most
/// Fisher information over the fitted players' abilities under the 1PL (sum of
/// a^2 p (1 - p)), the item that tells these players apart best. An item everyone
/// got right tells nobody apart.
fn most_informative(one: &Fit, two: &Fit, players: &[f64]) -> Option<usize> {
    let information = |i: usize| {
        let (a, b) = (one.discrimination[i], one.difficulty[i]);
        players
            .iter()
            .map(|t| {
                let p = 1.0 / (1.0 + (-a * (t - b)).exp());
                a * a * p * (1.0 - p)
            })
            .sum::<f64>()
    };
    (0..one.difficulty.len().min(two.estimated.len()))
        .filter(|&i| one.estimated[i])
        .map(|i| (i, two.estimated[i], information(i)))
        .max_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)))
        .map(|(i, ..)| i)
}

/// The abilities of the players the fit used.
fn fitted_abilities(fit: &Fit) -> Vec<f64> {
    let mut abilities: Vec<f64> = fit.ability.iter().zip(&fit.fitted).filter(|(_, &f)| f).map(|(t, _)| *t).collect();
    abilities.sort_by(f64::total_cmp);
    abilities
}

/// The players of a fit, after the labels `of` (a language; a mode and group):
/// how many were fitted, their median and quartiles (`abilities` sorted).
fn players_row(of: &[&str], abilities: &[f64]) -> Vec<String> {
    let mut row: Vec<String> = of.iter().map(|s| (*s).to_owned()).collect();
    row.extend([
        "players".to_owned(),
        abilities.len().to_string(),
        num(quantile(abilities, 0.5)),
        String::new(),
        num(quantile(abilities, 0.25)),
        num(quantile(abilities, 0.75)),
    ]);
    row
}

/// `irt_mode_items` and `irt_mode_abilities`: the same fits for the other modes'
/// answers ([`ModeResponse`]), per mode and group of items (a definition task, a
/// language of the next-word sentences, a setup of the invented words). Models
/// are placed on the scale in the main game only.
pub(crate) fn mode_tables(responses: &[ModeResponse]) -> [ReportTable; 2] {
    let mut groups: BTreeMap<(&str, &str), Vec<&ModeResponse>> = BTreeMap::new();
    for r in responses {
        groups.entry((r.mode.as_str(), r.group.as_str())).or_default().push(r);
    }
    let (mut item_rows, mut ability_rows) = (Vec::new(), Vec::new());
    for ((mode, group), answers) in groups {
        let r = numbered(answers.iter().map(|a| (a.annotator.as_str(), a.item.as_str(), a.correct)));
        let (one, two) = fits(&r);
        for (i, item) in r.items.iter().enumerate() {
            let mut row = vec![mode.to_owned(), group.to_owned(), (*item).to_owned()];
            row.extend(item_cells(i, &r.answered, &one, &two));
            item_rows.push(row);
        }
        ability_rows.push(players_row(&[mode, group], &fitted_abilities(&one)));
    }
    [
        table(
            "irt_mode_items",
            "IRT of the other modes: item difficulty (1PL, with standard error; 2PL with discrimination) per mode and group of items",
            &[&["mode", "group", "item"][..], &ITEM_COLUMNS].concat(),
            item_rows,
        ),
        table(
            "irt_mode_abilities",
            "IRT of the other modes: the players' abilities (1PL) per mode and group of items",
            &[&["mode", "group", "respondent"][..], &ABILITY_COLUMNS].concat(),
            ability_rows,
        ),
    ]
}
