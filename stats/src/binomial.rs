//! The exact binomial test, as scipy's `binomtest`: is a pair's success rate
//! compatible with chance (p = 1/2 for two options)?

use statrs::distribution::{Binomial, Discrete, DiscreteCDF};

/// Which departure from `p` the test looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    /// Fewer successes than `p` predicts.
    Less,
    /// More successes than `p` predicts.
    Greater,
}

/// The p-value of `successes` out of `trials` under success probability `p`. The
/// two-sided value adds the probabilities of every outcome no more likely than the
/// one observed (scipy's definition, with its relative tolerance of 1e-7).
pub fn binomial_test(successes: u64, trials: u64, p: f64, alternative: Alternative) -> f64 {
    let Ok(dist) = Binomial::new(p, trials) else { return f64::NAN };
    if successes > trials {
        return f64::NAN;
    }
    // P(X >= k)
    let at_least = |k: u64| if k == 0 { 1.0 } else { dist.sf(k - 1) };
    let value = match alternative {
        Alternative::Less => dist.cdf(successes),
        Alternative::Greater => at_least(successes),
        Alternative::TwoSided => {
            let expected = trials as f64 * p;
            let observed = dist.pmf(successes);
            let as_unlikely = |k: &u64| dist.pmf(*k) <= observed * (1.0 + 1e-7);
            if successes as f64 == expected {
                1.0
            } else if (successes as f64) < expected {
                let other_side = (expected.ceil() as u64..=trials).filter(as_unlikely).count() as u64;
                dist.cdf(successes) + at_least(trials - other_side + 1)
            } else {
                let other_side = (0..=expected.floor() as u64).filter(as_unlikely).count() as u64;
                let below = if other_side == 0 { 0.0 } else { dist.cdf(other_side - 1) };
                below + at_least(successes)
            }
        }
    };
    value.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // 0 of 5 at 1/2: (1/2)^5 each side
        assert!((binomial_test(0, 5, 0.5, Alternative::Less) - 1.0 / 32.0).abs() < 1e-12);
        assert!((binomial_test(0, 5, 0.5, Alternative::TwoSided) - 2.0 / 32.0).abs() < 1e-12);
        assert!((binomial_test(5, 5, 0.5, Alternative::Greater) - 1.0 / 32.0).abs() < 1e-12);
        assert_eq!(binomial_test(3, 6, 0.5, Alternative::TwoSided), 1.0);
        assert!(binomial_test(7, 6, 0.5, Alternative::Less).is_nan());
    }
}
