//! The statistics that compare people with models, as pure functions over plain
//! slices (the server gathers the rows; nothing here touches a database, a file or
//! the network): the game's engine uses the adaptive serving rule, the research
//! side everything. Equation and table numbers refer to 004_fd0640cd187f2eac.txt.
//! Each function is checked against scipy / scikit-learn / girth values computed by
//! the scripts in stats/fixtures/.
//!
//! - [`adaptive`]: how many answers each serving policy needs to learn item difficulties;
//! - [`agreement`]: Krippendorff's alpha and split-half reliability (Spearman-Brown);
//! - [`rates`]: success rates and the log-time filter (Tables 3-4, Fig. 1), and the
//!   time-weighted judgments of Eq. 3;
//! - [`binomial`]: the exact binomial test (word pairs people cannot tell apart);
//! - [`correlation`]: Matthews correlation (Table 5) and Spearman's rho (Table 7);
//! - [`mann_whitney`]: Mann-Whitney U with its common-language effect size (Table 6);
//! - [`dominance`]: general dominance of predictor groups in a linear regression (Table 8);
//! - [`bootstrap`]: percentile confidence intervals for any of the above;
//! - [`heatmap`]: two-dimensional counts (Fig. 2);
//! - [`irt`]: item difficulty, discrimination and ability (1PL, 2PL).
//!
//! Where a statistic is undefined (a constant sample for Spearman, no variance at all
//! for Mann-Whitney) the result is NaN, as scipy's is; MCC is 0 there, as sklearn's is.

#![forbid(unsafe_code)]
#![allow(
    clippy::indexing_slicing,
    reason = "the statistics index the rows and columns of tables they built themselves (ranks, bootstrap resamples, matrix cells); an index out of range there is a bug of ours, not bad input"
)]

pub mod adaptive;
pub mod agreement;
pub mod binomial;
pub mod bootstrap;
pub mod correlation;
pub mod dominance;
pub mod heatmap;
pub mod irt;
pub mod mann_whitney;
pub mod rates;

/// Ranks from 1, ties sharing the average of their ranks (scipy's `rankdata`).
pub(crate) fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    ranks
}

/// The arithmetic mean; NaN for no values.
pub(crate) fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_their_average_rank() {
        assert_eq!(average_ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        assert!(average_ranks(&[]).is_empty());
    }
}
