//! Item response theory: item difficulty (and discrimination) and respondent
//! ability from right/wrong answers, by joint maximum likelihood, the method of
//! girth's `onepl_jml` / `twopl_jml` (checked against them by
//! stats/fixtures/make_irt_reference.py).
//!
//! P(right) = 1 / (1 + exp(-a_i (theta_p - b_i))). Cells a respondent did not
//! answer are skipped (most players see few items). Respondents with every
//! observed answer right, or every one wrong, carry no information on the items and
//! are left out of the fit; their ability, like a model's, is then read off the
//! fitted items ([`Fit::ability`]), at the bound when they got all right or all
//! wrong. Abilities are on the scale of the respondents fitted (mean 0, standard
//! deviation 1); difficulties lie in [-6, 6], discriminations in [0.25, 4] (2PL) or
//! [0.25, 5] (1PL, one for all items), as girth bounds them.
//!
//! The game's answers are sparse (most items have 3 to 15 answers) and skewed
//! (many items everyone got right). The 2PL cannot tell apart the parameters of
//! an item with few answers, or with every answer right or every one wrong: those
//! get no 2PL estimate ([`Fit::estimated`]), though their answers still place the
//! players in the fit. Each step of the fit is a convex problem solved to its
//! global minimum within the bounds (an ability, a 1PL difficulty, a 2PL item in (a, -a b)), so the fit
//! reaches a joint likelihood at least as good as girth's `twopl_jml` on such data
//! (stats/fixtures/make_irt_sparse_reference.py).

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
    /// Whether the item was estimated: by the 1PL when a fitted respondent answered
    /// it; by the 2PL when at least [`MIN_ANSWERS`] fitted respondents did, with
    /// right and wrong answers among them. The 2PL's other items have no
    /// difficulty or discrimination (NaN), rather than a value at a bound that
    /// the data cannot tell from any other.
    pub estimated: Vec<bool>,
    pub iterations: usize,
}

const THETA_BOUND: f64 = 6.0;
const B_BOUND: f64 = 6.0;
const A_MIN: f64 = 0.25;
const A_MAX: f64 = 4.0;
/// Answers from fitted respondents an item needs before the 2PL estimates it.
pub const MIN_ANSWERS: usize = 5;
/// Stops when no difficulty or discrimination moved by more than this in an iteration.
const TOLERANCE: f64 = 1e-6;
const MAX_ITERATIONS: usize = 500;

/// The negative log-likelihood of one answer, and its first two derivatives in z
/// = a (theta - b): -ln P(right) or -ln P(wrong).
fn loss(right: bool, z: f64) -> (f64, f64, f64) {
    let s = if right { -1.0 } else { 1.0 };
    let p = 1.0 / (1.0 + (-s * z).exp()); // sigmoid(s z)
    ((s * z).exp().ln_1p(), s * p, p * (1.0 - p))
}

