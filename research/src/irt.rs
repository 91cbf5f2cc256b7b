//! Item response theory of the main game's answers, per language: each item's
//! difficulty (1PL, with its standard error, and 2PL with its discrimination), and
//! where the players and each scored model stand on the same ability scale (a
//! model is a respondent whose answer is right when its Eq. 2 score is positive);
//! and the same fits of the other modes' answers ([`mode_tables`]).

use std::collections::BTreeMap;

use crate::ResearchError;
use gapwise_model::{ItemId, Mode, ReportFigure, ReportTable};
use gapwise_store::ModeResponse;

use crate::answers::{languages, Answer};
use crate::figures::{abilities, nothing, AbilityPanel};
use crate::table::{num, table};
use gapwise_stats::bootstrap::quantile;
use gapwise_stats::irt::{fit, numbered, Ability, Fit, Model, NoEstimate, Numbered};

/// Both fits of `r`.
fn fits<K>(r: &Numbered<K>) -> (Fit, Fit) {
    (fit(r.players, r.items.len(), &r.cells, Model::OnePl), fit(r.players, r.items.len(), &r.cells, Model::TwoPl))
}

const ITEM_COLUMNS: [&str; 12] = [
    "answers",
    "difficulty_1pl",
    "se_1pl",
    "infit_1pl",
    "outfit_1pl",
    "difficulty_2pl",
    "se_2pl",
    "discrimination_2pl",
    "se_discrimination_2pl",
    "infit_2pl",
    "outfit_2pl",
    "why_not_estimated",
];
const ABILITY_COLUMNS: [&str; 7] = ["answers", "ability", "se", "percentile", "ability_q25", "ability_q75", "why_not_estimated"];

/// An item's row after its labels: answers, each fit's estimates with their standard
/// errors and item fit, and why a fit has none.
fn item_cells(i: usize, answered: &[usize], one: &Fit, two: &Fit) -> Vec<String> {
    let mut row = vec![answered.get(i).copied().unwrap_or(0).to_string()];
    let mut why = Vec::new();
    for (name, fit, two_pl) in [("1PL", one, false), ("2PL", two, true)] {
        match fit.items.get(i) {
            Some(Ok(item)) => {
                row.push(num(item.difficulty));
                row.push(num(item.difficulty_se));
                if two_pl {
                    row.push(num(item.discrimination));
                    row.push(num(item.discrimination_se));
                }
                row.extend([num(item.infit), num(item.outfit)]);
            }
            missing => {
                row.extend(std::iter::repeat_n("n/a".to_owned(), if two_pl { 6 } else { 4 }));
                why.push(format!(
                    "{name}: {}",
                    missing.map_or(NoEstimate::NoAnswers, |m| m.err().unwrap_or(NoEstimate::NoAnswers)).reason()
                ));
            }
        }
    }
    row.push(why.join("; "));
    row
}

