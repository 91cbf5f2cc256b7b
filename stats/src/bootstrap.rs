//! Percentile bootstrap confidence intervals, for rates and correlations alike.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A two-sided `level` (e.g. 0.95) percentile interval for `statistic` over `n`
/// observations: `resamples` times, draw n indices with replacement, compute the
/// statistic on them (paired data: resample pairs by their shared index); the
/// interval runs between the (1 - level) / 2 and (1 + level) / 2 quantiles (linear
/// interpolation, numpy's default) of the results that are not NaN. Seeded, so a
/// report is reproducible.
pub fn bootstrap_ci(n: usize, statistic: impl Fn(&[usize]) -> f64, resamples: usize, level: f64, seed: u64) -> (f64, f64) {
    if n == 0 || resamples == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut indices = vec![0usize; n];
    let mut values: Vec<f64> = (0..resamples)
        .filter_map(|_| {
            for i in indices.iter_mut() {
                *i = rng.gen_range(0..n);
            }
            let v = statistic(&indices);
            (!v.is_nan()).then_some(v)
        })
        .collect();
    values.sort_by(f64::total_cmp);
    (quantile(&values, (1.0 - level) / 2.0), quantile(&values, (1.0 + level) / 2.0))
}

/// `statistic` over all `n` observations, and its [`bootstrap_ci`] when that interval
/// holds it: a percentile interval that misses its own estimate (resamples skewed to
/// one side, as with a handful of observations) is no interval, and reads NaN; so is
/// the interval of an estimate that is not a finite number.
pub fn estimate_with_ci(n: usize, statistic: impl Fn(&[usize]) -> f64, resamples: usize, level: f64, seed: u64) -> (f64, (f64, f64)) {
    let all: Vec<usize> = (0..n).collect();
    let estimate = if n == 0 { f64::NAN } else { statistic(&all) };
    let (lo, hi) = bootstrap_ci(n, &statistic, resamples, level, seed);
    if estimate.is_finite() && lo <= estimate && estimate <= hi {
        (estimate, (lo, hi))
    } else {
        (estimate, (f64::NAN, f64::NAN))
    }
}

/// The `q` quantile of sorted values, interpolating linearly between neighbours.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_interval_matches_the_normal_approximation() {
        // 120 successes in 400: the normal interval is 0.3 +- 1.96 * sqrt(0.3 * 0.7 / 400)
        let data: Vec<bool> = (0..400).map(|i| i % 10 < 3).collect();
        let rate = |idx: &[usize]| idx.iter().filter(|&&i| data[i]).count() as f64 / idx.len() as f64;
        let (lo, hi) = bootstrap_ci(data.len(), rate, 4000, 0.95, 7);
        let half = 1.96 * (0.3f64 * 0.7 / 400.0).sqrt();
        assert!(((hi - lo) / 2.0 - half).abs() < 0.15 * half, "({lo}, {hi}) vs +-{half}");
        assert!(lo < 0.3 && 0.3 < hi);
        assert_eq!(bootstrap_ci(data.len(), rate, 500, 0.95, 7), bootstrap_ci(data.len(), rate, 500, 0.95, 7));
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
    }
}