/// The minimum over [lo, hi] of a convex function of one variable, given by its
/// value and first two derivatives at a point: Newton steps inside the bracket
/// that the derivative's sign narrows, a bisection when a step would leave it
/// (curvature can be as small as e^-20 where the answers are all explained, so a
/// bare Newton step there jumps across the interval). A bound is tried as soon as
/// a step points past it, so a minimum on the boundary costs two evaluations.
fn minimize_convex(f: impl Fn(f64) -> (f64, f64, f64), start: f64, lo: f64, hi: f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    let (mut tried_lo, mut tried_hi) = (false, false);
    let mut x = start.clamp(lo, hi);
    for _ in 0..200 {
        let (_, slope, curvature) = f(x);
        if slope > 0.0 {
            hi = x;
        } else if slope < 0.0 {
            lo = x;
        } else {
            return x;
        }
        let newton = x - slope / curvature;
        let next = if curvature > 0.0 && newton > lo && newton < hi {
            newton
        } else if newton >= hi && !tried_hi {
            tried_hi = true;
            hi
        } else if newton <= lo && !tried_lo {
            tried_lo = true;
            lo
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-12 * (1.0 + x.abs()) {
            return next;
        }
        x = next;
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
    minimize_convex(f, start, -bound, bound)
}

/// The difficulty of one item with discrimination `a`, given abilities: its value too.
fn b_for(answers: &[(usize, bool)], theta: &[f64], a: f64, start: f64) -> (f64, f64) {
    let f = |b: f64| {
        answers.iter().fold((0.0, 0.0, 0.0), |(v, g, h), &(p, right)| {
            let (l, d1, d2) = loss(right, a * (theta[p] - b));
            (v + l, g - d1 * a, h + d2 * a * a)
        })
    };
    let b = minimize_convex(f, start, -B_BOUND, B_BOUND);
    (b, f(b).0)
}

/// One item's negative log-likelihood in the 2PL's convex form, z = a theta + c
/// (c = -a b), with its gradient and Hessian in (a, c): (value, [ga, gc], [haa, hac, hcc]).
fn item_loss(answers: &[(usize, bool)], theta: &[f64], a: f64, c: f64) -> (f64, [f64; 2], [f64; 3]) {
    answers.iter().fold((0.0, [0.0; 2], [0.0; 3]), |(v, g, h), &(p, right)| {
        let t = theta[p];
        let (l, d1, d2) = loss(right, a * t + c);
        (v + l, [g[0] + d1 * t, g[1] + d1], [h[0] + d2 * t * t, h[1] + d2 * t, h[2] + d2])
    })
}

/// The 2PL parameters (a, b) of one item given abilities: the minimum of its
/// negative log-likelihood over a in [A_MIN, A_MAX] and b in [-B_BOUND, B_BOUND].
/// In (a, c = -a b) the likelihood is a logistic regression's, convex, and the
/// bounds are a convex region (A_MIN <= a <= A_MAX, |c| <= B_BOUND a), so the
/// minimum is the global one. Found by Newton's method when it lies inside the
/// bounds; otherwise (answers that ability separates, whose unbounded maximum is
/// at infinite slope) by a golden-section search over a of the minimum over c,
/// which is convex in a as the partial minimum of a convex function.
fn ab_for(answers: &[(usize, bool)], theta: &[f64], start: (f64, f64)) -> (f64, f64) {
    if let Some((a, c)) = newton_ab(answers, theta, (start.0, -start.0 * start.1)) {
        if (A_MIN..=A_MAX).contains(&a) && c.abs() <= B_BOUND * a {
            return (a, -c / a);
        }
    }
    let c_for = |a: f64| {
        let f = |c: f64| {
            let (v, g, h) = item_loss(answers, theta, a, c);
            (v, g[1], h[2])
        };
        let c = minimize_convex(f, -a * start.1, -B_BOUND * a, B_BOUND * a);
        (c, f(c).0)
    };
    // The slope of the profile at a, along c's bound when c sits on it. Separated
    // answers put the minimum at a = A_MAX, where the slope is negative: two
    // inner minimisations then settle the item instead of a search.
    let slope = |a: f64, c: f64| {
        let (_, g, _) = item_loss(answers, theta, a, c);
        let along = if c >= B_BOUND * a {
            B_BOUND
        } else if c <= -B_BOUND * a {
            -B_BOUND
        } else {
            0.0
        };
        g[0] + along * g[1]
    };
    for (a, settled) in [(A_MAX, -1.0), (A_MIN, 1.0)] {
        let c = c_for(a).0;
        if slope(a, c) * settled >= 0.0 {
            return (a, -c / a);
        }
    }
    let a = golden(|a| c_for(a).1, A_MIN, A_MAX);
    (a, -c_for(a).0 / a)
}

/// The unconstrained minimum of an item's negative log-likelihood in (a, c) by
/// damped Newton steps from `start`; None when there is none to find (the Hessian
/// turns singular or the steps run off towards infinite slope).
fn newton_ab(answers: &[(usize, bool)], theta: &[f64], start: (f64, f64)) -> Option<(f64, f64)> {
    let (mut a, mut c) = start;
    let (mut value, mut g, mut h) = item_loss(answers, theta, a, c);
    for _ in 0..50 {
        let det = h[0] * h[2] - h[1] * h[1];
        if det <= 1e-12 * (h[0] * h[2]).max(1e-300) {
            return None;
        }
        let (sa, sc) = ((h[2] * g[0] - h[1] * g[1]) / det, (h[0] * g[1] - h[1] * g[0]) / det);
        // the Newton decrement: the fall the quadratic model promises
        if g[0] * sa + g[1] * sc < 1e-14 * (1.0 + value) {
            return Some((a, c));
        }
        let mut t = 1.0;
        loop {
            let (na, nc) = (a - t * sa, c - t * sc);
            let (v, ng, nh) = item_loss(answers, theta, na, nc);
            if v <= value {
                (a, c, value, g, h) = (na, nc, v, ng, nh);
                break;
            }
            t /= 2.0;
            if t < 1e-10 {
                return None;
            }
        }
        if a.abs() > 4.0 * A_MAX {
            return None;
        }
    }
    None
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
    let fitted: Vec<bool> = by_person.iter().map(|a| mixed(a)).collect();
    let mut by_item: Vec<Vec<(usize, bool)>> = vec![Vec::new(); items];
    for (p, answers) in by_person.iter().enumerate().filter(|(p, _)| fitted[*p]) {
        for &(i, right) in answers {
            by_item[i].push((p, right));
        }
    }
    // Every item a fitted respondent answered takes part in the fit, as in girth:
    // its answers place the respondents. The 2PL reports only the items it can
    // identify; without the others' answers the abilities, and through them the
    // identified items, fit worse (0.3 % of the joint likelihood on the sparse
    // fixture).
    let answered: Vec<bool> = by_item.iter().map(|a| !a.is_empty()).collect();
    let estimated: Vec<bool> = match model {
        Model::OnePl => answered.clone(),
        Model::TwoPl => by_item.iter().map(|answers| answers.len() >= MIN_ANSWERS && mixed(answers)).collect(),
    };
    // start as girth does: difficulties from the share of wrong answers (all respondents)
    let mut counts = vec![(0.0f64, 0.0f64); items];
    for answers in &by_person {
        for &(i, right) in answers {
            if right {
                counts[i].1 += 1.0
            } else {
                counts[i].0 += 1.0
            }
        }
    }
    let mut a = vec![1.0; items];
    let mut b: Vec<f64> =
        counts.iter().map(|&(no, yes)| ((4.0f64 / 3.0).sqrt() * (no.max(0.5) / yes.max(0.5)).ln()).clamp(-B_BOUND, B_BOUND)).collect();
    let mut theta = vec![0.0; respondents];
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let before = (a.clone(), b.clone());
        for p in (0..respondents).filter(|&p| fitted[p]) {
            theta[p] = theta_for(&by_person[p], &a, &b, theta[p], THETA_BOUND);
        }
        standardize(&mut theta, &fitted);
        match model {
            Model::TwoPl => {
                for i in (0..items).filter(|&i| answered[i]) {
                    (a[i], b[i]) = ab_for(&by_item[i], &theta, (a[i], b[i]));
                }
            }
            Model::OnePl => {
                let cost =
                    |shared: f64| (0..items).filter(|&i| answered[i]).map(|i| b_for(&by_item[i], &theta, shared, b[i]).1).sum::<f64>();
                let shared = golden(cost, A_MIN, 5.0);
                for i in 0..items {
                    a[i] = shared;
                    if answered[i] {
                        b[i] = b_for(&by_item[i], &theta, shared, b[i]).0;
                    }
                }
            }
        }
        let moved = |now: &[f64], was: &[f64]| now.iter().zip(was).any(|(x, y)| (x - y).abs() >= TOLERANCE);
        if !moved(&a, &before.0) && !moved(&b, &before.1) {
            break;
        }
    }
    if model == Model::TwoPl {
        for i in (0..items).filter(|&i| !estimated[i]) {
            (a[i], b[i]) = (f64::NAN, f64::NAN);
        }
    }
    let difficulty_se = (0..items)
        .map(|i| {
            let information: f64 = by_item[i].iter().map(|&(p, right)| a[i] * a[i] * loss(right, a[i] * (theta[p] - b[i])).2).sum();
            1.0 / information.sqrt()
        })
        .collect();
    let mut fit = Fit { difficulty: b, difficulty_se, discrimination: a, ability: theta, fitted, estimated, iterations };
    for p in (0..respondents).filter(|&p| !fit.fitted[p]) {
        fit.ability[p] = fit.ability(&by_person[p]);
    }
    fit
}

/// Whether `answers` hold both a right and a wrong one.
fn mixed<T>(answers: &[(T, bool)]) -> bool {
    answers.iter().any(|x| x.1) && answers.iter().any(|x| !x.1)
}

impl Fit {
    /// The ability of a respondent who was not fitted (a model: its answers are the
    /// signs of its Eq. 2 scores), on the fitted respondents' scale, read off the
    /// items the fit estimated; NaN when it answered none of them.
    pub fn ability(&self, answers: &[(usize, bool)]) -> f64 {
        let known: Vec<(usize, bool)> = answers.iter().copied().filter(|&(i, _)| self.estimated.get(i) == Some(&true)).collect();
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
    use crate::correlation::spearman;

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
        let cells =
            vec![(0, 0, true), (0, 1, false), (1, 0, false), (1, 1, true), (2, 0, true), (2, 1, true), (3, 0, false), (3, 1, false)];
        let fit = fit(4, 2, &cells, Model::OnePl);
        assert_eq!(fit.fitted, vec![true, true, false, false]);
        assert!(fit.ability[2] > fit.ability[0] && fit.ability[3] < fit.ability[1]);
        assert!(fit.ability(&[(0, true), (1, true)]) > fit.ability(&[(0, false), (1, true)]));
    }
}
