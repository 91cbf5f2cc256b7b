//! Item response theory by marginal maximum likelihood (Bock & Aitkin 1981), as
//! mirt, girth's `*_mml` and py-irt fit it: abilities are not parameters but a
//! standard normal distribution integrated over a grid of points, so that items
//! answered by a handful of players, and players who answered a handful of items,
//! do not drive the estimates to the bounds as joint maximum likelihood does.
//!
//! P(right) = 1 / (1 + exp(-a_i (theta - b_i))), theta ~ N(0, 1). The 1PL shares one
//! discrimination among the items, the 2PL gives each its own. Cells a respondent did
//! not answer are skipped (most players see few items).
//!
//! - **Fit**: the EM algorithm over [`Grid`]: each respondent's posterior over the
//!   grid given the items, then each item's parameters maximising its expected
//!   answers there (a weighted logistic regression, convex, solved exactly); until no
//!   parameter moves by [`TOLERANCE`].
//! - **No estimate, and why** ([`NoEstimate`]): an item nobody answered, every answer
//!   right or every one wrong (its difficulty runs to infinity), fewer than
//!   [`MIN_ANSWERS`] answers (at fewer, the fit's estimates run away from the truth:
//!   see the coverage study below), or a discrimination that runs to a bound ([`A_MAX`]:
//!   ability separates its answers; [`A_MIN`]: they do not rise with ability); the
//!   fit is then made again without it; a 1PL whose shared discrimination runs to a
//!   bound estimates nothing ([`NoEstimate::SharedAtBound`]). No value at a bound is
//!   reported as an estimate.
//! - **Standard errors** of each item's parameters from the observed information of
//!   the marginal likelihood (Louis's identity, mirt's `SE.type = "Louis"`), the whole
//!   matrix inverted (each item's own block beyond [`FULL_INFORMATION_LIMIT`]
//!   parameters): see [`information`]. The coverage of their 95 % intervals on
//!   simulated game-shaped play with known truth is measured by
//!   stats/tests/it/irt_coverage.rs (docs/src/researchers/report.md has the table).
//! - **Abilities**: expected a posteriori (EAP), with a standard error of the
//!   posterior's standard deviation and the error the items' estimates add (the delta
//!   method over their covariance), for every respondent with an answer to an
//!   estimated item (players who got all right included: their EAP is finite), and for
//!   models placed on the players' scale ([`Fit::ability`]), on a finer grid.
//! - **Item fit**: infit and outfit mean squares at the EAP abilities (1 is a fit as
//!   expected; above 1, answers noisier than the model says).
//!
//! Checked against girth's `onepl_mml` / `twopl_mml` / `ability_eap` and against the
//! truth of simulated game-shaped data (stats/fixtures/make_irt_simulation.py).

use std::collections::BTreeMap;

mod information;
mod likelihood;

pub use information::FULL_INFORMATION_LIMIT;
use information::{Covariance, Layout};
use likelihood::{item_logs, log_posterior, log_sigmoid, log_sum_exp, normalised, sigmoid, slope_prior};
pub use likelihood::{Grid, Model, SLOPE_PRIOR_SD};

/// One answer: respondent, item, right or wrong.
pub type Cell = (usize, usize, bool);

/// Why an item or a respondent has no estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEstimate {
    /// An item nobody answered; a respondent who answered no estimated item.
    NoAnswers,
    /// Every answer right: the item is easier than the data can say.
    AllRight,
    /// Every answer wrong.
    AllWrong,
    /// Fewer answers than the 2PL needs (how many it had).
    TooFewAnswers(usize),
    /// The 2PL's discrimination ran to [`A_MAX`]: ability separates the answers.
    Separated,
    /// The 2PL's discrimination ran to [`A_MIN`]: the answers do not rise with ability.
    NotRising,
    /// The answers do not fix the parameters (their information is singular).
    Unidentified,
    /// The 1PL's shared discrimination ran to a bound ([`A_MIN`] or [`A_MAX`]): no
    /// item, and no respondent, has an estimate. True at the upper bound.
    SharedAtBound(bool),
}

