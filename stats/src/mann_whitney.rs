//! The Mann-Whitney U test with its common-language effect size (Table 6): do people
//! take longer (in log time, raw or per sentence, word or character) when they answer
//! wrongly?

use statrs::distribution::{ContinuousCDF, Normal};

/// The result for samples `x` (e.g. correct answers) and `y` (incorrect ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MannWhitney {
    /// U of `x`: the pairs (x_i, y_j) with x_i > y_j, ties counting one half.
    pub u: f64,
    /// The common-language effect size U / (n_x n_y), the paper's "U / max U": below
    /// 1/2 when `x` tends to be smaller.
    pub effect_size: f64,
    /// Two-sided p-value from the normal approximation with tie correction and
    /// continuity correction (scipy's `mannwhitneyu(..., method="asymptotic")`).
    pub p_value: f64,
}

/// NaN throughout when a sample is empty; a NaN p-value when every value is tied.
pub fn mann_whitney(x: &[f64], y: &[f64]) -> MannWhitney {
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    let all: Vec<f64> = x.iter().chain(y).copied().collect();
    let ranks = super::average_ranks(&all);
    let u = ranks[..x.len()].iter().sum::<f64>() - nx * (nx + 1.0) / 2.0;
    let n = nx + ny;
    let mut sorted = all.clone();
    sorted.sort_by(f64::total_cmp);
    let ties: f64 = sorted.chunk_by(|a, b| a == b).map(|g| (g.len() as f64).powi(3) - g.len() as f64).sum();
    let sd = (nx * ny / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)))).sqrt();
    let z = (u.max(nx * ny - u) - nx * ny / 2.0 - 0.5) / sd;
    let p_value = match Normal::new(0.0, 1.0) {
        Ok(normal) if z.is_finite() => (2.0 * normal.sf(z)).clamp(0.0, 1.0),
        _ => f64::NAN,
    };
    MannWhitney { u, effect_size: u / (nx * ny), p_value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // x below y everywhere but one tie: U = 0.5
        let r = mann_whitney(&[1.0, 2.0], &[2.0, 3.0, 4.0]);
        assert_eq!(r.u, 0.5);
        assert!((r.effect_size - 0.5 / 6.0).abs() < 1e-12);
        assert!(mann_whitney(&[1.0, 1.0], &[1.0]).p_value.is_nan());
    }
}
