//! Agreement among the people who answered the same items: Krippendorff's alpha
//! and the split-half reliability of item success rates (Spearman-Brown). Checked
//! against the `krippendorff` PyPI package and numpy by
//! stats/fixtures/make_agreement_reference.py.

use super::correlation::pearson;

/// How the values of [`krippendorff_alpha`] differ from one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Categories: two values agree or they do not (the choice game's words).
    Nominal,
    /// Ranks: a disagreement weighs by how many values lie between (Likert ratings).
    Ordinal,
}

/// Krippendorff's alpha over `units`, each the values its coders gave (a coder who
/// did not rate a unit gives none). Units with fewer than two values carry no
/// pairs and are left out. 1 is perfect agreement, 0 what chance gives; NaN when
/// no unit has two values or every value is the same.
pub fn krippendorff_alpha(units: &[Vec<f64>], level: Level) -> f64 {
    let mut values: Vec<f64> = units.iter().filter(|u| u.len() >= 2).flatten().copied().collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let index = |v: f64| values.partition_point(|&x| x < v);
    let c = values.len();
    // the coincidence matrix: each ordered pair of values within a unit of m values counts 1 / (m - 1)
    let mut coincidences = vec![vec![0.0; c]; c];
    for unit in units.iter().filter(|u| u.len() >= 2) {
        let weight = 1.0 / (unit.len() - 1) as f64;
        for (i, &a) in unit.iter().enumerate() {
            for (j, &b) in unit.iter().enumerate() {
                if i != j {
                    coincidences[index(a)][index(b)] += weight;
                }
            }
        }
    }
    let marginals: Vec<f64> = coincidences.iter().map(|row| row.iter().sum()).collect();
    let n: f64 = marginals.iter().sum();
    let distance = |a: usize, b: usize| -> f64 {
        match level {
            Level::Nominal => f64::from(u8::from(a != b)),
            Level::Ordinal => {
                let (lo, hi) = (a.min(b), a.max(b));
                let between: f64 = marginals[lo..=hi].iter().sum::<f64>() - (marginals[a] + marginals[b]) / 2.0;
                between * between
            }
        }
    };
    let (mut observed, mut expected) = (0.0, 0.0);
    for a in 0..c {
        for b in 0..c {
            let d = distance(a, b);
            observed += coincidences[a][b] * d;
            expected += marginals[a] * marginals[b] * d;
        }
    }
    if expected == 0.0 {
        return f64::NAN;
    }
    1.0 - (n - 1.0) * observed / expected
}

/// Split-half reliability of the items' success rates: each item's answers, in the
/// order given, are split into odd and even positions; the success rates of the two
/// halves are correlated over the items (Pearson) and stepped up to the whole
/// length by Spearman-Brown, 2r / (1 + r). Items with fewer than two answers are left
/// out; NaN with fewer than three items left, no variance in a half, or halves that
/// correlate negatively (Spearman-Brown steps a negative r below -1, which is no
/// reliability).
pub fn split_half(items: &[Vec<bool>]) -> f64 {
    let rate = |answers: &mut dyn Iterator<Item = &bool>| {
        let (n, right) = answers.fold((0usize, 0usize), |(n, right), &c| (n + 1, right + usize::from(c)));
        right as f64 / n as f64
    };
    let (odd, even): (Vec<f64>, Vec<f64>) = items
        .iter()
        .filter(|answers| answers.len() >= 2)
        .map(|answers| (rate(&mut answers.iter().step_by(2)), rate(&mut answers.iter().skip(1).step_by(2))))
        .unzip();
    if odd.len() < 3 {
        return f64::NAN;
    }
    let r = pearson(&odd, &even);
    if r < 0.0 {
        return f64::NAN;
    }
    2.0 * r / (1.0 + r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_agreement_is_one_and_a_textbook_case_matches() {
        let same = vec![vec![1.0, 1.0, 1.0], vec![2.0, 2.0], vec![1.0, 1.0]];
        assert_eq!(krippendorff_alpha(&same, Level::Nominal), 1.0);
        assert!(krippendorff_alpha(&[vec![1.0, 1.0]], Level::Nominal).is_nan(), "one value only");
        // two coders, four units, one disagreement: n = 8, o(1,2) = o(2,1) = 1,
        // n1 = 5, n2 = 3: alpha = 1 - 7 * 2 / (2 * 5 * 3) = 0.5333...
        let units = vec![vec![1.0, 1.0], vec![1.0, 2.0], vec![2.0, 2.0], vec![1.0, 1.0]];
        assert!((krippendorff_alpha(&units, Level::Nominal) - (1.0 - 14.0 / 30.0)).abs() < 1e-12);
    }

    #[test]
    fn halves_that_agree_are_reliable() {
        let items: Vec<Vec<bool>> = (0..10).map(|i| (0..8).map(|j| j < i % 5 * 2).collect()).collect();
        assert!(split_half(&items) > 0.5, "{}", split_half(&items));
        assert!(split_half(&items[..2]).is_nan(), "two items");
    }
}