impl NoEstimate {
    /// Why, in words for a table.
    pub fn reason(self) -> String {
        match self {
            NoEstimate::NoAnswers => "no answers to estimated items".into(),
            NoEstimate::AllRight => "every answer right".into(),
            NoEstimate::AllWrong => "every answer wrong".into(),
            NoEstimate::TooFewAnswers(n) => format!("{n} answers (an estimate needs {MIN_ANSWERS})"),
            NoEstimate::Separated => "ability separates its answers (no finite discrimination)".into(),
            NoEstimate::NotRising => "its answers do not rise with ability".into(),
            NoEstimate::Unidentified => "its answers do not fix its parameters".into(),
            NoEstimate::SharedAtBound(upper) => {
                let a = if upper { A_MAX } else { A_MIN };
                format!("the 1PL's shared discrimination ran to its bound ({a}): the answers do not fix a scale")
            }
        }
    }
}

/// An estimated item.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item {
    pub difficulty: f64,
    pub difficulty_se: f64,
    /// The 1PL's shared discrimination, or the 2PL item's own.
    pub discrimination: f64,
    /// The 2PL's standard error of the discrimination; NaN for the 1PL (shared).
    pub discrimination_se: f64,
    /// Information-weighted mean square of the residuals at the EAP abilities.
    pub infit: f64,
    /// Unweighted mean square of the standardised residuals.
    pub outfit: f64,
}

/// A respondent's ability: the posterior mean and standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ability {
    pub eap: f64,
    pub se: f64,
}

/// A fitted model.
#[derive(Clone, Debug)]
pub struct Fit {
    pub model: Model,
    pub items: Vec<Result<Item, NoEstimate>>,
    pub abilities: Vec<Result<Ability, NoEstimate>>,
    /// The marginal log-likelihood of the answers to the estimated items.
    pub log_likelihood: f64,
    pub iterations: usize,
    /// Whether the EM steps stopped moving before [`MAX_ITERATIONS`].
    pub converged: bool,
}

/// Answers an item needs before the 2PL estimates it.
pub const MIN_ANSWERS: usize = 5;
/// The bounds of a 2PL discrimination; one at a bound is no estimate.
pub const A_MIN: f64 = 0.05;
pub const A_MAX: f64 = 6.0;
/// The bounds of the 1PL's shared discrimination (the 2PL's).
const SHARED_A: (f64, f64) = (A_MIN, A_MAX);
/// The bounds of a difficulty in the M-step (an item all right or all wrong is left
/// out before, so an estimate never sits there).
const B_BOUND: f64 = 20.0;
/// Stops when no parameter moved by more than this in an EM step.
pub const TOLERANCE: f64 = 1e-5;
pub const MAX_ITERATIONS: usize = 2000;

/// The EAP and posterior standard deviation of `answers` on `grid`.
fn eap(grid: &Grid, answers: &[(usize, bool)], a: &[f64], b: &[f64]) -> Ability {
    let logs: BTreeMap<usize, (Vec<f64>, Vec<f64>)> = answers.iter().map(|&(i, _)| (i, item_logs(grid, a[i], b[i]))).collect();
    let mut post = grid.log_weight.clone();
    for &(i, right) in answers {
        let (yes, no) = &logs[&i];
        for (p, l) in post.iter_mut().zip(if right { yes } else { no }) {
            *p += l;
        }
    }
    let (w, _) = normalised(&post);
    let mean: f64 = w.iter().zip(&grid.theta).map(|(w, t)| w * t).sum();
    let var: f64 = w.iter().zip(&grid.theta).map(|(w, t)| w * (t - mean) * (t - mean)).sum();
    Ability { eap: mean, se: var.sqrt() }
}

/// The minimum over [lo, hi] of a convex function of one variable, given by its
/// value and first two derivatives: Newton steps inside the bracket the derivative's
/// sign narrows, a bisection when a step would leave it.
fn minimize_convex(f: impl Fn(f64) -> (f64, f64, f64), start: f64, lo: f64, hi: f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
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
        let next = if curvature > 0.0 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        if (next - x).abs() <= 1e-12 * (1.0 + x.abs()) {
            return next;
        }
        x = next;
    }
    x
}

/// An item's expected answers at each grid point: (all, right).
type Expected = (Vec<f64>, Vec<f64>);

/// The negative expected log-likelihood of an item's expected answers at z = a theta
/// + c, with its gradient and Hessian in (a, c).
fn expected_loss(grid: &Grid, e: &Expected, a: f64, c: f64) -> (f64, [f64; 2], [f64; 3]) {
    let mut v = 0.0;
    let (mut g, mut h) = ([0.0; 2], [0.0; 3]);
    for ((t, n), r) in grid.theta.iter().zip(&e.0).zip(&e.1) {
        if *n <= 0.0 {
            continue;
        }
        let z = a * t + c;
        let p = sigmoid(z);
        v -= r * log_sigmoid(z) + (n - r) * log_sigmoid(-z);
        let d1 = n * p - r; // d(loss)/dz
        let d2 = n * p * (1.0 - p);
        g[0] += d1 * t;
        g[1] += d1;
        h[0] += d2 * t * t;
        h[1] += d2 * t;
        h[2] += d2;
    }
    (v, g, h)
}

