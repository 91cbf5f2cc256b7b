//! The pieces of the IRT likelihood that the fit and its information matrix share:
//! the models, the ability grid, an item's log-probabilities on it, a respondent's
//! posterior, and the prior on the 2PL's discriminations.

/// Which model to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// One discrimination shared by every item (the 1PL).
    OnePl,
    /// A discrimination per item (the 2PL).
    TwoPl,
}

/// Points over the abilities' standard normal distribution, evenly spaced within
/// +-[`Grid::SPAN`], with log weights proportional to the density (the trapezoid rule,
/// which for a density that falls off as fast as the normal's is accurate far beyond
/// its step).
#[derive(Clone, Debug)]
pub struct Grid {
    pub theta: Vec<f64>,
    pub log_weight: Vec<f64>,
}

impl Grid {
    const SPAN: f64 = 6.0;

    /// `n` points (at least 2).
    pub fn new(n: usize) -> Grid {
        let n = n.max(2);
        let step = 2.0 * Self::SPAN / (n - 1) as f64;
        let theta: Vec<f64> = (0..n).map(|q| -Self::SPAN + step * q as f64).collect();
        let log_density: Vec<f64> = theta.iter().map(|t| -0.5 * t * t).collect();
        let total = log_sum_exp(&log_density);
        Grid { log_weight: log_density.iter().map(|l| l - total).collect(), theta }
    }

    /// The grid of the fit: a step of 0.1.
    pub fn fit() -> Grid {
        Grid::new(121)
    }

    /// The grid of one respondent's EAP: a step of 0.02 (a model that answered every
    /// item has a narrow posterior).
    pub fn fine() -> Grid {
        Grid::new(601)
    }
}

pub(super) fn log_sum_exp(values: &[f64]) -> f64 {
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return max;
    }
    max + values.iter().map(|v| (v - max).exp()).sum::<f64>().ln()
}

/// ln sigmoid(z), stable for any z.
pub(super) fn log_sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

pub(super) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// ln P(right) and ln P(wrong) of an item (a, b) at each point of `grid`.
pub(super) fn item_logs(grid: &Grid, a: f64, b: f64) -> (Vec<f64>, Vec<f64>) {
    grid.theta.iter().map(|t| (log_sigmoid(a * (t - b)), log_sigmoid(-a * (t - b)))).unzip()
}

/// The log posterior weight (unnormalised) of each grid point for one respondent's
/// `answers` (item, right) given the items' log-probability tables.
pub(super) fn log_posterior(grid: &Grid, answers: &[(usize, bool)], logs: &[(Vec<f64>, Vec<f64>)]) -> Vec<f64> {
    let mut post = grid.log_weight.clone();
    for &(i, right) in answers {
        let table = if right { &logs[i].0 } else { &logs[i].1 };
        for (p, l) in post.iter_mut().zip(table) {
            *p += l;
        }
    }
    post
}

/// Normalises log weights into probabilities; returns the log of their sum too.
pub(super) fn normalised(log_post: &[f64]) -> (Vec<f64>, f64) {
    let total = log_sum_exp(log_post);
    (log_post.iter().map(|l| (l - total).exp()).collect(), total)
}

/// The standard deviation of the 2PL's prior on ln a (see [`slope_prior`]).
pub const SLOPE_PRIOR_SD: f64 = 0.5;

/// The 2PL's prior on each discrimination: ln a normal with mean 0 and
/// [`SLOPE_PRIOR_SD`] (BILOG-MG's log-normal), so that a priori the likeliest
/// discrimination is 1. Minus its log density in ln a up to a constant,
/// (ln a)^2 / (2 sd^2), with its first two derivatives in a. A handful of answers that
/// ability happens to separate no longer drives a discrimination to infinity (a
/// Heywood case); with many answers it weighs little. (The density in a itself,
/// with its ln a term, peaks at exp(-sd^2) = 0.78: it pulled the discriminations of
/// items with few answers down by 0.2 on the coverage study's data, and so widened
/// their difficulties' intervals.)
pub(super) fn slope_prior(a: f64) -> (f64, f64, f64) {
    let (l, v) = (a.ln(), SLOPE_PRIOR_SD * SLOPE_PRIOR_SD);
    (l * l / (2.0 * v), l / (v * a), (1.0 - l) / (v * a * a))
}
