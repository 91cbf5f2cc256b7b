//! The item response theory's standard errors against the truth: on answers drawn with
//! known parameters in the game's shapes (fixtures/stats/irt_coverage.json, made by
//! fixtures/make_irt_coverage.py: English-like play with a median of 4 answers an item,
//! French-like with 7, and exactly 3 answers an item; each shape drawn 8 times from
//! the 1PL and 8 times from the 2PL), the 95 % intervals (estimate +- 1.96 SE) of the
//! estimated items' difficulties and discriminations, and of the respondents'
//! abilities, hold the true value 93-97 % of the time, per shape and model, with the
//! whole observed information inverted and with each item's own block (what a game
//! too large for the whole matrix gets). With 3 answers an item nothing is estimated
//! (each item says why). sd(z), the standard deviation of (estimate - truth) / SE,
//! is printed beside (1 when the SEs are the errors' size).
//!
//! And the observed information itself against a numerical Hessian of the same
//! marginal likelihood ([`marginal_log_likelihood`], plus the 2PL's prior on the
//! discriminations): the standard errors agree within 1 %.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::path::Path;

use gapwise_stats::irt::{fit, fit_with_information_limit, marginal_log_likelihood, slope_log_prior, Cell, Fit, Model, NoEstimate};
use nalgebra::DMatrix;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;

#[derive(Deserialize)]
struct Coverage {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    shape: String,
    model: String,
    players: usize,
    items: usize,
    /// (player * items + item) * 2 + right
    cells: Vec<usize>,
    ability: Vec<f64>,
    discrimination: Vec<f64>,
    difficulty: Vec<f64>,
}

impl Case {
    fn cells(&self) -> Vec<Cell> {
        self.cells.iter().map(|c| (c / 2 / self.items, (c / 2) % self.items, c % 2 == 1)).collect()
    }

    fn model(&self) -> Model {
        if self.model == "1PL" {
            Model::OnePl
        } else {
            Model::TwoPl
        }
    }
}

/// Intervals that held the truth, intervals, and the sum of squared z.
#[derive(Default, Clone, Copy)]
struct Held {
    held: usize,
    n: usize,
    z2: f64,
}

impl Held {
    fn add(&mut self, estimate: f64, se: f64, truth: f64) {
        let z = (estimate - truth) / se;
        self.held += usize::from(z.abs() <= 1.959964);
        self.n += 1;
        self.z2 += z * z;
    }

    fn share(&self) -> f64 {
        self.held as f64 / self.n as f64
    }

    fn cell(&self) -> String {
        format!("{:5.1} % {:5.2} ({:5})", 100.0 * self.share(), (self.z2 / self.n as f64).sqrt(), self.n)
    }
}

/// Per parameter kind (difficulty, discrimination, ability), what the intervals of
/// `fit` held of `case`'s truth.
fn held(case: &Case, fit: &Fit, into: &mut [Held; 3]) {
    for (i, item) in fit.items.iter().enumerate() {
        let Ok(item) = item else { continue };
        into[0].add(item.difficulty, item.difficulty_se, case.difficulty[i]);
        if item.discrimination_se.is_finite() {
            into[1].add(item.discrimination, item.discrimination_se, case.discrimination[i]);
        }
    }
    for (p, ability) in fit.abilities.iter().enumerate() {
        let Ok(ability) = ability else { continue };
        into[2].add(ability.eap, ability.se, case.ability[p]);
    }
}

#[test]
fn ninety_five_percent_intervals_hold_the_truth_ninety_five_percent_of_the_time() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/irt_coverage.json");
    let coverage: Coverage = serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON");
    assert!(coverage.cases.len() >= 6, "every shape and model");
    // (shape, model, information) -> held per kind
    let mut table: BTreeMap<(String, String, &str), [Held; 3]> = BTreeMap::new();
    for case in &coverage.cases {
        let cells = case.cells();
        for (information, limit) in [("whole", usize::MAX), ("blocks", 0)] {
            let fit = fit_with_information_limit(case.players, case.items, &cells, case.model(), limit);
            assert!(fit.converged, "{} {}: converged", case.shape, case.model);
            held(case, &fit, table.entry((case.shape.clone(), case.model.clone(), information)).or_default());
            // with three answers an item nothing is estimated, and each item says why
            // (fitted anyway, the 1PL's intervals held 78 % of the difficulties, 75 %
            // of the abilities: its discrimination ran to 2.4-5.6 for a truth of 1.3)
            if case.shape == "three-each" {
                assert!(fit
                    .items
                    .iter()
                    .all(|i| matches!(i, Err(NoEstimate::TooFewAnswers(_) | NoEstimate::AllRight | NoEstimate::AllWrong))));
            }
        }
    }
    eprintln!("coverage of the 95 % intervals, sd(z) and how many, over the replications:");
    eprintln!("{:13} {:3} {:6} | {:22} | {:22} | {:22}", "shape", "", "inform", "difficulty", "discrimination", "ability");
    let mut outside = Vec::new();
    for ((shape, model, information), kinds) in &table {
        let none = if shape == "three-each" { "n/a: 3 answers an item" } else { "n/a: shared" };
        let cells: Vec<String> = kinds.iter().map(|k| if k.n == 0 { format!("{none:22}") } else { k.cell() }).collect();
        eprintln!("{shape:13} {model:3} {information:6} | {} | {} | {}", cells[0], cells[1], cells[2]);
        for (kind, k) in ["difficulty", "discrimination", "ability"].iter().zip(kinds) {
            let expected = shape != "three-each" && (*kind != "discrimination" || model == "2PL");
            assert_eq!(k.n > 0, expected, "{shape} {model} {kind}: intervals only where estimates are");
            if k.n > 0 && !(0.93..=0.97).contains(&k.share()) {
                outside.push(format!("{shape} {model} {information} {kind}: {:.1} %", 100.0 * k.share()));
            }
        }
    }
    assert!(outside.is_empty(), "coverage outside 93-97 %: {outside:?}");
}

