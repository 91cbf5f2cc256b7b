//! Item response theory of the main game's answers, per language: each item's
//! difficulty (1PL, with its standard error, and 2PL with its discrimination), and
//! where the players and each scored model stand on the same ability scale (a
//! model is a respondent whose answer is right when its Eq. 2 score is positive).

use std::collections::BTreeMap;

use gapwise_model::{ReportFigure, ReportTable};
use gapwise_store::StoreError;

use crate::answers::{languages, Answer};
use crate::figures::{abilities, AbilityPanel};
use crate::stats::bootstrap::quantile;
use crate::stats::irt::{fit, Cell, Fit, Model};
use crate::table::{num, table};

/// One language's answers as the fit reads them: respondents and items numbered.
struct Responses {
    players: Vec<String>,
    items: Vec<i64>,
    cells: Vec<Cell>,
    /// Answers per item.
    answered: Vec<usize>,
    /// The item's pair and k, as the table shows them.
    labels: Vec<(String, String, i64)>,
}

fn responses(answers: &[&Answer]) -> Responses {
    let (mut players, mut items): (BTreeMap<&str, usize>, BTreeMap<i64, usize>) = (BTreeMap::new(), BTreeMap::new());
    for a in answers {
        let next = players.len();
        players.entry(&a.annotator).or_insert(next);
        let next = items.len();
        items.entry(a.item).or_insert(next);
    }
    let mut answered = vec![0; items.len()];
    let mut labels = vec![(String::new(), String::new(), 0); items.len()];
    let cells = answers
        .iter()
        .filter_map(|a| {
            let (p, i) = (*players.get(a.annotator.as_str())?, *items.get(&a.item)?);
            *answered.get_mut(i)? += 1;
            *labels.get_mut(i)? = (a.pair.0.clone(), a.pair.1.clone(), a.k);
            Some((p, i, a.correct))
        })
        .collect();
    let mut by_index: Vec<(usize, &str)> = players.iter().map(|(name, &i)| (i, *name)).collect();
    by_index.sort_unstable();
    let mut item_ids: Vec<(usize, i64)> = items.iter().map(|(&id, &i)| (i, id)).collect();
    item_ids.sort_unstable();
    Responses {
        players: by_index.into_iter().map(|(_, name)| name.to_owned()).collect(),
        items: item_ids.into_iter().map(|(_, id)| id).collect(),
        cells,
        answered,
        labels,
    }
}

/// The two tables, `irt_items` and `irt_abilities`, and one figure per language.
pub(crate) fn analyses(answers: &[Answer], models: &[String]) -> Result<([ReportTable; 2], Vec<ReportFigure>), StoreError> {
    let (mut item_rows, mut ability_rows, mut figures) = (Vec::new(), Vec::new(), Vec::new());
    for language in languages(answers) {
        let mine: Vec<&Answer> = answers.iter().filter(|a| &a.language == language).collect();
        let r = responses(&mine);
        let one = fit(r.players.len(), r.items.len(), &r.cells, Model::OnePl);
        let two = fit(r.players.len(), r.items.len(), &r.cells, Model::TwoPl);
        for (i, (target, distractor, k)) in r.labels.iter().enumerate() {
            let at = |v: &[f64]| v.get(i).copied().unwrap_or(f64::NAN);
            item_rows.push(vec![
                language.clone(),
                target.clone(),
                distractor.clone(),
                k.to_string(),
                r.answered.get(i).copied().unwrap_or(0).to_string(),
                num(at(&one.difficulty)),
                num(at(&one.difficulty_se)),
                num(at(&two.difficulty)),
                num(at(&two.discrimination)),
            ]);
        }
        let players = fitted_abilities(&one);
        ability_rows.push(players_row(language, &players));
        let item_of: BTreeMap<i64, usize> = r.items.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut panel = AbilityPanel { language: language.clone(), players, models: Vec::new(), item: None };
        if let Some((i, _)) = r.answered.iter().enumerate().max_by_key(|(_, n)| **n) {
            let at = |v: &[f64]| v.get(i).copied().unwrap_or(f64::NAN);
            let label = r.labels.get(i).map(|(t, d, k)| format!("{t} / {d}, k = {k}")).unwrap_or_default();
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
            let percentile = if panel.players.is_empty() { f64::NAN } else { 100.0 * below as f64 / panel.players.len() as f64 };
            ability_rows.push(vec![language.clone(), model.clone(), model_answers.len().to_string(), num(theta), num(percentile), String::new(), String::new()]);
            panel.models.push((model.clone(), theta));
        }
        figures.push(ReportFigure {
            file: format!("fig_irt_{}", language.replace(|c: char| !c.is_ascii_alphanumeric(), "_")),
            title: format!("IRT ({language}): abilities of players and models, curves of the most answered item"),
            svg: abilities(&panel)?,
        });
    }
    let tables = [
        table(
            "irt_items",
            "IRT: item difficulty (1PL, with standard error; 2PL with discrimination), joint maximum likelihood per language",
            &["language", "target", "distractor", "k", "answers", "difficulty_1pl", "se_1pl", "difficulty_2pl", "discrimination_2pl"],
            item_rows,
        ),
        table(
            "irt_abilities",
            "IRT: the players' abilities (1PL) and where each model stands among them",
            &["language", "respondent", "answers", "ability", "percentile", "ability_q25", "ability_q75"],
            ability_rows,
        ),
    ];
    Ok((tables, figures))
}

/// The abilities of the players the fit used.
fn fitted_abilities(fit: &Fit) -> Vec<f64> {
    let mut abilities: Vec<f64> = fit.ability.iter().zip(&fit.fitted).filter(|(_, &f)| f).map(|(t, _)| *t).collect();
    abilities.sort_by(f64::total_cmp);
    abilities
}

/// The players of a language: how many were fitted, their median and quartiles
/// (`abilities` sorted).
fn players_row(language: &str, abilities: &[f64]) -> Vec<String> {
    vec![
        language.to_owned(),
        "players".to_owned(),
        abilities.len().to_string(),
        num(quantile(abilities, 0.5)),
        String::new(),
        num(quantile(abilities, 0.25)),
        num(quantile(abilities, 0.75)),
    ]
}
