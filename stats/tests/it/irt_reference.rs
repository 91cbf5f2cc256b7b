//! Item response theory by marginal maximum likelihood against girth 0.8 and against
//! the truth, on simulated answers shaped like the game's (fixtures/stats/
//! irt_simulation.json, made by fixtures/make_irt_simulation.py: an English-like and a
//! French-like case with a median of 9 answers per item and many easy items, and one
//! with exactly three answers per item). On the items our fit estimates:
//! - the 1PL's marginal log-likelihood is at least girth's at girth's parameters, less
//!   0.1 % (both measured by the same integral, [`marginal_log_likelihood`]); the 2PL,
//!   which has a prior on each discrimination (BILOG-MG's log-normal), reaches its
//!   objective, the marginal log-likelihood plus the log prior, at least as high as
//!   girth's `twopl_mml` parameters do, less 0.1 % (girth's own likelihood is higher:
//!   it drives discriminations with few answers to its bounds, and recovers them worse);
//! - our recovery of the truth is at least as good as the best of girth's MML and JML
//!   fits: Spearman's rho for difficulty, discrimination and ability no lower than the
//!   best by more than its standard error (Fieller's sqrt(1.06 / (n - 3)): on 144 items
//!   of three answers each, two sound estimators rank the truth 0.04 apart by chance),
//!   and the RMSE no more than 5 % above the best (not for the 1PL's difficulties:
//!   the answers come from the 2PL, so the 1PL's shared discrimination sets a scale of
//!   its own, and each fit's differs);
//! - no estimate sits at a bound, and every standard error is finite and positive.
//!
//! The figures are printed beside girth's.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::Path;

use gapwise_stats::correlation::spearman;
use gapwise_stats::irt::{fit, marginal_log_likelihood, slope_log_prior, Fit, Model, NoEstimate, A_MAX, A_MIN, MIN_ANSWERS};
use serde::Deserialize;

#[derive(Deserialize)]
struct Simulation {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    players: usize,
    items: usize,
    cells: Vec<(usize, usize, bool)>,
    truth: Parameters,
    girth_mml_1pl: OnePl,
    girth_mml_2pl: Parameters,
    girth_jml_1pl: OnePl,
    girth_jml_2pl: Parameters,
}

#[derive(Deserialize)]
struct Parameters {
    #[serde(default)]
    ability: Vec<f64>,
    #[serde(default)]
    ability_eap: Vec<f64>,
    discrimination: Vec<f64>,
    difficulty: Vec<f64>,
}

#[derive(Deserialize)]
struct OnePl {
    discrimination: f64,
    difficulty: Vec<f64>,
    #[serde(default)]
    ability_eap: Vec<f64>,
}

fn simulation() -> Simulation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/irt_simulation.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON")
}

/// Whether `ours` (rho, RMSE over `n` values) recovers the truth at least as well as
/// the best of `theirs` (see the module).
fn as_well(ours: (f64, f64), theirs: &[(f64, f64)], n: usize, rmse: bool) -> bool {
    let best_rho = theirs.iter().map(|t| t.0).fold(f64::NEG_INFINITY, f64::max);
    let best_rmse = theirs.iter().map(|t| t.1).fold(f64::INFINITY, f64::min);
    ours.0 >= best_rho - (1.06 / (n as f64 - 3.0)).sqrt() && (!rmse || ours.1 <= 1.05 * best_rmse)
}

/// Spearman's rho and the RMSE of `estimate` against `truth` at `at`.
fn recovery(truth: &[f64], estimate: &[f64], at: &[usize]) -> (f64, f64) {
    let (t, e): (Vec<f64>, Vec<f64>) = at.iter().map(|&i| (truth[i], estimate[i])).unzip();
    let rmse = (t.iter().zip(&e).map(|(t, e)| (t - e).powi(2)).sum::<f64>() / t.len() as f64).sqrt();
    (spearman(&t, &e).0, rmse)
}

fn estimated(fit: &Fit) -> Vec<usize> {
    (0..fit.items.len()).filter(|&i| fit.items[i].is_ok()).collect()
}

