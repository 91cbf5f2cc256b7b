//! Every number the report prints from the main game's answers is finite and inside
//! its range, or n/a: checked by property-based tests over random answer sets shaped
//! like the game's and its degenerate cases (one item, one player, every answer right,
//! every one wrong, one language, one source, no answer at all), for every table
//! computed from the answers (Tables 3-7, agreement, response times, both IRT
//! tables, the other modes' IRT) and every figure drawn from them (Fig. 1, the IRT
//! figures). The ranges:
//! - counts are whole and not negative;
//! - correlations and reliabilities (alpha, split-half, MCC, rho) lie in [-1, 1];
//!   rates, effect sizes and p-values in [0, 1]; percentages in [0, 100];
//! - an interval holds its estimate (lo <= estimate <= hi);
//! - standard errors are positive; abilities lie on the grid (+-6); an item without
//!   an estimate says why.

#![allow(clippy::expect_used, clippy::panic, reason = "a test's helpers: failing loudly is their job")]

use proptest::prelude::*;

use gapwise_model::{ReportFigure, ReportTable, Trial};
use gapwise_store::ModeResponse;

use crate::answers::Answer;
use crate::{figures, irt, play, trials};

/// How an answer set is drawn: its size, and how right the answers are.
#[derive(Clone, Debug)]
struct Shape {
    languages: usize,
    items: usize,
    players: usize,
    per_player: usize,
    sources: usize,
    models: usize,
    /// None: each answer right with its item's chance; Some(b): every answer b.
    all: Option<bool>,
    seed: u64,
}

fn shapes() -> impl Strategy<Value = Shape> {
    (
        1..=2usize,
        1..=25usize,
        1..=10usize,
        1..=15usize,
        1..=3usize,
        0..=2usize,
        prop_oneof![Just(None), Just(Some(true)), Just(Some(false))],
        any::<u64>(),
    )
        .prop_map(|(languages, items, players, per_player, sources, models, all, seed)| Shape {
            languages,
            items,
            players,
            per_player,
            sources,
            models,
            all,
            seed,
        })
}

/// A small deterministic generator (splitmix64), so that a shape names its answers.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The answers of `shape`: each player answers up to `per_player` distinct items.
fn answers(shape: &Shape) -> Vec<Answer> {
    let mut draw = Draw(shape.seed);
    let chance: Vec<f64> = (0..shape.items).map(|_| draw.unit()).collect();
    let mut out = Vec::new();
    for p in 0..shape.players {
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..shape.per_player {
            let item = draw.below(shape.items);
            if !seen.insert(item) {
                continue;
            }
            let correct = shape.all.unwrap_or_else(|| draw.unit() < chance[item]);
            let k = [1, 3, 5][item % 3];
            out.push(Answer {
                item: gapwise_model::ItemId(item as i64),
                language: ["en", "fr"][item % shape.languages].into(),
                k,
                strategy: ["a_priori", "distributional", "suggested"][item % 3].into(),
                pair: (format!("t{item}"), format!("d{item}")),
                annotator: format!("p{p}"),
                correct,
                ms: 300.0 + 20_000.0 * draw.unit(),
                words: 5.0 + k as f64 * 8.0,
                chars: 20.0 + k as f64 * 40.0,
                sources: (0..k).map(|c| format!("source{}", (item + c as usize) % shape.sources)).collect(),
                scores: (0..shape.models).map(|_| (draw.unit() < 0.8).then(|| 10.0 * draw.unit() - 5.0)).collect(),
                browser_ms: None,
                trial: Trial::default(),
            });
        }
    }
    out
}

