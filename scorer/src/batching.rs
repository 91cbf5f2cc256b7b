//! Length bucketing shared by every model: rows sorted by width and cut into
//! batches whose padded size (rows x widest row) stays within a token budget.

use candle_core::Device;
use rayon::prelude::*;

use crate::ScorerError;

/// Tokens per forward pass on a GPU, whatever the model: a 7B model's widest
/// activations at 8192 tokens take 8192 x 11008 x 2 bytes (172 MiB), and its matrix
/// products run near the GPU's peak from about 4096 rows on.
pub const GPU_BATCH_TOKENS: usize = 8192;

/// The tokens per forward pass on `device`: `cpu` there (the model's own budget).
pub(crate) fn tokens_per_pass(device: &Device, cpu: usize) -> usize {
    if device.is_cpu() {
        cpu
    } else {
        GPU_BATCH_TOKENS
    }
}

/// Indices of `widths`, sorted by width and grouped into batches of at most
/// `budget` padded tokens (a row wider than the budget goes alone).
pub(crate) fn by_length(widths: &[usize], budget: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..widths.len()).collect();
    order.sort_by_key(|&i| widths[i]);
    let mut batches = Vec::new();
    let mut rest = order.as_slice();
    while !rest.is_empty() {
        // sorted ascending, so the last row of a batch sets its width
        let rows = (1..=rest.len()).take_while(|&n| n == 1 || n * widths[rest[n - 1]] <= budget).last().unwrap_or(1);
        let (now, later) = rest.split_at(rows);
        batches.push(now.to_vec());
        rest = later;
    }
    batches
}

/// Batches that run at once on the CPU (see [`each_batch`]).
const BATCHES_AT_ONCE: usize = 2;

/// `run` on every batch, the results in the order of `batches`. On the CPU two
/// batches run at once on the thread pool: each batch's matrix products are split
/// over the threads as before, and while one batch is in a step that runs on one
/// thread (a softmax, a norm, packing a weight) the idle thread takes work of the
/// other (5-8 % more contexts a second for a bert-base-sized model on 2 cores). A
/// `wide` batch (a row over the token budget, which [`by_length`] sends alone) runs
/// alone too, so that the largest activations are never held twice; more batches at
/// once would hold more activations for little more. A GPU runs them one after the
/// other. Each batch computes exactly as it would alone, so the scores do not depend
/// on this.
pub(crate) fn each_batch<B: Sync, T: Send>(
    device: &Device,
    batches: &[B],
    wide: impl Fn(&B) -> bool,
    run: impl Fn(&B) -> Result<T, ScorerError> + Sync,
) -> Result<Vec<T>, ScorerError> {
    if !device.is_cpu() {
        return batches.iter().map(run).collect();
    }
    let mut out = Vec::with_capacity(batches.len());
    let mut rest = batches;
    while !rest.is_empty() {
        let together = rest.iter().take(BATCHES_AT_ONCE).take_while(|b| !wide(b)).count().max(1);
        let (now, later) = rest.split_at(together);
        out.extend(now.par_iter().map(&run).collect::<Result<Vec<T>, ScorerError>>()?);
        rest = later;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_every_row_once_within_the_budget() {
        let widths = [5, 1, 9, 3, 3, 20];
        let batches = by_length(&widths, 10);
        let mut seen: Vec<usize> = batches.concat();
        seen.sort_unstable();
        assert_eq!(seen, (0..widths.len()).collect::<Vec<_>>());
        for b in &batches {
            let widest = b.iter().map(|&i| widths[i]).max().unwrap_or(0);
            assert!(b.len() == 1 || b.len() * widest <= 10, "{b:?}");
        }
        assert_eq!(batches.last(), Some(&vec![5]), "the over-wide row goes alone, last");
    }

    #[test]
    fn batches_come_back_in_order_with_a_wide_one_alone() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (running, most, beside_wide) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
        let wide = |&b: &usize| b == 3;
        let run = |&b: &usize| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(20));
            if wide(&b) && running.load(Ordering::SeqCst) > 1 {
                beside_wide.fetch_add(1, Ordering::SeqCst);
            }
            running.fetch_sub(1, Ordering::SeqCst);
            Ok(b * 10)
        };
        let batches: Vec<usize> = (0..7).collect();
        let out = each_batch(&Device::Cpu, &batches, wide, run).expect("no error");
        assert_eq!(out, vec![0, 10, 20, 30, 40, 50, 60]);
        assert!(most.load(Ordering::SeqCst) <= BATCHES_AT_ONCE);
        assert_eq!(beside_wide.load(Ordering::SeqCst), 0, "the wide batch ran beside another");
        let failing = each_batch(
            &Device::Cpu,
            &batches,
            |_| false,
            |&b| {
                if b == 4 {
                    Err(ScorerError::Input("four".into()))
                } else {
                    Ok(b)
                }
            },
        );
        assert!(matches!(failing, Err(ScorerError::Input(m)) if m == "four"));
    }
}
