//! The packed attention of [`super::attention`] for the tensors its CPU kernel does not
//! take (a GPU's, or half types), from candle's tensor ops.
//!
//! Queries whose key ranges overlap form a block (one sentence, as the scorer packs
//! them; the picked queries of one sentence in an encoder's last layer). Each block's
//! queries and keys are gathered into rows padded to the longest block, and attention
//! runs as two batched matrix products over the blocks, with a mask that keeps each
//! query to its own key range. The products come out in the model's type (cuBLAS
//! sums them in f32); the scaled scores, mask and softmax are f32 whatever the type.
//! A sentence's numbers do not depend on which other sentences share its batch except
//! through the padded length (cuBLAS may sum a longer row in another order:
//! differences at the last bit).

use std::ops::Range;

use candle_core::{DType, Tensor};

use super::heads::Heads;
use super::seen::Seen;

/// Consecutive queries whose key ranges overlap: `queries` index the queries, `keys`
/// the smallest range holding all their keys (the hull of a shared beginning and the
/// sentences that continue it).
struct Block {
    queries: Range<usize>,
    keys: Range<usize>,
}

fn blocks(keys: &[Seen]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for (i, range) in keys.iter().map(Seen::hull).enumerate() {
        match blocks.last_mut() {
            Some(b) if range.start < b.keys.end && range.end > b.keys.start => {
                b.queries.end = i + 1;
                b.keys = b.keys.start.min(range.start)..b.keys.end.max(range.end);
            }
            _ => blocks.push(Block { queries: i..i + 1, keys: range }),
        }
    }
    blocks
}

/// `softmax(scale · q kᵀ) v` per head, query i seeing the tokens `keys[i]`; shapes as in
/// [`super::attention`], any device and floating type.
pub(crate) fn attention(q: &Tensor, k: &Tensor, v: &Tensor, heads: Heads, keys: &[Seen]) -> candle_core::Result<Tensor> {
    let Heads { query, kv, dim, scale, softcap } = heads;
    let tokens = k.dim(0)?;
    if kv == 0 || query % kv != 0 || keys.len() != q.dim(0)? || keys.iter().any(|r| !r.fits(tokens)) {
        candle_core::bail!("attention: {query} query and {kv} key/value heads, {} key ranges for {} queries", keys.len(), q.dim(0)?);
    }
    let blocks = blocks(keys);
    let n = blocks.len();
    let rows = blocks.iter().map(|b| b.queries.len()).max().unwrap_or(1);
    let span = blocks.iter().map(|b| b.keys.len()).max().unwrap_or(1);
    // padded places gather token 0 and are masked; a padded query row sees one key so
    // that its softmax is finite (it is dropped at the end)
    let (mut q_at, mut k_at, mut out_at) = (vec![0u32; n * rows], vec![0u32; n * span], Vec::with_capacity(keys.len()));
    let mut mask = vec![f32::NEG_INFINITY; n * rows * span];
    for (b, block) in blocks.iter().enumerate() {
        for (j, key) in block.keys.clone().enumerate() {
            k_at[b * span + j] = key as u32;
        }
        for j in 0..rows {
            let row = b * rows + j;
            let at = |r: &Range<usize>| row * span + r.start - block.keys.start..row * span + r.end - block.keys.start;
            match block.queries.clone().nth(j) {
                Some(i) => {
                    q_at[row] = i as u32;
                    out_at.push(row as u32);
                    for seen in [&keys[i].before, &keys[i].own].into_iter().filter(|r| !r.is_empty()) {
                        mask[at(seen)].fill(0.0);
                    }
                }
                None => mask[row * span] = 0.0,
            }
        }
    }
    let device = q.device();
    let index = |at: Vec<u32>| {
        let len = at.len();
        Tensor::from_vec(at, len, device)
    };
    // [blocks, heads, rows, dim]
    let split = |t: &Tensor, at: Vec<u32>, len: usize, h: usize| -> candle_core::Result<Tensor> {
        t.index_select(&index(at)?, 0)?.reshape((n, len, h, dim))?.transpose(1, 2)?.contiguous()
    };
    let group = query / kv;
    let repeat = |t: Tensor| -> candle_core::Result<Tensor> {
        match group {
            1 => Ok(t),
            _ => t.unsqueeze(2)?.broadcast_as((n, kv, group, span, dim))?.contiguous()?.reshape((n, query, span, dim)),
        }
    };
    let qb = split(q, q_at, rows, query)?;
    let kb = repeat(split(k, k_at.clone(), span, kv)?)?;
    let vb = repeat(split(v, k_at, span, kv)?)?;
    let mut scores = (qb.matmul(&kb.t()?.contiguous()?)?.to_dtype(DType::F32)? * f64::from(scale))?;
    if let Some(cap) = softcap {
        scores = ((scores / f64::from(cap))?.tanh()? * f64::from(cap))?;
    }
    let mask = Tensor::from_vec(mask, (n, 1, rows, span), device)?;
    let weights = candle_nn::ops::softmax_last_dim(&scores.broadcast_add(&mask)?)?.to_dtype(q.dtype())?;
    let out = weights.matmul(&vb)?.transpose(1, 2)?.contiguous()?.reshape((n * rows, query * dim))?;
    out.index_select(&index(out_at)?, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_group_by_overlapping_key_ranges() {
        // two causal sentences of 3 and 2 tokens, then an encoder-style pick pair
        let keys = [0..1, 0..2, 0..3, 3..4, 3..5, 5..9, 5..9].map(Seen::from);
        let b = blocks(&keys);
        let got: Vec<_> = b.iter().map(|b| (b.queries.clone(), b.keys.clone())).collect();
        assert_eq!(got, vec![(0..3, 0..3), (3..5, 3..5), (5..7, 5..9)]);
    }
}
