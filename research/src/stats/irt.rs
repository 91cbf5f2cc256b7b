//! Item response theory: item difficulty (and discrimination) and respondent
//! ability from right/wrong answers, by joint maximum likelihood, the method of
//! girth's `onepl_jml` / `twopl_jml` (checked against them by
//! research/fixtures/make_irt_reference.py).
//!
//! P(right) = 1 / (1 + exp(-a_i (theta_p - b_i))). Cells a respondent did not
//! answer are skipped (most players see few items). Respondents with every
//! observed answer right, or every one wrong, carry no information on the items and
//! are left out of the fit; their ability, like a model's, is then read off the
//! fitted items ([`Fit::ability`]), at the bound when they got all right or all
//! wrong. Abilities are on the scale of the respondents fitted (mean 0, standard
//! deviation 1); difficulties lie in [-6, 6], discriminations in [0.25, 4] (2PL) or
//! [0.25, 5] (1PL, one for all items), as girth bounds them.

use std::collections::BTreeMap;

/// Which model to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// One discrimination shared by every item (the 1PL).
    OnePl,
    /// A discrimination per item (the 2PL).
    TwoPl,
}

/// One answer: respondent, item, right or wrong.
pub type Cell = (usize, usize, bool);

/// A fitted model.
#[derive(Clone, Debug)]
pub struct Fit {
    pub difficulty: Vec<f64>,
    /// The standard error of each difficulty (from its Fisher information at the
    /// fitted abilities); infinite for an item no fitted respondent answered.
    pub difficulty_se: Vec<f64>,
    pub discrimination: Vec<f64>,
    /// Each respondent's ability: fitted, or read off the items (see the module).
    pub ability: Vec<f64>,
    /// Whether the respondent took part in the fit.
    pub fitted: Vec<bool>,
    pub iterations: usize,
}

const THETA_BOUND: f64 = 6.0;
const B_BOUND: f64 = 6.0;
const A_MIN: f64 = 0.25;
/// Stops when no difficulty moved by more than this in an iteration.
const TOLERANCE: f64 = 1e-6;
const MAX_ITERATIONS: usize = 500;

/// The negative log-likelihood of one answer, and its first two derivatives in z
/// = a (theta - b): -ln P(right) or -ln P(wrong).
fn loss(right: bool, z: f64) -> (f64, f64, f64) {
    let s = if right { -1.0 } else { 1.0 };
    let p = 1.0 / (1.0 + (-s * z).exp()); // sigmoid(s z)
    ((s * z).exp().ln_1p(), s * p, p * (1.0 - p))
}