/// The difficulty maximising an item's expected answers at discrimination `a`, and
/// the value there.
fn b_step(grid: &Grid, e: &Expected, a: f64, start: f64) -> (f64, f64) {
    let f = |b: f64| {
        let (v, g, h) = expected_loss(grid, e, a, -a * b);
        // c = -a b: dc/db = -a
        (v, -a * g[1], a * a * h[2])
    };
    let b = minimize_convex(f, start, -B_BOUND, B_BOUND);
    (b, f(b).0)
}

/// The log density (up to a constant) of the 2PL's prior at discrimination `a`.
pub fn slope_log_prior(a: f64) -> f64 {
    -slope_prior(a).0
}

/// [`expected_loss`] with the prior on a ([`slope_prior`]).
fn posterior_loss(grid: &Grid, e: &Expected, a: f64, c: f64) -> (f64, [f64; 2], [f64; 3]) {
    let (v, g, h) = expected_loss(grid, e, a, c);
    let (pv, pg, ph) = slope_prior(a);
    (v + pv, [g[0] + pg, g[1]], [h[0] + ph, h[1], h[2]])
}

/// The 2PL parameters maximising an item's expected answers and the prior on its
/// discrimination within the bounds: Newton's method in (a, c = -a b), where the
/// likelihood is convex (a gradient step where the prior's curvature turns the
/// Hessian indefinite), with a line search; on a bound of a, over c alone.
fn ab_step(grid: &Grid, e: &Expected, start: (f64, f64)) -> (f64, f64) {
    let (mut a, mut c) = (start.0.clamp(A_MIN, A_MAX), -start.0 * start.1);
    let (mut value, mut g, mut h) = posterior_loss(grid, e, a, c);
    for _ in 0..100 {
        let det = h[0] * h[2] - h[1] * h[1];
        let (sa, sc) = if h[0] > 0.0 && det > 1e-14 * (h[0] * h[2]).max(1e-300) {
            ((h[2] * g[0] - h[1] * g[1]) / det, (h[0] * g[1] - h[1] * g[0]) / det)
        } else {
            let scale = 1.0 / (h[0].abs() + h[2].abs()).max(1e-12);
            (g[0] * scale, g[1] * scale)
        };
        if g[0] * sa + g[1] * sc < 1e-12 * (1.0 + value.abs()) {
            break;
        }
        let mut t = 1.0;
        let moved = loop {
            let (na, nc) = ((a - t * sa).clamp(A_MIN, A_MAX), c - t * sc);
            let (v, ng, nh) = posterior_loss(grid, e, na, nc);
            if v <= value {
                (a, c, value, g, h) = (na, nc, v, ng, nh);
                break true;
            }
            t /= 2.0;
            if t < 1e-12 {
                break false;
            }
        };
        if !moved {
            break;
        }
    }
    if a <= A_MIN || a >= A_MAX {
        // on a bound: the best c there
        let f = |c: f64| {
            let (v, g, h) = posterior_loss(grid, e, a, c);
            (v, g[1], h[2])
        };
        c = minimize_convex(f, c, -B_BOUND * a, B_BOUND * a);
    }
    (a, -c / a)
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

/// The answers of each respondent, to the items `included` only.
fn by_respondent(respondents: usize, cells: &[Cell], included: &[bool]) -> Vec<Vec<(usize, bool)>> {
    let mut by = vec![Vec::new(); respondents];
    for &(p, i, right) in cells {
        if p < respondents && included.get(i) == Some(&true) {
            by[p].push((i, right));
        }
    }
    by
}

/// The marginal log-likelihood of `cells` under items (a, b), on the fit's grid,
/// over the items `included`: what the fit maximises, for comparing fits.
pub fn marginal_log_likelihood(respondents: usize, cells: &[Cell], a: &[f64], b: &[f64], included: &[bool]) -> f64 {
    let grid = Grid::fit();
    let logs: Vec<(Vec<f64>, Vec<f64>)> = a.iter().zip(b).map(|(&a, &b)| item_logs(&grid, a, b)).collect();
    by_respondent(respondents, cells, included)
        .iter()
        .filter(|answers| !answers.is_empty())
        .map(|answers| log_sum_exp(&log_posterior(&grid, answers, &logs)))
        .sum()
}

/// What an EM fit of fixed items ends with.
struct Em {
    a: Vec<f64>,
    b: Vec<f64>,
    log_likelihood: f64,
    iterations: usize,
    converged: bool,
}

/// What the EM steps work on: the answers of each respondent to the items `included`.
struct Problem<'a> {
    grid: &'a Grid,
    by_person: &'a [Vec<(usize, bool)>],
    included: &'a [bool],
    model: Model,
}