#[test]
fn marginal_fits_recover_the_truth_at_least_as_well_as_girth() {
    let simulation = simulation();
    assert_eq!(simulation.cases.len(), 3);
    for case in &simulation.cases {
        let one = fit(case.players, case.items, &case.cells, Model::OnePl);
        let two = fit(case.players, case.items, &case.cells, Model::TwoPl);
        assert!(one.converged && two.converged, "{}: converged", case.name);
        let truth = &case.truth;
        let line = |what: &str, ours: (f64, f64), theirs: &[(&str, (f64, f64))]| {
            let others: Vec<String> = theirs.iter().map(|(who, (rho, rmse))| format!("{who} {rho:.3} / {rmse:.3}")).collect();
            println!("{:13} {what:16} ours {:.3} / {:.3}; {}", case.name, ours.0, ours.1, others.join("; "));
        };

        // with three answers an item, no estimate (every item has too few)
        if estimated(&one).is_empty() && estimated(&two).is_empty() {
            let too_few = |fit: &Fit| {
                fit.items.iter().all(|i| matches!(i, Err(NoEstimate::TooFewAnswers(_) | NoEstimate::AllRight | NoEstimate::AllWrong)))
            };
            assert!(too_few(&one) && too_few(&two), "{}: no estimates, and why", case.name);
            println!("{:13} no item has {MIN_ANSWERS} answers", case.name);
            continue;
        }

        // the 1PL
        let at = estimated(&one);
        let (a1, b1) = one.parameters();
        let ours = recovery(&truth.difficulty, &b1, &at);
        let mml = recovery(&truth.difficulty, &case.girth_mml_1pl.difficulty, &at);
        let jml = recovery(&truth.difficulty, &case.girth_jml_1pl.difficulty, &at);
        line("difficulty 1PL", ours, &[("girth MML", mml), ("girth JML", jml)]);
        assert!(as_well(ours, &[mml, jml], at.len(), false), "{}: 1PL difficulty", case.name);
        let included: Vec<bool> = one.items.iter().map(Result::is_ok).collect();
        let girth_a = vec![case.girth_mml_1pl.discrimination; case.items];
        let theirs = marginal_log_likelihood(case.players, &case.cells, &girth_a, &case.girth_mml_1pl.difficulty, &included);
        let ours_ll = marginal_log_likelihood(case.players, &case.cells, &a1, &b1, &included);
        println!(
            "{:13} 1PL log-likelihood ours {ours_ll:.2}, girth's MML {theirs:.2} (JML's discrimination {:.2})",
            case.name, case.girth_jml_1pl.discrimination
        );
        assert!(ours_ll >= theirs - 1e-3 * theirs.abs(), "{}: 1PL likelihood {ours_ll} < girth's {theirs}", case.name);

        // the 2PL
        let at = estimated(&two);
        let (a2, b2) = two.parameters();
        for (what, t, ours, mml, jml) in [
            ("difficulty 2PL", &truth.difficulty, &b2, &case.girth_mml_2pl.difficulty, &case.girth_jml_2pl.difficulty),
            ("discrimination", &truth.discrimination, &a2, &case.girth_mml_2pl.discrimination, &case.girth_jml_2pl.discrimination),
        ] {
            let (o, m, j) = (recovery(t, ours, &at), recovery(t, mml, &at), recovery(t, jml, &at));
            line(what, o, &[("girth MML", m), ("girth JML", j)]);
            assert!(as_well(o, &[m, j], at.len(), true), "{}: {what}", case.name);
        }
        let included: Vec<bool> = two.items.iter().map(Result::is_ok).collect();
        let objective = |a: &[f64], b: &[f64]| {
            let ll = marginal_log_likelihood(case.players, &case.cells, a, b, &included);
            (ll, ll + at.iter().map(|&i| slope_log_prior(a[i])).sum::<f64>())
        };
        let (theirs_ll, theirs) = objective(&case.girth_mml_2pl.discrimination, &case.girth_mml_2pl.difficulty);
        let (ours_ll, ours) = objective(&a2, &b2);
        println!(
            "{:13} 2PL on our {} items: log-likelihood ours {ours_ll:.2}, girth's MML {theirs_ll:.2}; with the prior ours {ours:.2}, girth's {theirs:.2}",
            case.name,
            at.len()
        );
        assert!(ours >= theirs - 1e-3 * theirs.abs(), "{}: 2PL objective {ours} < girth's {theirs}", case.name);

        // abilities, EAP, of every player with an answer to an estimated item
        for (what, fit, girth) in
            [("ability 1PL", &one, &case.girth_mml_1pl.ability_eap), ("ability 2PL", &two, &case.girth_mml_2pl.ability_eap)]
        {
            let players: Vec<usize> = (0..case.players).filter(|&p| fit.abilities[p].is_ok()).collect();
            let eap: Vec<f64> = fit.abilities.iter().map(|a| a.map_or(f64::NAN, |a| a.eap)).collect();
            let (o, g) = (recovery(&truth.ability, &eap, &players), recovery(&truth.ability, girth, &players));
            line(what, o, &[("girth EAP", g)]);
            assert!(as_well(o, &[g], players.len(), true), "{}: {what}", case.name);
            assert!(fit.abilities.iter().flatten().all(|a| a.eap.is_finite() && a.se > 0.0 && a.se < 1.0));
        }

        // nothing at a bound, every standard error finite and positive
        for item in two.items.iter().flatten() {
            assert!(item.discrimination > A_MIN && item.discrimination < A_MAX, "{}: {item:?}", case.name);
            assert!(item.difficulty_se.is_finite() && item.difficulty_se > 0.0 && item.discrimination_se > 0.0, "{}: {item:?}", case.name);
        }
        for item in one.items.iter().flatten() {
            assert!(item.difficulty_se.is_finite() && item.difficulty_se > 0.0, "{}: {item:?}", case.name);
            assert!(item.infit.is_finite() && item.outfit.is_finite(), "{}: {item:?}", case.name);
        }
        let skipped = |fit: &Fit| fit.items.len() - estimated(fit).len();
        println!("{:13} items without an estimate: 1PL {}, 2PL {} of {}", case.name, skipped(&one), skipped(&two), case.items);
    }
}