const COUNTS: [&str; 13] = [
    "answers",
    "items",
    "annotators",
    "correct",
    "incorrect",
    "answers_filtered",
    "ratings",
    "groups",
    "positions",
    "tokens",
    "types",
    "unscored",
    "k",
];
const CORRELATIONS: [&str; 4] = ["alpha", "split_half", "mcc", "rho"];
const UNIT: [&str; 5] = ["success", "success_filtered", "model_success", "effect_size", "p_value"];
const PERCENT: [&str; 4] = ["percentile", "tab_hidden_pct", "coarse_clock_pct", "p_better_than_chance"];
const ERRORS: [&str; 4] = ["se", "se_1pl", "se_2pl", "se_discrimination_2pl"];
/// (estimate, interval low, high) columns.
const INTERVALS: [(&str, &str, &str); 4] = [
    ("success", "ci_low", "ci_high"),
    ("success_filtered", "ci_low_filtered", "ci_high_filtered"),
    ("alpha", "alpha_ci_low", "alpha_ci_high"),
    ("split_half", "split_half_ci_low", "split_half_ci_high"),
];

/// Every violation of the ranges in `table`.
fn out_of_range(table: &ReportTable) -> Vec<String> {
    let mut bad = Vec::new();
    let column = |name: &str| table.header.iter().position(|h| h == name);
    for row in &table.rows {
        let at = |name: &str| column(name).and_then(|c| row.get(c)).map(String::as_str);
        let value = |name: &str| at(name).and_then(|v| v.parse::<f64>().ok());
        let mut fail = |why: String| bad.push(format!("{}: {why} in {row:?}", table.file));
        for (h, cell) in table.header.iter().zip(row) {
            if let Ok(v) = cell.parse::<f64>() {
                if !v.is_finite() || v == 0.0 && cell.starts_with('-') {
                    fail(format!("{h} = {cell}"));
                }
            } else if cell.eq_ignore_ascii_case("nan") || cell.contains("inf") && cell.parse::<f64>().is_ok() {
                fail(format!("{h} = {cell}"));
            }
        }
        let within = |name: &str, lo: f64, hi: f64| value(name).is_none_or(|v| (lo..=hi).contains(&v));
        for name in COUNTS {
            if let Some(cell) = at(name).filter(|c| !c.is_empty() && *c != "n/a" && *c != "all") {
                if cell.parse::<u64>().is_err() {
                    fail(format!("{name} = {cell} is not a count"));
                }
            }
        }
        for name in CORRELATIONS {
            if !within(name, -1.0, 1.0) {
                fail(format!("{name} outside [-1, 1]"));
            }
        }
        if table.file == "table5_mcc" || table.file == "table7_spearman" {
            for name in ["ci_low", "ci_high"] {
                if !within(name, -1.0, 1.0) {
                    fail(format!("{name} outside [-1, 1]"));
                }
            }
        }
        for name in UNIT {
            if !within(name, 0.0, 1.0) {
                fail(format!("{name} outside [0, 1]"));
            }
        }
        for name in PERCENT {
            if !within(name, 0.0, 100.0) {
                fail(format!("{name} outside [0, 100]"));
            }
        }
        for name in ERRORS {
            if value(name).is_some_and(|v| v <= 0.0) {
                fail(format!("{name} not positive"));
            }
        }
        let intervals: Vec<(&str, &str, &str)> = match table.file.as_str() {
            "table5_mcc" => vec![("mcc", "ci_low", "ci_high")],
            "table7_spearman" => vec![("rho", "ci_low", "ci_high")],
            _ => INTERVALS.to_vec(),
        };
        for (estimate, lo, hi) in intervals {
            match (value(estimate), value(lo), value(hi)) {
                (Some(e), Some(l), Some(h)) if !(l <= e && e <= h) => fail(format!("{estimate} outside its interval")),
                (None, Some(_), _) | (None, _, Some(_)) if at(estimate).is_some() => fail(format!("an interval without {estimate}")),
                _ => {}
            }
        }
        for name in ["ability", "ability_q25", "ability_q75"] {
            if !within(name, -6.0, 6.0) {
                fail(format!("{name} off the grid"));
            }
        }
        if let Some(why) = at("why_not_estimated") {
            for (fit, column) in [("1PL", "difficulty_1pl"), ("2PL", "difficulty_2pl")] {
                if at(column) == Some("n/a") && !why.contains(fit) && table.file.contains("items") {
                    fail(format!("{column} n/a with no reason"));
                }
            }
        }
    }
    bad
}

