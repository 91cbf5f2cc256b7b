//! Success rates, the paper's log-time filter (Sec. 3: Tables 3-4, Fig. 1) and the
//! time-weighted human judgments of Eq. 3.

/// The share of `true`s; NaN for no answers.
pub fn success_rate(correct: &[bool]) -> f64 {
    correct.iter().filter(|&&c| c).count() as f64 / correct.len() as f64
}

/// Which answers the paper's filter keeps: those whose log response time lies within
/// one standard deviation of the mean log time (population standard deviation, as
/// numpy's `std`). A time that is not positive has no logarithm: it is dropped and
/// left out of the mean and deviation. Apply it per group (the paper: per language).
pub fn keep_by_log_time(times: &[f64]) -> Vec<bool> {
    let logs: Vec<f64> = times.iter().filter(|&&t| t > 0.0).map(|t| t.ln()).collect();
    let m = super::mean(&logs);
    let sd = (logs.iter().map(|l| (l - m).powi(2)).sum::<f64>() / logs.len() as f64).sqrt();
    times.iter().map(|&t| t > 0.0 && (t.ln() - m).abs() <= sd).collect()
}

/// Eq. 3: a human judgment weighted by time, `(max s* - s) * (+1 if correct, -1
/// otherwise)`, where `s` is the length-normalised time indicator (here log(t / N),
/// N = sentences, words or characters) and `max s*` its maximum over the answers
/// given (pass one language's answers at a time, as the paper does). Confident
/// correct answers come out high, confident wrong ones low.
pub fn time_weighted(s: &[f64], correct: &[bool]) -> Vec<f64> {
    let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    s.iter().zip(correct).map(|(s, &c)| (max - s) * if c { 1.0 } else { -1.0 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        assert_eq!(success_rate(&[true, false, true, true]), 0.75);
        assert!(success_rate(&[]).is_nan());
        // logs 0, ln 10, ln 100: mean ln 10, sd ln 10 * sqrt(2/3): only the middle one is within
        assert_eq!(keep_by_log_time(&[1.0, 10.0, 100.0, -5.0]), vec![false, true, false, false]);
        assert_eq!(time_weighted(&[1.0, 3.0, 2.0], &[true, false, false]), vec![2.0, -0.0, -1.0]);
    }
}