/// Answers of `players` respondents to every one of `items` 2PL items, drawn with a
/// fixed seed (the numerical check needs no truth, only a likelihood).
fn dense_answers(players: usize, items: usize) -> Vec<Cell> {
    let mut rng = StdRng::seed_from_u64(61);
    let truth: Vec<(f64, f64)> = (0..items).map(|i| (0.6 + 0.1 * i as f64, -1.5 + 3.0 * i as f64 / items as f64)).collect();
    let mut cells = Vec::new();
    for p in 0..players {
        let theta: f64 = (0..12).map(|_| rng.gen::<f64>()).sum::<f64>() - 6.0;
        for (i, (a, b)) in truth.iter().enumerate() {
            let right = rng.gen::<f64>() < 1.0 / (1.0 + (-a * (theta - b)).exp());
            cells.push((p, i, right));
        }
    }
    cells
}

#[test]
fn the_observed_information_is_the_likelihoods_numerical_hessian() {
    let (players, items) = (300, 8);
    let cells = dense_answers(players, items);
    let included = vec![true; items];
    for model in [Model::OnePl, Model::TwoPl] {
        let fit = fit(players, items, &cells, model);
        let estimates: Vec<_> = fit.items.iter().map(|i| *i.as_ref().expect("every item estimated")).collect();
        // the parameters as one vector: the 2PL's (a_i, b_i), the 1PL's (a, b_1..b_n)
        let x: Vec<f64> = match model {
            Model::TwoPl => estimates.iter().flat_map(|i| [i.discrimination, i.difficulty]).collect(),
            Model::OnePl => std::iter::once(estimates[0].discrimination).chain(estimates.iter().map(|i| i.difficulty)).collect(),
        };
        let objective = |x: &[f64]| -> f64 {
            let (a, b): (Vec<f64>, Vec<f64>) = match model {
                Model::TwoPl => x.chunks(2).map(|p| (p[0], p[1])).unzip(),
                Model::OnePl => x[1..].iter().map(|&b| (x[0], b)).unzip(),
            };
            let prior = if model == Model::TwoPl { a.iter().map(|&a| slope_log_prior(a)).sum() } else { 0.0 };
            marginal_log_likelihood(players, &cells, &a, &b, &included) + prior
        };
        let (n, h) = (x.len(), 1e-3);
        let at = |moves: &[(usize, f64)]| {
            let mut y = x.clone();
            for &(k, d) in moves {
                y[k] += d;
            }
            objective(&y)
        };
        let information = DMatrix::from_fn(n, n, |u, v| {
            let f = |du: f64, dv: f64| at(&[(u, du), (v, dv)]);
            -(f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4.0 * h * h)
        });
        let variance = information.try_inverse().expect("the numerical information is invertible").diagonal();
        for (i, item) in estimates.iter().enumerate() {
            let (ra, rb) = match model {
                Model::TwoPl => (2 * i, 2 * i + 1),
                Model::OnePl => (0, i + 1),
            };
            let close = |ours: f64, numerical: f64| (ours / numerical - 1.0).abs() < 0.01;
            assert!(
                close(item.difficulty_se, variance[rb].sqrt()),
                "{model:?} item {i}: difficulty SE {} vs numerical {}",
                item.difficulty_se,
                variance[rb].sqrt()
            );
            if model == Model::TwoPl {
                assert!(
                    close(item.discrimination_se, variance[ra].sqrt()),
                    "item {i}: discrimination SE {} vs {}",
                    item.discrimination_se,
                    variance[ra].sqrt()
                );
            }
        }
    }
}