/// Items' parameters: discriminations and difficulties.
type Parameters = (Vec<f64>, Vec<f64>);

impl Problem<'_> {
    fn logs(&self, (a, b): &Parameters) -> Vec<(Vec<f64>, Vec<f64>)> {
        (0..a.len()).map(|i| if self.included[i] { item_logs(self.grid, a[i], b[i]) } else { (Vec::new(), Vec::new()) }).collect()
    }

    /// The marginal log-likelihood at `p`.
    fn log_likelihood(&self, p: &Parameters) -> f64 {
        let logs = self.logs(p);
        self.by_person.iter().filter(|a| !a.is_empty()).map(|answers| log_sum_exp(&log_posterior(self.grid, answers, &logs))).sum()
    }

    /// What the fit maximises at `p`: the log-likelihood `ll`, and for the 2PL the
    /// log prior of the discriminations.
    fn objective(&self, ll: f64, (a, _): &Parameters) -> f64 {
        match self.model {
            Model::OnePl => ll,
            Model::TwoPl => ll + (0..a.len()).filter(|&i| self.included[i]).map(|i| slope_log_prior(a[i])).sum::<f64>(),
        }
    }

    /// One EM step from `p`: the log-likelihood at `p` and the parameters the M-step
    /// gives (the 1PL's by conditional maximisation: the difficulties at the shared
    /// discrimination, then the discrimination at those difficulties).
    fn step(&self, p: &Parameters) -> (f64, Parameters) {
        let (grid, items) = (self.grid, p.0.len());
        // E-step: each respondent's posterior, summed into every item's expected answers
        let logs = self.logs(p);
        let mut expected: Vec<Expected> = (0..items)
            .map(|i| if self.included[i] { (vec![0.0; grid.theta.len()], vec![0.0; grid.theta.len()]) } else { Default::default() })
            .collect();
        let mut log_likelihood = 0.0;
        for answers in self.by_person.iter().filter(|a| !a.is_empty()) {
            let (w, total) = normalised(&log_posterior(grid, answers, &logs));
            log_likelihood += total;
            for &(i, right) in answers {
                let e = &mut expected[i];
                for (q, wq) in w.iter().enumerate() {
                    e.0[q] += wq;
                    if right {
                        e.1[q] += wq;
                    }
                }
            }
        }
        // M-step
        let (mut a, mut b) = p.clone();
        match self.model {
            Model::TwoPl => {
                for i in (0..items).filter(|&i| self.included[i]) {
                    (a[i], b[i]) = ab_step(grid, &expected[i], (a[i], b[i]));
                }
            }
            Model::OnePl => {
                let shared = a.first().copied().unwrap_or(1.0);
                for i in (0..items).filter(|&i| self.included[i]) {
                    b[i] = b_step(grid, &expected[i], shared, b[i]).0;
                }
                let f = |shared: f64| {
                    (0..items).filter(|&i| self.included[i]).fold((0.0, 0.0, 0.0), |(v, g, h), i| {
                        let (iv, ig, ih) = expected_loss(grid, &expected[i], shared, -shared * b[i]);
                        // z = shared (theta - b): the (a, c) derivatives along c = -a b
                        (v + iv, g + ig[0] - b[i] * ig[1], h + ih[0] - 2.0 * b[i] * ih[1] + b[i] * b[i] * ih[2])
                    })
                };
                let shared = minimize_convex(f, shared, SHARED_A.0, SHARED_A.1);
                a.iter_mut().for_each(|x| *x = shared);
            }
        }
        (log_likelihood, (a, b))
    }

    /// The largest move of an included parameter from `from` to `to`.
    fn moved(&self, from: &Parameters, to: &Parameters) -> f64 {
        (0..from.0.len())
            .filter(|&i| self.included[i])
            .map(|i| (from.0[i] - to.0[i]).abs().max((from.1[i] - to.1[i]).abs()))
            .fold(0.0, f64::max)
    }

    /// `p0 - 2 s r + s^2 v` (SQUAREM's extrapolation), within the parameters' bounds.
    fn extrapolated(&self, p0: &Parameters, p1: &Parameters, p2: &Parameters) -> Parameters {
        let (mut rr, mut vv) = (0.0, 0.0);
        let diff = |x: &[f64], y: &[f64], i: usize| x[i] - y[i];
        for i in (0..p0.0.len()).filter(|&i| self.included[i]) {
            for (x0, x1, x2) in [(&p0.0, &p1.0, &p2.0), (&p0.1, &p1.1, &p2.1)] {
                let r = diff(x1, x0, i);
                let v = diff(x2, x1, i) - r;
                rr += r * r;
                vv += v * v;
            }
        }
        if vv == 0.0 {
            return p2.clone();
        }
        let step = -(rr / vv).sqrt().max(1.0);
        let go = |x0: &[f64], x1: &[f64], x2: &[f64], lo: f64, hi: f64| -> Vec<f64> {
            (0..x0.len())
                .map(|i| {
                    let (r, v) = (x1[i] - x0[i], x2[i] - 2.0 * x1[i] + x0[i]);
                    (x0[i] - 2.0 * step * r + step * step * v).clamp(lo, hi)
                })
                .collect()
        };
        let (a_lo, a_hi) = match self.model {
            Model::OnePl => SHARED_A,
            Model::TwoPl => (A_MIN, A_MAX),
        };
        (go(&p0.0, &p1.0, &p2.0, a_lo, a_hi), go(&p0.1, &p1.1, &p2.1, -B_BOUND, B_BOUND))
    }
}