/// The minimum over [lo, hi] of a convex function of one variable given by its
/// value, first and second derivative: Newton steps, kept inside the interval and
/// halved until the value falls.
fn minimize_1d(f: impl Fn(f64) -> (f64, f64, f64), start: f64, lo: f64, hi: f64) -> f64 {
    let mut x = start.clamp(lo, hi);
    let (mut value, mut d1, mut d2) = f(x);
    for _ in 0..100 {
        let step = if d2 > 1e-12 { d1 / d2 } else { d1.signum() * (hi - lo) / 8.0 };
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-6 {
            let next = (x - t * step).clamp(lo, hi);
            let (v, g, h) = f(next);
            if v <= value {
                moved = (next - x).abs() > 1e-12;
                (x, value, d1, d2) = (next, v, g, h);
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
    }
    x
}

/// The ability within +-`bound` that best explains `answers` (item, right) given
/// the items' discriminations `a` and difficulties `b`, searched from `start`.
pub(crate) fn theta_for(answers: &[(usize, bool)], a: &[f64], b: &[f64], start: f64, bound: f64) -> f64 {
    let f = |theta: f64| {
        answers.iter().fold((0.0, 0.0, 0.0), |(v, g, h), &(i, right)| {
            let (l, d1, d2) = loss(right, a[i] * (theta - b[i]));
            (v + l, g + d1 * a[i], h + d2 * a[i] * a[i])
        })
    };
    minimize_1d(f, start, -bound, bound)
}

/// The difficulty of one item with discrimination `a`, given abilities: its value too.
fn b_for(answers: &[(usize, bool)], theta: &[f64], a: f64, start: f64) -> (f64, f64) {
    let f = |b: f64| {
        answers.iter().fold((0.0, 0.0, 0.0), |(v, g, h), &(p, right)| {
            let (l, d1, d2) = loss(right, a * (theta[p] - b));
            (v + l, g - d1 * a, h + d2 * a * a)
        })
    };
    let b = minimize_1d(f, start, -B_BOUND, B_BOUND);
    (b, f(b).0)
}

/// The 2PL parameters of one item given abilities: a logistic regression of its
/// answers on ability (convex in a and c = -a b), kept within the bounds.
fn ab_for(answers: &[(usize, bool)], theta: &[f64], start: (f64, f64)) -> (f64, f64) {
    let (mut a, mut c) = (start.0, -start.0 * start.1);
    let value = |a: f64, c: f64| answers.iter().map(|&(p, right)| loss(right, a * theta[p] + c).0).sum::<f64>();
    let mut current = value(a, c);
    for _ in 0..100 {
        let (mut ga, mut gc, mut haa, mut hac, mut hcc) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(p, right) in answers {
            let (_, d1, d2) = loss(right, a * theta[p] + c);
            ga += d1 * theta[p];
            gc += d1;
            haa += d2 * theta[p] * theta[p];
            hac += d2 * theta[p];
            hcc += d2;
        }
        let det = haa * hcc - hac * hac;
        if det.abs() < 1e-12 {
            break;
        }
        let (sa, sc) = ((hcc * ga - hac * gc) / det, (haa * gc - hac * ga) / det);
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-6 {
            let (na, nc) = (a - t * sa, c - t * sc);
            let v = value(na, nc);
            if v <= current {
                moved = (na - a).abs() + (nc - c).abs() > 1e-12;
                (a, c, current) = (na, nc, v);
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
    }
    let a_max = 4.0;
    if (A_MIN..=a_max).contains(&a) && (-c / a).abs() <= B_BOUND {
        return (a, -c / a);
    }
    let a = a.clamp(A_MIN, a_max);
    (a, b_for(answers, theta, a, -c / a).0)
}

/// Golden-section search for the minimum of a unimodal `f` on [lo, hi].
fn golden(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (lo, hi);
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    while hi - lo > 1e-7 {
        if f1 <= f2 {
            (hi, x2, f2) = (x2, x1, f1);
            x1 = hi - r * (hi - lo);
            f1 = f(x1);
        } else {
            (lo, x1, f1) = (x1, x2, f2);
            x2 = lo + r * (hi - lo);
            f2 = f(x2);
        }
    }
    (lo + hi) / 2.0
}

/// Answers as the fit reads them: respondents and items numbered in order.
pub struct Numbered<K> {
    pub players: usize,
    /// The items' keys, by number.
    pub items: Vec<K>,
    pub cells: Vec<Cell>,
    /// Answers per item.
    pub answered: Vec<usize>,
}

/// (respondent, item key, right) numbered for [`fit`], in the order met.
pub fn numbered<'a, K: Ord + Clone>(answers: impl IntoIterator<Item = (&'a str, K, bool)>) -> Numbered<K> {
    let (mut players, mut items): (BTreeMap<&str, usize>, BTreeMap<K, usize>) = (BTreeMap::new(), BTreeMap::new());
    let mut keys = Vec::new();
    let mut answered: Vec<usize> = Vec::new();
    let cells = answers
        .into_iter()
        .map(|(who, item, right)| {
            let next = players.len();
            let p = *players.entry(who).or_insert(next);
            let i = *items.entry(item.clone()).or_insert_with(|| {
                keys.push(item);
                answered.push(0);
                keys.len() - 1
            });
            if let Some(n) = answered.get_mut(i) {
                *n += 1;
            }
            (p, i, right)
        })
        .collect();
    Numbered { players: players.len(), items: keys, cells, answered }
}

/// Fits `model` to `cells` of `respondents` respondents and `items` items (see the
/// module). Cells naming a respondent or item out of range are ignored.
pub fn fit(respondents: usize, items: usize, cells: &[Cell], model: Model) -> Fit {
    let mut by_person: Vec<Vec<(usize, bool)>> = vec![Vec::new(); respondents];
    for &(p, i, right) in cells.iter().filter(|&&(p, i, _)| p < respondents && i < items) {
        by_person[p].push((i, right));
    }
    let fitted: Vec<bool> = by_person.iter().map(|a| a.iter().any(|x| x.1) && a.iter().any(|x| !x.1)).collect();
    let mut by_item: Vec<Vec<(usize, bool)>> = vec![Vec::new(); items];
    for (p, answers) in by_person.iter().enumerate().filter(|(p, _)| fitted[*p]) {
        for &(i, right) in answers {
            by_item[i].push((p, right));
        }
    }
    // start as girth does: difficulties from the share of wrong answers (all respondents)
    let mut counts = vec![(0.0f64, 0.0f64); items];
    for answers in &by_person {
        for &(i, right) in answers {
            if right { counts[i].1 += 1.0 } else { counts[i].0 += 1.0 }
        }
    }
    let mut a = vec![1.0; items];
    let mut b: Vec<f64> = counts
        .iter()
        .map(|&(no, yes)| ((4.0f64 / 3.0).sqrt() * (no.max(0.5) / yes.max(0.5)).ln()).clamp(-B_BOUND, B_BOUND))
        .collect();
    let mut theta = vec![0.0; respondents];
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let before = b.clone();
        for p in (0..respondents).filter(|&p| fitted[p]) {
            theta[p] = theta_for(&by_person[p], &a, &b, theta[p], THETA_BOUND);
        }
        standardize(&mut theta, &fitted);
        match model {
            Model::TwoPl => {
                for i in 0..items {
                    if !by_item[i].is_empty() {
                        (a[i], b[i]) = ab_for(&by_item[i], &theta, (a[i], b[i]));
                    }
                }
            }
            Model::OnePl => {
                let cost = |shared: f64| {
                    (0..items).filter(|&i| !by_item[i].is_empty()).map(|i| b_for(&by_item[i], &theta, shared, b[i]).1).sum::<f64>()
                };
                let shared = golden(cost, A_MIN, 5.0);
                for i in 0..items {
                    a[i] = shared;
                    if !by_item[i].is_empty() {
                        b[i] = b_for(&by_item[i], &theta, shared, b[i]).0;
                    }
                }
            }
        }
        if b.iter().zip(&before).all(|(x, y)| (x - y).abs() < TOLERANCE) {
            break;
        }
    }
    for p in (0..respondents).filter(|&p| !fitted[p]) {
        theta[p] = if by_person[p].is_empty() { f64::NAN } else { theta_for(&by_person[p], &a, &b, 0.0, THETA_BOUND) };
    }
    let difficulty_se = (0..items)
        .map(|i| {
            let information: f64 = by_item[i].iter().map(|&(p, right)| a[i] * a[i] * loss(right, a[i] * (theta[p] - b[i])).2).sum();
            1.0 / information.sqrt()
        })
        .collect();
    Fit { difficulty: b, difficulty_se, discrimination: a, ability: theta, fitted, iterations }
}

impl Fit {
    /// The ability of a respondent who was not fitted (a model: its answers are the
    /// signs of its Eq. 2 scores), on the fitted respondents' scale.
    pub fn ability(&self, answers: &[(usize, bool)]) -> f64 {
        let known: Vec<(usize, bool)> = answers.iter().copied().filter(|&(i, _)| i < self.difficulty.len()).collect();
        if known.is_empty() {
            return f64::NAN;
        }
        theta_for(&known, &self.discrimination, &self.difficulty, 0.0, THETA_BOUND)
    }
}

/// Mean 0 and standard deviation 1 (n - 1) over the fitted respondents.
fn standardize(theta: &mut [f64], fitted: &[bool]) {
    let values: Vec<f64> = theta.iter().zip(fitted).filter(|(_, &f)| f).map(|(t, _)| *t).collect();
    if values.len() < 2 {
        return;
    }
    let mean = super::mean(&values);
    let sd = (values.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (values.len() - 1) as f64).sqrt();
    if sd == 0.0 {
        return;
    }
    for (t, _) in theta.iter_mut().zip(fitted).filter(|(_, &f)| f) {
        *t = (*t - mean) / sd;
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::stats::correlation::spearman;

    /// 200 simulated players of known ability, each answering 30 of 40 items of known
    /// difficulty (and discrimination, for the 2PL): the fit recovers the order.
    #[test]
    fn fitted_difficulties_recover_simulated_ones() {
        let mut rng = StdRng::seed_from_u64(29);
        let (players, items) = (200, 40);
        let ability: Vec<f64> = (0..players).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let difficulty: Vec<f64> = (0..items).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let discrimination: Vec<f64> = (0..items).map(|_| rng.gen_range(0.6..2.0)).collect();
        for model in [Model::OnePl, Model::TwoPl] {
            let mut cells = Vec::new();
            for (p, theta) in ability.iter().enumerate() {
                for i in 0..items {
                    if rng.gen_bool(0.75) {
                        let a = if model == Model::TwoPl { discrimination[i] } else { 1.0 };
                        let right = rng.gen_bool(1.0 / (1.0 + (-a * (theta - difficulty[i])).exp()));
                        cells.push((p, i, right));
                    }
                }
            }
            let fit = fit(players, items, &cells, model);
            let rho = spearman(&fit.difficulty, &difficulty).0;
            assert!(rho >= 0.9, "{model:?}: difficulties rho {rho}");
            let fitted: Vec<usize> = (0..players).filter(|&p| fit.fitted[p]).collect();
            let theta: Vec<f64> = fitted.iter().map(|&p| fit.ability[p]).collect();
            let truth: Vec<f64> = fitted.iter().map(|&p| ability[p]).collect();
            assert!(spearman(&theta, &truth).0 >= 0.8, "{model:?}: abilities");
            assert!(fit.difficulty_se.iter().all(|se| se.is_finite() && *se > 0.0));
        }
    }

    #[test]
    fn a_respondent_with_every_answer_right_is_read_off_the_items_at_the_top() {
        let cells = vec![(0, 0, true), (0, 1, false), (1, 0, false), (1, 1, true), (2, 0, true), (2, 1, true), (3, 0, false), (3, 1, false)];
        let fit = fit(4, 2, &cells, Model::OnePl);
        assert_eq!(fit.fitted, vec![true, true, false, false]);
        assert!(fit.ability[2] > fit.ability[0] && fit.ability[3] < fit.ability[1]);
        assert!(fit.ability(&[(0, true), (1, true)]) > fit.ability(&[(0, false), (1, true)]));
    }
}
