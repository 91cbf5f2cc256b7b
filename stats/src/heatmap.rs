//! Two-dimensional counts for the Likert-vs-score heatmap (Fig. 2).

/// Counts of (x, y) points per cell, `counts[i][j]` for x in bin i and y in bin j,
/// with numpy's `histogram2d` convention: bin i is `[edges[i], edges[i + 1])`, the
/// last bin also takes its right edge; points outside the edges are not counted.
pub fn heatmap(x: &[f64], y: &[f64], x_edges: &[f64], y_edges: &[f64]) -> Vec<Vec<u64>> {
    let bins = |e: &[f64]| e.len().saturating_sub(1);
    let mut counts = vec![vec![0u64; bins(y_edges)]; bins(x_edges)];
    for (&a, &b) in x.iter().zip(y) {
        if let (Some(i), Some(j)) = (bin(a, x_edges), bin(b, y_edges)) {
            counts[i][j] += 1;
        }
    }
    counts
}

/// The bin of `v` among increasing `edges`.
fn bin(v: f64, edges: &[f64]) -> Option<usize> {
    let last = edges.len().checked_sub(2)?;
    if v < edges[0] || v > edges[last + 1] || v.is_nan() {
        return None;
    }
    // the number of edges <= v, minus one: the bin whose left edge is the last one at or below v
    Some((edges.partition_point(|&e| e <= v) - 1).min(last))
}

/// `n + 1` evenly spaced edges from `lo` to `hi`.
pub fn even_edges(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..=n).map(|i| lo + (hi - lo) * i as f64 / n as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_follow_numpy() {
        let e = [0.0, 1.0, 2.0];
        assert_eq!(heatmap(&[0.0, 1.0, 2.0, 2.5, -1.0], &[0.5, 0.5, 2.0, 1.0, 1.0], &e, &e), vec![vec![1, 0], vec![1, 1]]);
        assert_eq!(even_edges(1.0, 5.0, 4), vec![1.0, 2.0, 3.0, 4.0, 5.0]);
    }
}
