//! The measures of 001_bf5d15b61b58df06.txt (Sec. 2.4) and the strata of Tables 6, 7
//! and 10: precision at 1, the rank score RS(L, k) = (L - k) / (L - 1), word
//! frequency bands and depth ranges.

/// The rank (1 = first) of candidate `correct` when `scores` are sorted highest
/// first. Ties count against it: a candidate scored as high as the correct one is
/// ranked before it, so a model that cannot tell candidates apart gets no credit.
/// A NaN score ranks below every number.
pub fn rank_of(scores: &[f64], correct: usize) -> usize {
    let mine = scores[correct];
    let above = |s: f64| if mine.is_nan() { !s.is_nan() } else { s >= mine };
    1 + scores.iter().enumerate().filter(|&(i, &s)| i != correct && above(s)).count()
}

/// RS(L, k) = (L - k) / (L - 1): 1 when the correct item is first, 0 when last.
pub fn rank_score(candidates: usize, rank: usize) -> f64 {
    (candidates as f64 - rank as f64) / (candidates as f64 - 1.0)
}

/// P@1 (in percent, as the paper's tables) and mean RS over ranked instances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub instances: usize,
    pub p_at_1: f64,
    pub rank_score: f64,
}

impl Summary {
    /// Summarises (number of candidates L, rank k of the correct one) pairs; NaN
    /// measures when there are none.
    pub fn of(ranked: &[(usize, usize)]) -> Summary {
        let n = ranked.len() as f64;
        Summary {
            instances: ranked.len(),
            p_at_1: 100.0 * ranked.iter().filter(|(_, k)| *k == 1).count() as f64 / n,
            rank_score: ranked.iter().map(|&(l, k)| rank_score(l, k)).sum::<f64>() / n,
        }
    }

    /// What guessing at random is expected to score on the same instances: P@1 is
    /// the mean of 1/L, and RS is 0.5 whatever L is (the mean of (L - k)/(L - 1) over
    /// k = 1..L).
    pub fn random(candidates: &[usize]) -> Summary {
        let n = candidates.len() as f64;
        let expected_rs = |l: usize| (1..=l).map(|k| rank_score(l, k)).sum::<f64>() / l as f64;
        Summary {
            instances: candidates.len(),
            p_at_1: 100.0 * candidates.iter().map(|&l| 1.0 / l as f64).sum::<f64>() / n,
            rank_score: candidates.iter().map(|&l| expected_rs(l)).sum::<f64>() / n,
        }
    }
}

/// The frequency strata of Tables 7 and 10: rare (fewer than 10 occurrences),
/// medium (10 to 99) and frequent (100 or more) in the paper's corpus, the
/// Westbury Wikipedia Corpus of about a billion words. Here the count is
/// wordfreq's frequency per billion words, 10^Zipf, so the bands are
/// Zipf < 1, 1 <= Zipf < 2 and Zipf >= 2; a word wordfreq does not know is rare.
/// (Per million words instead, almost every WordNet word would be rare.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FrequencyBand {
    Rare,
    Medium,
    Frequent,
}

impl FrequencyBand {
    pub const ALL: [FrequencyBand; 3] = [FrequencyBand::Rare, FrequencyBand::Medium, FrequencyBand::Frequent];

    pub fn of(zipf: Option<f64>) -> FrequencyBand {
        match zipf {
            Some(z) if z >= 2.0 => FrequencyBand::Frequent,
            Some(z) if z >= 1.0 => FrequencyBand::Medium,
            _ => FrequencyBand::Rare,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FrequencyBand::Rare => "rare",
            FrequencyBand::Medium => "medium",
            FrequencyBand::Frequent => "frequent",
        }
    }
}

/// The depth ranges of Table 6 (and 0-2 above them, which verbs reach).
pub const DEPTH_RANGES: [(u32, u32); 6] = [(0, 2), (3, 5), (6, 8), (9, 11), (12, 14), (15, u32::MAX)];

/// The label of the range `depth` falls in: "6-8", "15+".
pub fn depth_range(depth: u32) -> String {
    match DEPTH_RANGES.iter().find(|(lo, hi)| (*lo..=*hi).contains(&depth)) {
        Some((lo, u32::MAX)) => format!("{lo}+"),
        Some((lo, hi)) => format!("{lo}-{hi}"),
        None => depth.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_ties_against_the_correct_candidate() {
        assert_eq!(rank_of(&[-1.0, -3.0, -2.0], 0), 1);
        assert_eq!(rank_of(&[-1.0, -3.0, -2.0], 1), 3);
        assert_eq!(rank_of(&[-1.0, -3.0, -2.0], 2), 2);
        assert_eq!(rank_of(&[0.5, 0.5, 0.5, 0.5], 2), 4);
        assert_eq!(rank_of(&[f64::NAN, -9.0, f64::NAN], 0), 2);
        assert_eq!(rank_of(&[f64::NAN, -9.0], 1), 1);
    }

    #[test]
    fn rank_score_and_precision_by_hand() {
        assert_eq!(rank_score(5, 1), 1.0);
        assert_eq!(rank_score(5, 5), 0.0);
        assert!((rank_score(7, 3) - 4.0 / 6.0).abs() < 1e-12);
        // three instances: first of 5, third of 7, last of 10
        let s = Summary::of(&[(5, 1), (7, 3), (10, 10)]);
        assert_eq!(s.instances, 3);
        assert!((s.p_at_1 - 100.0 / 3.0).abs() < 1e-12);
        assert!((s.rank_score - (1.0 + 4.0 / 6.0 + 0.0) / 3.0).abs() < 1e-12);
        assert!(Summary::of(&[]).p_at_1.is_nan());
    }

    #[test]
    fn random_guessing_expects_half_the_rank_score() {
        let r = Summary::random(&[5, 10, 404]);
        assert!((r.rank_score - 0.5).abs() < 1e-12);
        assert!((r.p_at_1 - 100.0 * (0.2 + 0.1 + 1.0 / 404.0) / 3.0).abs() < 1e-12);
    }

    #[test]
    fn strata_by_frequency_and_depth() {
        assert_eq!(FrequencyBand::of(None), FrequencyBand::Rare);
        assert_eq!(FrequencyBand::of(Some(0.99)), FrequencyBand::Rare);
        assert_eq!(FrequencyBand::of(Some(1.0)), FrequencyBand::Medium);
        assert_eq!(FrequencyBand::of(Some(1.99)), FrequencyBand::Medium);
        assert_eq!(FrequencyBand::of(Some(2.0)), FrequencyBand::Frequent);
        assert_eq!(depth_range(0), "0-2");
        assert_eq!(depth_range(8), "6-8");
        assert_eq!(depth_range(14), "12-14");
        assert_eq!(depth_range(19), "15+");
    }
}