/// The two tables, `irt_items` and `irt_abilities`, and one figure per language.
/// The curves are those of `curve_item` in its language, elsewhere of the most
/// informative item ([`most_informative`]).
pub(crate) fn analyses(
    answers: &[Answer],
    models: &[String],
    curve_item: Option<ItemId>,
    empty: &str,
) -> Result<([ReportTable; 2], Vec<ReportFigure>), ResearchError> {
    let (mut item_rows, mut ability_rows, mut figures) = (Vec::new(), Vec::new(), Vec::new());
    for language in languages(answers) {
        let mine: Vec<&Answer> = answers.iter().filter(|a| &a.language == language).collect();
        let r = numbered(mine.iter().map(|a| (a.annotator.as_str(), a.item, a.correct)));
        let (one, two) = fits(&r);
        let labels: BTreeMap<ItemId, (&str, &str, i64)> =
            mine.iter().map(|a| (a.item, (a.pair.0.as_str(), a.pair.1.as_str(), a.k))).collect();
        let label = |i: usize| r.items.get(i).and_then(|id| labels.get(id)).copied().unwrap_or(("", "", 0));
        for i in 0..r.items.len() {
            let (target, distractor, k) = label(i);
            let mut row = vec![language.clone(), target.to_owned(), distractor.to_owned(), k.to_string()];
            row.extend(item_cells(i, &r.answered, &one, &two));
            item_rows.push(row);
        }
        let estimated = estimated_abilities(&one);
        ability_rows.push(players_row(&[language], &estimated));
        let players: Vec<f64> = estimated.iter().map(|a| a.eap).collect();
        let item_of: BTreeMap<ItemId, usize> = r.items.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut panel = AbilityPanel { language: language.clone(), players, models: Vec::new(), item: None };
        let chosen = curve_item.and_then(|id| r.items.iter().position(|&item| item == id));
        if let Some(i) = chosen.or_else(|| most_informative(&one, &two, &panel.players)) {
            let at = |fit: &Fit| {
                fit.items.get(i).and_then(|x| x.as_ref().ok()).map_or((f64::NAN, f64::NAN), |x| (x.discrimination, x.difficulty))
            };
            let (target, distractor, k) = label(i);
            let id = r.items.get(i).map_or_else(String::new, ItemId::to_string);
            let label = format!("item {id}: {target} / {distractor}, k = {k}");
            panel.item = Some((label, at(&one), at(&two)));
        }
        for (m, model) in models.iter().enumerate() {
            let mut seen = BTreeMap::new();
            for a in &mine {
                if let (Some(&i), Some(Some(score))) = (item_of.get(&a.item), a.scores.get(m)) {
                    seen.insert(i, *score > 0.0);
                }
            }
            let model_answers: Vec<(usize, bool)> = seen.into_iter().collect();
            let placed = one.ability(&model_answers);
            let (theta, se, why) = match placed {
                Ok(Ability { eap, se }) => (eap, se, String::new()),
                Err(e) if model_answers.is_empty() => (f64::NAN, f64::NAN, format!("no scores of these items ({})", e.reason())),
                Err(e) => (f64::NAN, f64::NAN, e.reason()),
            };
            let below = panel.players.iter().filter(|&&t| t < theta).count();
            // n/a for a model with no ability here, or with no players to rank it among
            let percentile =
                if panel.players.is_empty() || theta.is_nan() { f64::NAN } else { 100.0 * below as f64 / panel.players.len() as f64 };
            let why = if why.is_empty() && panel.players.is_empty() { "no player to rank it among".to_owned() } else { why };
            ability_rows.push(vec![
                language.clone(),
                model.clone(),
                model_answers.len().to_string(),
                num(theta),
                num(se),
                num(percentile),
                String::new(),
                String::new(),
                why,
            ]);
            panel.models.push((model.clone(), theta, se));
        }
        figures.push(ReportFigure {
            file: format!("fig_irt_{}", language.replace(|c: char| !c.is_ascii_alphanumeric(), "_")),
            title: format!("IRT ({language}): abilities of players and models, an item's curves"),
            svg: abilities(&panel)?,
        });
    }
    if figures.is_empty() {
        let title = "IRT: abilities of players and models, an item's curves";
        figures.push(ReportFigure { file: "fig_irt".into(), title: title.into(), svg: nothing(title, empty)? });
    }
    let tables = [
        table(
            "irt_items",
            "IRT by marginal maximum likelihood per language (abilities N(0, 1)): item difficulty (1PL; 2PL with discrimination), \
             standard errors (outer product of the players' scores), infit and outfit mean squares at the EAP abilities; n/a with \
             the reason for an item whose answers fix no estimate (every answer right or wrong; for the 2PL fewer than 5 answers, \
             or a discrimination that runs to a bound)",
            &[&["language", "target", "distractor", "k"][..], &ITEM_COLUMNS].concat(),
            item_rows,
        ),
        table(
            "irt_abilities",
            "IRT: the players' abilities (1PL, expected a posteriori: median, its standard error's median, quartiles) and each \
             model's (EAP with its posterior standard deviation) with its percentile among the players",
            &[&["language", "respondent"][..], &ABILITY_COLUMNS].concat(),
            ability_rows,
        ),
    ];
    Ok((tables, figures))
}