/// The EM algorithm over the items `included` (see the module), accelerated by
/// SQUAREM (Varadhan & Roland 2008): from two EM steps, a step as far along their
/// direction as their change of direction allows, followed by one more EM step; kept
/// when it leaves the objective at least where the first step did, else the second EM
/// step is. Counts EM steps.
fn em(grid: &Grid, items: usize, by_person: &[Vec<(usize, bool)>], included: &[bool], model: Model, start_b: &[f64]) -> Em {
    let problem = Problem { grid, by_person, included, model };
    let mut p: Parameters = (vec![1.0; items], start_b.to_vec());
    let (mut iterations, mut converged) = (0, false);
    while iterations < MAX_ITERATIONS {
        let (_, p1) = problem.step(&p);
        let (ll1, p2) = problem.step(&p1);
        iterations += 2;
        if problem.moved(&p1, &p2) < TOLERANCE {
            (p, converged) = (p2, true);
            break;
        }
        let jump = problem.extrapolated(&p, &p1, &p2);
        let (ll_jump, p3) = problem.step(&jump);
        iterations += 1;
        let next = if problem.objective(ll_jump, &jump) >= problem.objective(ll1, &p1) { p3 } else { p2 };
        if problem.moved(&p, &next) < TOLERANCE {
            (p, converged) = (next, true);
            break;
        }
        p = next;
    }
    let log_likelihood = if included.iter().any(|&i| i) { problem.log_likelihood(&p) } else { 0.0 };
    Em { a: p.0, b: p.1, log_likelihood, iterations, converged }
}

/// Fits `model` to `cells` of `respondents` respondents and `items` items (see the
/// module). Cells naming a respondent or item out of range are ignored.
pub fn fit(respondents: usize, items: usize, cells: &[Cell], model: Model) -> Fit {
    fit_with_information_limit(respondents, items, cells, model, FULL_INFORMATION_LIMIT)
}

