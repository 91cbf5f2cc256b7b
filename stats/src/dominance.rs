//! Dominance analysis (Budescu 1993) of a linear regression, as in Table 8: how much
//! of the r² of mean Likert ratings each predictor group accounts for (model score,
//! pair success rate, time, frequency, source...).

use nalgebra::{DMatrix, DVector};

/// A predictor group: one column, or several for a categorical predictor given as
/// indicator columns (e.g. one per source), which enter and leave the model together.
pub struct Predictor {
    pub name: String,
    pub columns: Vec<Vec<f64>>,
}

/// The full model's r² and each group's general dominance: its mean gain in r² when
/// added to the models without it, averaged first within each model size, then over
/// sizes. The dominances add up to the full r²; `share` is each one divided by it.
#[derive(Debug, Clone, PartialEq)]
pub struct Dominance {
    pub r2: f64,
    pub general: Vec<f64>,
    pub share: Vec<f64>,
}

/// Fits all 2^p - 1 ordinary least-squares models (with an intercept) of `y` on
/// subsets of the `p` groups. Constant or collinear columns are handled by a
/// pseudo-inverse (they add nothing). Up to 16 groups.
pub fn dominance(y: &[f64], predictors: &[Predictor]) -> Result<Dominance, String> {
    let p = predictors.len();
    if p == 0 || p > 16 {
        return Err(format!("dominance analysis takes 1 to 16 predictors, not {p}"));
    }
    if let Some(bad) = predictors.iter().flat_map(|g| &g.columns).find(|c| c.len() != y.len()) {
        return Err(format!("a predictor column has {} values for {} responses", bad.len(), y.len()));
    }
    let r2: Vec<f64> = (0..1usize << p).map(|subset| r_squared(y, predictors, subset)).collect();
    let full = r2[(1 << p) - 1];
    let general: Vec<f64> = (0..p)
        .map(|i| {
            let per_size: Vec<f64> = (0..p)
                .map(|size| {
                    let gains: Vec<f64> = (0..1usize << p)
                        .filter(|s| s & (1 << i) == 0 && s.count_ones() as usize == size)
                        .map(|s| r2[s | (1 << i)] - r2[s])
                        .collect();
                    super::mean(&gains)
                })
                .collect();
            super::mean(&per_size)
        })
        .collect();
    let share = general.iter().map(|g| g / full).collect();
    Ok(Dominance { r2: full, general, share })
}

/// r² of the least-squares fit of `y` on the groups in `subset` (a bit set) plus an intercept.
fn r_squared(y: &[f64], predictors: &[Predictor], subset: usize) -> f64 {
    let columns: Vec<&Vec<f64>> =
        predictors.iter().enumerate().filter(|(i, _)| subset & (1 << i) != 0).flat_map(|(_, g)| &g.columns).collect();
    if columns.is_empty() {
        return 0.0;
    }
    let n = y.len();
    let my = super::mean(y);
    let yc = DVector::from_iterator(n, y.iter().map(|v| v - my));
    // centring every column stands in for the intercept
    let x = DMatrix::from_fn(n, columns.len(), |r, c| columns[c][r] - super::mean(columns[c]));
    let total = yc.norm_squared();
    let Ok(beta) = x.clone().svd(true, true).solve(&yc, 1e-12) else { return f64::NAN };
    let residual = (yc - x * beta).norm_squared();
    1.0 - residual / total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(name: &str, v: Vec<f64>) -> Predictor {
        Predictor { name: name.into(), columns: vec![v] }
    }

    #[test]
    fn uncorrelated_predictors_split_r2_by_their_own_r2() {
        // x1 and x2 orthogonal (and centred): each one's r² is its dominance
        let x1 = vec![1.0, -1.0, 1.0, -1.0];
        let x2 = vec![1.0, 1.0, -1.0, -1.0];
        let y: Vec<f64> = x1.iter().zip(&x2).map(|(a, b)| 2.0 * a + b).collect();
        let d = dominance(&y, &[one("a", x1), one("b", x2)]).expect("fit");
        assert!((d.r2 - 1.0).abs() < 1e-12);
        assert!((d.general[0] - 0.8).abs() < 1e-12 && (d.general[1] - 0.2).abs() < 1e-12, "{d:?}");
        let constant = dominance(&[1.0, 2.0, 4.0], &[one("c", vec![3.0; 3])]).expect("fit");
        assert!(constant.general[0].abs() < 1e-12);
    }
}