/// The item whose curves the figure draws by default: among the items both fits
/// estimated (the 1PL's alone when the 2PL estimated none), the one with the most
/// Fisher information over the players' abilities under the 1PL (sum of a^2 p (1 -
/// p)), the item that tells these players apart best.
fn most_informative(one: &Fit, two: &Fit, players: &[f64]) -> Option<usize> {
    let information = |a: f64, b: f64| {
        players
            .iter()
            .map(|t| {
                let p = 1.0 / (1.0 + (-a * (t - b)).exp());
                a * a * p * (1.0 - p)
            })
            .sum::<f64>()
    };
    one.items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            item.as_ref().ok().map(|x| (i, two.items.get(i).is_some_and(Result::is_ok), information(x.discrimination, x.difficulty)))
        })
        .max_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)))
        .map(|(i, ..)| i)
}

/// The abilities of the players the fit estimated, by EAP.
fn estimated_abilities(fit: &Fit) -> Vec<Ability> {
    let mut abilities: Vec<Ability> = fit.abilities.iter().filter_map(|a| a.ok()).collect();
    abilities.sort_by(|x, y| x.eap.total_cmp(&y.eap));
    abilities
}

/// The players of a fit, after the labels `of` (a language; a mode and group):
/// how many have an ability, the median EAP and of its standard errors, the
/// quartiles (`abilities` sorted by EAP).
fn players_row(of: &[&str], abilities: &[Ability]) -> Vec<String> {
    let mut row: Vec<String> = of.iter().map(|s| (*s).to_owned()).collect();
    let eap: Vec<f64> = abilities.iter().map(|a| a.eap).collect();
    let mut se: Vec<f64> = abilities.iter().map(|a| a.se).collect();
    se.sort_by(f64::total_cmp);
    row.extend([
        "players".to_owned(),
        abilities.len().to_string(),
        num(quantile(&eap, 0.5)),
        num(quantile(&se, 0.5)),
        String::new(),
        num(quantile(&eap, 0.25)),
        num(quantile(&eap, 0.75)),
        if abilities.is_empty() { "no player answered an estimated item".to_owned() } else { String::new() },
    ]);
    row
}

/// `irt_mode_items` and `irt_mode_abilities`: the same fits for the other modes'
/// answers ([`ModeResponse`]), per mode and group of items (a definition task, a
/// language of the next-word sentences, a setup of the invented words). Models
/// are placed on the scale in the main game only.
pub(crate) fn mode_tables(responses: &[ModeResponse]) -> [ReportTable; 2] {
    let mut groups: BTreeMap<(Mode, &str), Vec<&ModeResponse>> = BTreeMap::new();
    for r in responses {
        groups.entry((r.mode, r.group.as_str())).or_default().push(r);
    }
    let (mut item_rows, mut ability_rows) = (Vec::new(), Vec::new());
    for ((mode, group), answers) in groups {
        let r = numbered(answers.iter().map(|a| (a.annotator.as_str(), a.item.as_str(), a.correct)));
        let (one, two) = fits(&r);
        for (i, item) in r.items.iter().enumerate() {
            let mut row = vec![mode.code().to_owned(), group.to_owned(), (*item).to_owned()];
            row.extend(item_cells(i, &r.answered, &one, &two));
            item_rows.push(row);
        }
        ability_rows.push(players_row(&[mode.code(), group], &estimated_abilities(&one)));
    }
    [
        table(
            "irt_mode_items",
            "IRT of the other modes, as irt_items: per mode and group of items",
            &[&["mode", "group", "item"][..], &ITEM_COLUMNS].concat(),
            item_rows,
        ),
        table(
            "irt_mode_abilities",
            "IRT of the other modes: the players' abilities (1PL, EAP) per mode and group of items",
            &[&["mode", "group", "respondent"][..], &ABILITY_COLUMNS].concat(),
            ability_rows,
        ),
    ]
}