/// [`fit`], inverting the whole observed information up to `full_limit` parameters
/// and each item's own block above (the coverage study checks both).
pub fn fit_with_information_limit(respondents: usize, items: usize, cells: &[Cell], model: Model, full_limit: usize) -> Fit {
    let cells: Vec<Cell> = cells.iter().copied().filter(|&(p, i, _)| p < respondents && i < items).collect();
    let mut by_item: Vec<Vec<(usize, bool)>> = vec![Vec::new(); items];
    for &(p, i, right) in &cells {
        by_item[i].push((p, right));
    }
    let mut missing: Vec<Option<NoEstimate>> = by_item
        .iter()
        .map(|answers| {
            if answers.is_empty() {
                Some(NoEstimate::NoAnswers)
            } else if !answers.iter().any(|x| !x.1) {
                Some(NoEstimate::AllRight)
            } else if !answers.iter().any(|x| x.1) {
                Some(NoEstimate::AllWrong)
            } else if answers.len() < MIN_ANSWERS {
                Some(NoEstimate::TooFewAnswers(answers.len()))
            } else {
                None
            }
        })
        .collect();
    // start from each item's share of wrong answers, as girth does
    let start: Vec<f64> = by_item
        .iter()
        .map(|answers| {
            let right = answers.iter().filter(|x| x.1).count() as f64;
            let wrong = answers.len() as f64 - right;
            (wrong.max(0.5) / right.max(0.5)).ln().clamp(-4.0, 4.0)
        })
        .collect();
    let grid = Grid::fit();
    // fit; leave out any item whose discrimination ran to a bound, and fit again
    let mut fitted = loop {
        let included: Vec<bool> = missing.iter().map(Option::is_none).collect();
        let by_person = by_respondent(respondents, &cells, &included);
        let run = em(&grid, items, &by_person, &included, model, &start);
        let mut again = false;
        if model == Model::TwoPl {
            for i in (0..items).filter(|&i| included[i]) {
                let bound = if run.a[i] >= A_MAX * (1.0 - 1e-6) {
                    Some(NoEstimate::Separated)
                } else if run.a[i] <= A_MIN * (1.0 + 1e-6) {
                    Some(NoEstimate::NotRising)
                } else {
                    None
                };
                if bound.is_some() {
                    missing[i] = bound;
                    again = true;
                }
            }
        }
        if model == Model::OnePl && included.iter().any(|&i| i) {
            let shared = run.a.first().copied().unwrap_or(1.0);
            if shared <= SHARED_A.0 * (1.0 + 1e-6) || shared >= SHARED_A.1 * (1.0 - 1e-6) {
                return at_shared_bound(model, missing, respondents, &run, shared > 1.0);
            }
        }
        if !again {
            break (run, included, by_person);
        }
    };
    let (run, included, by_person) = (&mut fitted.0, &fitted.1, &fitted.2);
    let logs: Vec<(Vec<f64>, Vec<f64>)> =
        (0..items).map(|i| if included[i] { item_logs(&grid, run.a[i], run.b[i]) } else { (Vec::new(), Vec::new()) }).collect();
    let layout = Layout::new(model, included);
    let fitted_items = information::Items { a: &run.a, b: &run.b };
    let info = information::observed_information(&grid, &layout, &fitted_items, by_person, &logs);
    let covariance = Covariance::new(&layout, items, &info, full_limit);
    // each EAP's standard error: its posterior's, and what the items' estimates add
    let abilities: Vec<Result<Ability, NoEstimate>> = by_person
        .iter()
        .map(|answers| {
            if answers.is_empty() {
                return Err(NoEstimate::NoAnswers);
            }
            let ability = eap(&grid, answers, &run.a, &run.b);
            let from_items = covariance.eap_variance(&grid, &layout, &fitted_items, answers, &logs, ability.eap).unwrap_or(0.0);
            Ok(Ability { se: (ability.se * ability.se + from_items).sqrt(), ..ability })
        })
        .collect();
    let ses: Vec<(f64, f64)> = (0..items).map(|i| covariance.item_ses(&layout, i)).collect();
    let mut estimated = item_estimates(model, run, included, by_person, &abilities, &ses);
    for (i, m) in missing.iter().enumerate() {
        if let Some(m) = m {
            estimated[i] = Err(*m);
        }
    }
    Fit { model, items: estimated, abilities, log_likelihood: run.log_likelihood, iterations: run.iterations, converged: run.converged }
}

/// A 1PL whose shared discrimination ran to a bound (`upper` or lower): every item
/// not left out before the fit, and every respondent, without an estimate (a value at
/// a bound is not one).
fn at_shared_bound(model: Model, missing: Vec<Option<NoEstimate>>, respondents: usize, run: &Em, upper: bool) -> Fit {
    let why = NoEstimate::SharedAtBound(upper);
    Fit {
        model,
        items: missing.into_iter().map(|m| Err(m.unwrap_or(why))).collect(),
        abilities: vec![Err(why); respondents],
        log_likelihood: run.log_likelihood,
        iterations: run.iterations,
        converged: run.converged,
    }
}

