//! Matthews correlation between model predictions and human correctness (Table 5),
//! and Spearman's rho between model scores and time-weighted judgments (Table 7).

use statrs::distribution::{ContinuousCDF, StudentsT};

/// Matthews correlation coefficient of two binary series (sklearn's
/// `matthews_corrcoef`): 0 when either series is constant, where it is undefined.
pub fn matthews(predicted: &[bool], actual: &[bool]) -> f64 {
    let (mut tp, mut tn, mut fp, mut fn_) = (0f64, 0f64, 0f64, 0f64);
    for (&p, &a) in predicted.iter().zip(actual) {
        match (p, a) {
            (true, true) => tp += 1.0,
            (false, false) => tn += 1.0,
            (true, false) => fp += 1.0,
            (false, true) => fn_ += 1.0,
        }
    }
    let denominator = ((tp + fp) * (tp + fn_) * (tn + fp) * (tn + fn_)).sqrt();
    if denominator == 0.0 {
        0.0
    } else {
        (tp * tn - fp * fn_) / denominator
    }
}

/// Pearson's correlation; NaN when either series is constant.
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (super::mean(x), super::mean(y));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    if sxx == 0.0 || syy == 0.0 {
        return f64::NAN;
    }
    (sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0)
}

/// Spearman's rho and its two-sided p-value from Student's t with n - 2 degrees of
/// freedom (scipy's `spearmanr`). NaN for a constant series or fewer than 3 pairs.
pub fn spearman(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len().min(y.len());
    let rho = pearson(&super::average_ranks(&x[..n]), &super::average_ranks(&y[..n]));
    if rho.is_nan() || n < 3 {
        return (rho, f64::NAN);
    }
    let df = (n - 2) as f64;
    if rho.abs() == 1.0 {
        return (rho, 0.0);
    }
    let t = rho * (df / ((1.0 + rho) * (1.0 - rho))).sqrt();
    let p = match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) => 2.0 * dist.sf(t.abs()),
        Err(_) => f64::NAN,
    };
    (rho, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        let (t, f) = (true, false);
        // tp 2, tn 1, fp 1, fn 0: (2 - 0) / sqrt(3 * 2 * 2 * 1)
        assert!((matthews(&[t, t, t, f], &[t, t, f, f]) - 2.0 / 12f64.sqrt()).abs() < 1e-12);
        assert_eq!(matthews(&[t, f, t], &[t, t, t]), 0.0, "all correct: undefined, 0");
        let (rho, _) = spearman(&[1.0, 2.0, 3.0, 4.0], &[10.0, 20.0, 40.0, 30.0]);
        assert!((rho - 0.8).abs() < 1e-12);
        assert!(spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).0.is_nan());
    }
}