/// Whether a figure is drawn with no number that is not one.
fn figure_ok(figure: &ReportFigure) -> Result<(), String> {
    let svg = &figure.svg;
    if !svg.starts_with("<svg") {
        return Err(format!("{}: not an SVG", figure.file));
    }
    for word in ["NaN", "inf"] {
        if svg.split(|c: char| !c.is_alphanumeric()).any(|w| w == word) {
            return Err(format!("{}: draws {word}", figure.file));
        }
    }
    Ok(())
}

/// Every table and figure the report makes from `answers` (with `models` models).
fn everything(answers: &[Answer], models: usize) -> (Vec<ReportTable>, Vec<ReportFigure>) {
    let names: Vec<String> = (0..models).map(|m| format!("model{m}")).collect();
    let kept = play::filtered(answers, &[]);
    let mut tables = vec![
        play::success_rates(answers, &kept),
        play::indistinguishable_pairs(answers),
        play::mcc_table(answers, &names),
        play::time_effects(answers),
        play::spearman_table(answers, &names),
        play::agreement(answers),
        trials::response_times(answers),
    ];
    let (irt_tables, mut figures) = irt::analyses(answers, &names, None, "no answers yet").expect("IRT");
    tables.extend(irt_tables);
    let responses: Vec<ModeResponse> = answers
        .iter()
        .map(|a| ModeResponse {
            mode: gapwise_model::Mode::Guess,
            group: a.language.clone(),
            item: a.item.to_string(),
            annotator: a.annotator.clone(),
            correct: a.correct,
        })
        .collect();
    tables.extend(irt::mode_tables(&responses));
    figures.push(ReportFigure {
        file: "fig1".into(),
        title: String::new(),
        svg: figures::success_by_k(answers, &kept, "no answers yet").expect("Fig. 1"),
    });
    (tables, figures)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_number_of_the_main_games_tables_is_in_range(shape in shapes()) {
        let answers = answers(&shape);
        let (tables, figures) = everything(&answers, shape.models);
        let bad: Vec<String> = tables.iter().flat_map(out_of_range).collect();
        prop_assert!(bad.is_empty(), "{shape:?}:\n{}", bad.join("\n"));
        for figure in &figures {
            prop_assert!(figure_ok(figure).is_ok(), "{shape:?}: {:?}", figure_ok(figure));
        }
    }
}

/// The degenerate sets by name: no answer, one item, one player, all right, all wrong.
#[test]
fn degenerate_answer_sets_print_n_a_and_never_a_number_out_of_range() {
    let base = Shape { languages: 1, items: 1, players: 1, per_player: 1, sources: 1, models: 1, all: None, seed: 7 };
    for shape in [
        Shape { players: 0, ..base.clone() },
        base.clone(),
        Shape { items: 12, players: 1, per_player: 12, ..base.clone() },
        Shape { items: 12, players: 8, per_player: 12, all: Some(true), ..base.clone() },
        Shape { items: 12, players: 8, per_player: 12, all: Some(false), languages: 2, ..base.clone() },
    ] {
        let (tables, figures) = everything(&answers(&shape), shape.models);
        let bad: Vec<String> = tables.iter().flat_map(out_of_range).collect();
        assert!(bad.is_empty(), "{shape:?}:\n{}", bad.join("\n"));
        assert!(!figures.is_empty(), "{shape:?}: the figures are written even when empty");
        for figure in &figures {
            figure_ok(figure).unwrap_or_else(|e| panic!("{shape:?}: {e}"));
        }
    }
}