/// The estimates of the included items with their standard errors `ses` (difficulty,
/// discrimination), and infit and outfit at the EAP abilities.
fn item_estimates(
    model: Model,
    run: &Em,
    included: &[bool],
    by_person: &[Vec<(usize, bool)>],
    abilities: &[Result<Ability, NoEstimate>],
    ses: &[(f64, f64)],
) -> Vec<Result<Item, NoEstimate>> {
    let items = run.a.len();
    // per item: sums of squared residuals, of their variances, of the standardised squares, and the count
    let mut residuals = vec![[0.0f64; 4]; items];
    for (answers, ability) in by_person.iter().zip(abilities) {
        let Ok(ability) = ability else { continue };
        for &(i, right) in answers {
            let (a, b) = (run.a[i], run.b[i]);
            let x = if right { 1.0 } else { 0.0 };
            let p = sigmoid(a * (ability.eap - b));
            let variance = (p * (1.0 - p)).max(1e-300);
            let r = &mut residuals[i];
            r[0] += (x - p) * (x - p);
            r[1] += variance;
            r[2] += (x - p) * (x - p) / variance;
            r[3] += 1.0;
        }
    }
    (0..items)
        .map(|i| {
            if !included[i] {
                return Err(NoEstimate::NoAnswers);
            }
            let (difficulty_se, discrimination_se) = ses[i];
            let ses_ok = difficulty_se.is_finite()
                && difficulty_se > 0.0
                && (model == Model::OnePl || discrimination_se.is_finite() && discrimination_se > 0.0);
            if !ses_ok {
                return Err(NoEstimate::Unidentified);
            }
            let r = residuals[i];
            Ok(Item {
                difficulty: run.b[i],
                difficulty_se,
                discrimination: run.a[i],
                discrimination_se: if model == Model::OnePl { f64::NAN } else { discrimination_se },
                infit: r[0] / r[1],
                outfit: r[2] / r[3],
            })
        })
        .collect()
}

impl Fit {
    /// The ability of a respondent placed on the players' scale (a model: its answers
    /// are the signs of its Eq. 2 scores), read off the estimated items: EAP on a
    /// fine grid; no estimate when it answered none of them.
    pub fn ability(&self, answers: &[(usize, bool)]) -> Result<Ability, NoEstimate> {
        let (mut a, mut b) = (vec![0.0; self.items.len()], vec![0.0; self.items.len()]);
        let known: Vec<(usize, bool)> = answers
            .iter()
            .copied()
            .filter(|&(i, _)| match self.items.get(i) {
                Some(Ok(item)) => {
                    (a[i], b[i]) = (item.discrimination, item.difficulty);
                    true
                }
                _ => false,
            })
            .collect();
        if known.is_empty() {
            return Err(NoEstimate::NoAnswers);
        }
        Ok(eap(&Grid::fine(), &known, &a, &b))
    }

    /// The estimated items' (discrimination, difficulty), NaN where there is none.
    pub fn parameters(&self) -> (Vec<f64>, Vec<f64>) {
        self.items.iter().map(|i| i.as_ref().map_or((f64::NAN, f64::NAN), |i| (i.discrimination, i.difficulty))).unzip()
    }
}

