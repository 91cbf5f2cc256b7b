//! Item response theory against girth's joint maximum likelihood fits and its
//! maximum likelihood abilities, on committed answers with a third of the cells
//! missing (fixtures/stats/irt.json, made by fixtures/make_irt_reference.py).
//! Stated tolerance on each difficulty, discrimination and ability: 1e-4 for the
//! 1PL (measured: 8e-6) and 0.01 for the 2PL (measured: 0.004; girth's SLSQP stops
//! when no difficulty moved by 1e-3 in an iteration, this fit goes on to 1e-6);
//! and a rank correlation of at least 0.99 for difficulties and for abilities. On
//! answers shaped like the game's (fixtures/stats/irt_sparse.json, made by
//! fixtures/make_irt_sparse_reference.py) the 2PL's joint likelihood is held to
//! girth's.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use gapwise_stats::correlation::spearman;
use gapwise_stats::irt::{fit, Fit, Model, MIN_ANSWERS};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    model: String,
    people: usize,
    items: usize,
    cells: Vec<(usize, usize, bool)>,
    difficulty: Vec<f64>,
    discrimination: Vec<f64>,
    ability: Vec<Option<f64>>,
}

#[test]
fn one_and_two_parameter_fits_match_girth() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/irt.json");
    let reference: Reference = serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON");
    assert_eq!(reference.cases.len(), 2);
    for case in reference.cases {
        let model = if case.model == "1pl" { Model::OnePl } else { Model::TwoPl };
        let ours = fit(case.people, case.items, &case.cells, model);
        let tolerance = if model == Model::OnePl { 1e-4 } else { 0.01 };
        for (i, (b, theirs)) in ours.difficulty.iter().zip(&case.difficulty).enumerate() {
            assert!((b - theirs).abs() <= tolerance, "{} item {i}: difficulty {b}, girth {theirs}", case.model);
        }
        for (i, (a, theirs)) in ours.discrimination.iter().zip(&case.discrimination).enumerate() {
            assert!((a - theirs).abs() <= tolerance, "{} item {i}: discrimination {a}, girth {theirs}", case.model);
        }
        assert!(spearman(&ours.difficulty, &case.difficulty).0 >= 0.99, "{}: difficulty ranks", case.model);
        // abilities read off the fitted items, for those girth estimates
        let mut answers = vec![Vec::new(); case.people];
        for &(p, i, right) in &case.cells {
            answers[p].push((i, right));
        }
        let (mut mine, mut girths) = (Vec::new(), Vec::new());
        for (p, theirs) in case.ability.iter().enumerate() {
            let Some(theirs) = theirs else { continue };
            let theta = ours.ability(&answers[p]);
            assert!((theta - theirs).abs() <= tolerance, "{} respondent {p}: ability {theta}, girth {theirs}", case.model);
            mine.push(theta);
            girths.push(*theirs);
        }
        assert!(mine.len() > case.people * 9 / 10, "{}: girth estimated most abilities", case.model);
        assert!(spearman(&mine, &girths).0 >= 0.99, "{}: ability ranks", case.model);
    }
}

#[derive(Deserialize)]
struct Sparse {
    min_answers: usize,
    cases: Vec<SparseCase>,
}

#[derive(Deserialize)]
struct SparseCase {
    name: String,
    people: usize,
    items: usize,
    cells: Vec<(usize, usize, bool)>,
    identified: Vec<usize>,
    difficulty: Vec<f64>,
    discrimination: Vec<f64>,
    nll: f64,
}

/// The joint negative log-likelihood of `cells` on the items `fit` estimated, each
/// respondent at the ability that best explains their answers to them (the
/// criterion of fixtures/make_irt_sparse_reference.py).
fn profile_nll(fit: &Fit, people: usize, cells: &[(usize, usize, bool)]) -> f64 {
    let mut answers = vec![Vec::new(); people];
    for &(p, i, right) in cells.iter().filter(|c| fit.estimated[c.1]) {
        answers[p].push((i, right));
    }
    answers
        .iter()
        .filter(|a| !a.is_empty())
        .map(|a| {
            let theta = fit.ability(a);
            a.iter()
                .map(|&(i, right)| {
                    let z = fit.discrimination[i] * (theta - fit.difficulty[i]);
                    let z = if right { -z } else { z };
                    z.max(0.0) + (-z.abs()).exp().ln_1p()
                })
                .sum::<f64>()
        })
        .sum()
}

/// Answers shaped like the game's (median 9-10 answers per item, a fifth of the
/// items all right, 180-272 players): the 2PL estimates exactly the items the data
/// identify, reaches a joint likelihood no worse than girth's `twopl_jml` (by 0.1 %
/// at most), and orders the items' difficulties as girth does (rank correlation
/// at least 0.95).
#[test]
fn the_two_parameter_fit_holds_on_sparse_skewed_answers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/irt_sparse.json");
    let reference: Sparse = serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON");
    assert_eq!(reference.min_answers, MIN_ANSWERS, "the fixture's rule is the fit's");
    assert_eq!(reference.cases.len(), 2);
    for case in reference.cases {
        let ours = fit(case.people, case.items, &case.cells, Model::TwoPl);
        let estimated: Vec<usize> = (0..case.items).filter(|&i| ours.estimated[i]).collect();
        assert_eq!(estimated, case.identified, "{}: the items the 2PL estimates", case.name);
        for i in (0..case.items).filter(|&i| !ours.estimated[i]) {
            assert!(ours.difficulty[i].is_nan() && ours.discrimination[i].is_nan(), "{} item {i}: no estimate", case.name);
        }
        let girth = Fit {
            difficulty: case.difficulty.clone(),
            difficulty_se: Vec::new(),
            discrimination: case.discrimination.clone(),
            ability: Vec::new(),
            fitted: Vec::new(),
            estimated: ours.estimated.clone(),
            iterations: 0,
        };
        let theirs = profile_nll(&girth, case.people, &case.cells);
        assert!((theirs - case.nll).abs() <= 1e-4 * case.nll, "{}: girth's likelihood here {theirs}, in scipy {}", case.name, case.nll);
        let mine = profile_nll(&ours, case.people, &case.cells);
        eprintln!("{}: -log L {mine:.2} (girth {theirs:.2}), {} iterations", case.name, ours.iterations);
        assert!(mine <= case.nll * 1.001, "{}: -log L {mine}, girth {}", case.name, case.nll);
        let (b, theirs_b): (Vec<f64>, Vec<f64>) = case.identified.iter().map(|&i| (ours.difficulty[i], case.difficulty[i])).unzip();
        let rho = spearman(&b, &theirs_b).0;
        assert!(rho >= 0.95, "{}: difficulty ranks {rho}", case.name);
    }
}