/// The EAP ability of `answers` (difficulty, right) under the 1PL with discrimination 1,
/// on the fit's grid: what the adaptive rule reads of a player as they play.
pub fn eap_1pl(answers: &[(f64, bool)]) -> Ability {
    let (b, cells): (Vec<f64>, Vec<(usize, bool)>) = answers.iter().enumerate().map(|(i, &(b, right))| (b, (i, right))).unzip();
    eap(&Grid::fit(), &cells, &vec![1.0; b.len()], &b)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::correlation::spearman;

    fn normal(rng: &mut StdRng) -> f64 {
        // Box-Muller
        let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.gen_range(0.0..1.0));
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// 300 simulated players of known ability, each answering 25 of 40 items of known
    /// difficulty (and discrimination, for the 2PL): the fit recovers them.
    #[test]
    fn fitted_parameters_recover_simulated_ones() {
        let mut rng = StdRng::seed_from_u64(29);
        let (players, items) = (300, 40);
        let ability: Vec<f64> = (0..players).map(|_| normal(&mut rng)).collect();
        let difficulty: Vec<f64> = (0..items).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let discrimination: Vec<f64> = (0..items).map(|_| rng.gen_range(0.6..2.0)).collect();
        for model in [Model::OnePl, Model::TwoPl] {
            let mut cells = Vec::new();
            for (p, theta) in ability.iter().enumerate() {
                for i in 0..items {
                    if rng.gen_bool(0.6) {
                        let a = if model == Model::TwoPl { discrimination[i] } else { 1.0 };
                        cells.push((p, i, rng.gen_bool(sigmoid(a * (theta - difficulty[i])))));
                    }
                }
            }
            let fit = fit(players, items, &cells, model);
            assert!(fit.converged, "{model:?}");
            let (a, b) = fit.parameters();
            assert!(spearman(&b, &difficulty).0 >= 0.95, "{model:?}: difficulties");
            if model == Model::OnePl {
                assert!((a[0] - 1.0).abs() < 0.15, "the shared discrimination {}", a[0]);
            } else {
                assert!(spearman(&a, &discrimination).0 >= 0.6, "discriminations");
            }
            let eap: Vec<f64> = fit.abilities.iter().map(|x| x.expect("every player answered").eap).collect();
            assert!(spearman(&eap, &ability).0 >= 0.85, "{model:?}: abilities");
            for item in fit.items.iter().flatten() {
                assert!(item.difficulty_se.is_finite() && item.difficulty_se > 0.0, "{item:?}");
                assert!(item.infit > 0.5 && item.infit < 1.5 && item.outfit > 0.3 && item.outfit < 2.5, "{item:?}");
            }
        }
    }

    #[test]
    fn items_and_respondents_without_information_say_why() {
        // item 0 all right, item 1 all wrong, items 2 and 5 mixed with 6 answers, item 3
        // unanswered, item 4 mixed with 3; respondent 6 answered nothing
        let mut cells = vec![(0, 0, true), (1, 0, true), (0, 1, false), (1, 1, false), (0, 4, true), (1, 4, false), (2, 4, true)];
        cells.extend([true, false, true, false, true, true].iter().enumerate().map(|(p, &right)| (p, 2, right)));
        cells.extend([true, false, true, true, false, true].iter().enumerate().map(|(p, &right)| (p, 5, right)));
        let one = fit(7, 6, &cells, Model::OnePl);
        assert_eq!(one.items[0], Err(NoEstimate::AllRight));
        assert_eq!(one.items[1], Err(NoEstimate::AllWrong));
        assert!(one.items[2].is_ok(), "{:?}", one.items[2]);
        assert_eq!(one.items[3], Err(NoEstimate::NoAnswers));
        assert_eq!(one.items[4], Err(NoEstimate::TooFewAnswers(3)));
        assert_eq!(one.abilities[6], Err(NoEstimate::NoAnswers));
        assert!(one.abilities[0].expect("answered item 2").eap > one.abilities[1].expect("answered item 2").eap);
        let two = fit(7, 6, &cells, Model::TwoPl);
        assert_eq!(two.items[4], Err(NoEstimate::TooFewAnswers(3)));
        // a model placed on the 1PL's scale: above a player who got items 2 and 5 wrong
        let model = one.ability(&[(0, true), (1, true), (2, true), (5, true)]).expect("item 2 is estimated");
        assert!(model.eap > one.abilities[1].expect("fitted").eap && model.se > 0.0);
        assert_eq!(one.ability(&[(0, true)]), Err(NoEstimate::NoAnswers));
    }

    #[test]
    fn a_shared_discrimination_at_its_bound_estimates_nothing() {
        // every player gets half the items right, every item is half right: nothing
        // rises with ability, so the 1PL's shared discrimination runs to its lower bound
        let cells: Vec<Cell> = (0..10).flat_map(|p| (0..6).map(move |i| (p, i, (i + p) % 2 == 0))).collect();
        let one = fit(10, 6, &cells, Model::OnePl);
        assert!(one.items.iter().all(|i| *i == Err(NoEstimate::SharedAtBound(false))), "{:?}", one.items);
        assert!(one.abilities.iter().all(|a| *a == Err(NoEstimate::SharedAtBound(false))));
        assert!(NoEstimate::SharedAtBound(false).reason().contains("0.05"));
    }

    #[test]
    fn the_marginal_likelihood_is_what_the_fit_maximises() {
        let mut rng = StdRng::seed_from_u64(3);
        let cells: Vec<Cell> =
            (0..60).flat_map(|p| (0..8).map(move |i| (p, i))).map(|(p, i)| (p, i, rng.gen_bool(0.3 + 0.05 * i as f64))).collect();
        let fit = fit(60, 8, &cells, Model::TwoPl);
        let (a, b) = fit.parameters();
        let included: Vec<bool> = fit.items.iter().map(Result::is_ok).collect();
        let ll = marginal_log_likelihood(60, &cells, &a, &b, &included);
        assert!((ll - fit.log_likelihood).abs() < 1e-3 * ll.abs(), "{ll} vs {}", fit.log_likelihood);
        let nudged: Vec<f64> = b.iter().map(|b| b + 0.1).collect();
        assert!(marginal_log_likelihood(60, &cells, &a, &nudged, &included) < ll);
    }
}
