//! Multi-head self-attention over sentences packed end to end, as one candle CPU op
//! (other devices and types take [`super::padded_attention`]), for the encoders
//! (every token sees its whole sentence) and the decoders (a token sees the ones
//! before it, or a sliding window of them) alike.
//!
//! Queries, keys and values stay in the `[tokens, hidden]` layout the projections
//! produce, with no padding: each query attends to a range of token indices (its own
//! sentence, or the part of it that it may see). Done with candle's tensor ops this
//! took a padded copy and a head-major transpose of each of the three inputs, a mask,
//! a softmax and two batched matrix products of many tiny matrices per layer; for
//! the short sentences of the game the copies cost more than the arithmetic.
//!
//! Each query is computed alone, from its own keys in a fixed order, so a sentence
//! gets the same numbers whatever other sentences share its batch. A query may also
//! see a second, earlier range first (a beginning that several sentences share and
//! that was run once, [`Seen::before`]); it then reads the same keys in the same
//! order as if its sentence had been packed whole, and gets the same numbers.

use candle_core::{CpuStorage, CustomOp3, DType, Layout, Shape, Tensor};
use rayon::prelude::*;

use super::fast_math::exp_negative;
pub(crate) use super::heads::Heads;
pub(crate) use super::seen::Seen;

/// `softmax(scale · q kᵀ) v` per head, where query i sees the keys (and values) of the
/// token indices `keys[i]`. `q` is `[queries, query heads x dim]`, `k` and `v` are
/// `[tokens, kv heads x dim]`; the result is `[queries, query heads x dim]`. Contiguous
/// f32 tensors on the CPU take this module's kernel.
pub(crate) fn attention(q: &Tensor, k: &Tensor, v: &Tensor, heads: Heads, keys: &[Seen]) -> candle_core::Result<Tensor> {
    if q.device().is_cpu() && [q, k, v].iter().all(|t| t.dtype() == DType::F32) {
        q.apply_op3_no_bwd(k, v, &PackedAttention { heads, keys })
    } else {
        super::padded_attention::attention(q, k, v, heads, keys)
    }
}

struct PackedAttention<'a> {
    heads: Heads,
    keys: &'a [Seen],
}

fn contiguous<'s>(storage: &'s CpuStorage, layout: &Layout, what: &str) -> candle_core::Result<&'s [f32]> {
    match (storage, layout.contiguous_offsets(), layout.dims()) {
        (CpuStorage::F32(data), Some((start, end)), [_, _]) => Ok(&data[start..end]),
        _ => candle_core::bail!("attention: {what} must be a contiguous 2-D f32 tensor"),
    }
}

impl CustomOp3 for PackedAttention<'_> {
    fn name(&self) -> &'static str {
        "packed-attention"
    }

    fn cpu_fwd(
        &self,
        qs: &CpuStorage,
        ql: &Layout,
        ks: &CpuStorage,
        kl: &Layout,
        vs: &CpuStorage,
        vl: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let (q, k, v) = (contiguous(qs, ql, "q")?, contiguous(ks, kl, "k")?, contiguous(vs, vl, "v")?);
        let Heads { query, kv, dim, .. } = self.heads;
        let (queries, width) = ql.shape().dims2()?;
        let (tokens, kv_width) = kl.shape().dims2()?;
        if kl.shape() != vl.shape() || self.keys.len() != queries {
            candle_core::bail!(
                "attention: q {:?}, k {:?}, v {:?} and {} key ranges do not fit",
                ql.shape(),
                kl.shape(),
                vl.shape(),
                self.keys.len()
            );
        }
        if kv == 0 || query % kv != 0 || width != query * dim || kv_width != kv * dim {
            candle_core::bail!("attention: {query} query and {kv} key/value heads of width {dim} do not fit q {width} and k {kv_width}");
        }
        if self.keys.iter().any(|r| !r.fits(tokens)) {
            candle_core::bail!("attention: a key range is empty or outside the {tokens} tokens");
        }
        let group = query / kv;
        let mut out = vec![0f32; queries * width];
        out.par_chunks_mut(width).zip(q.par_chunks(width)).zip(self.keys).for_each(|((out, q), keys)| {
            for h in 0..query {
                let part = h * dim..(h + 1) * dim;
                let at = (h / group) * dim;
                attend(&q[part.clone()], k, v, keys, (kv_width, at), self.heads, &mut out[part]);
            }
        });
        Ok((CpuStorage::F32(out), Shape::from((queries, width))))
    }
}

/// One query and one head: `out = Σ_j softmax(scale · q·k_j)_j v_j` over the key rows
/// `keys`, reading each row's `[at, at + d)` columns of the `width`-wide `k` and `v`.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+fma", "x86_64+avx2+fma"))]
fn attend(q: &[f32], k: &[f32], v: &[f32], keys: &Seen, (width, at): (usize, usize), heads: Heads, out: &mut [f32]) {
    let d = q.len();
    let row = |m, j| columns(m, j * width + at, d);
    let mut weights: Vec<f32> = keys.indices().map(|j| dot(q, row(k, j)) * heads.scale).collect();
    if let Some(cap) = heads.softcap {
        for w in &mut weights {
            *w = cap * (*w / cap).tanh();
        }
    }
    let max = weights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for w in &mut weights {
        *w = exp_negative(*w - max);
        total += *w;
    }
    for (j, w) in keys.indices().zip(weights) {
        let w = w / total;
        for (o, x) in out.iter_mut().zip(row(v, j)) {
            *o += w * x;
        }
    }
}

fn columns(m: &[f32], start: usize, len: usize) -> &[f32] {
    &m[start..start + len]
}

/// Dot product in eight running sums, so that it vectorizes.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            sums[i] += x[i] * y[i];
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::super::padded_attention::attention as padded;
    use super::*;
    use candle_core::{Device, D};

    /// Padded attention with candle's own ops, one sentence at a time.
    fn reference(q: &Tensor, k: &Tensor, v: &Tensor, heads: usize, sentence: Range<usize>) -> candle_core::Result<Tensor> {
        let (n, hidden) = (sentence.len(), q.dim(1)?);
        let d = hidden / heads;
        let split = |t: Tensor| t.narrow(0, sentence.start, n)?.reshape((n, heads, d))?.transpose(0, 1)?.contiguous();
        let (q, k, v) = (split(q.clone())?, split(k.clone())?, split(v.clone())?);
        let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?;
        let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
        weights.matmul(&v)?.transpose(0, 1)?.reshape((n, hidden))
    }

    #[test]
    fn packed_sentences_attend_like_each_sentence_alone() -> candle_core::Result<()> {
        let (heads, hidden, device) = (3, 24, Device::Cpu);
        let sentences = [0..5, 5..6, 6..17];
        let tokens = 17;
        let t = || Tensor::rand(-2f32, 2f32, (tokens, hidden), &device);
        let (q, k, v) = (t()?, t()?, t()?);
        let keys: Vec<Seen> = sentences.iter().flat_map(|s| s.clone().map(move |_| s.clone().into())).collect();
        let packed = attention(&q, &k, &v, Heads::plain(heads, hidden), &keys)?;
        for s in &sentences {
            let alone = reference(&q, &k, &v, heads, s.clone())?;
            let ours = packed.narrow(0, s.start, s.len())?;
            let diff = (ours - alone)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
            assert!(diff < 1e-5, "sentence {s:?}: largest difference {diff}");
        }
        // a subset of queries gives the same rows
        let some = Tensor::new(&[3u32, 5, 16], &device)?;
        let picked = attention(&q.index_select(&some, 0)?, &k, &v, Heads::plain(heads, hidden), &[0..5, 5..6, 6..17].map(Seen::from))?;
        let diff = (picked - packed.index_select(&some, 0)?)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
        assert!(diff < 1e-6, "subset: largest difference {diff}");
        Ok(())
    }

    /// Two query heads per key/value head attend like four heads whose keys and values
    /// repeat each of the two; a soft cap bends the scores before the softmax.
    #[test]
    fn grouped_heads_share_keys_and_values() -> candle_core::Result<()> {
        let device = Device::Cpu;
        let (tokens, dim) = (6, 4);
        let q = Tensor::rand(-2f32, 2f32, (tokens, 4 * dim), &device)?;
        let (k, v) = (Tensor::rand(-2f32, 2f32, (tokens, 2 * dim), &device)?, Tensor::rand(-2f32, 2f32, (tokens, 2 * dim), &device)?);
        let repeat = |t: &Tensor| -> candle_core::Result<Tensor> {
            let halves = [t.narrow(1, 0, dim)?, t.narrow(1, dim, dim)?];
            Tensor::cat(&[&halves[0], &halves[0], &halves[1], &halves[1]], 1)
        };
        let causal: Vec<Seen> = (0..tokens).map(|i| (0..i + 1).into()).collect();
        let grouped = Heads { query: 4, kv: 2, dim, scale: 0.3, softcap: None };
        let full = Heads { kv: 4, ..grouped };
        let ours = attention(&q, &k, &v, grouped, &causal)?;
        let theirs = attention(&q, &repeat(&k)?.contiguous()?, &repeat(&v)?.contiguous()?, full, &causal)?;
        let diff = (ours - &theirs)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
        assert!(diff < 1e-6, "largest difference {diff}");
        let capped = attention(&q, &k, &v, Heads { softcap: Some(0.5), ..grouped }, &causal)?;
        let diff = (capped - theirs)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
        assert!(diff > 1e-3, "the cap changes the weights");
        Ok(())
    }

    /// Two causal sentences that begin alike, packed as their shared beginning once
    /// and then each one's rest, attend exactly as each packed whole; the GPU's path
    /// agrees.
    #[test]
    fn a_shared_beginning_attends_as_the_whole_sentence() -> candle_core::Result<()> {
        let device = Device::Cpu;
        let (dim, heads) = (4, Heads { query: 4, kv: 2, dim: 4, scale: 0.4, softcap: None });
        let t = |rows: usize, width: usize| Tensor::rand(-2f32, 2f32, (rows, width), &device);
        // beginning of 3 tokens, rests of 2 and 4: packed [b0 b1 b2 | x0 x1 | y0 y1 y2 y3]
        let (q, k, v) = (t(9, 4 * dim)?, t(9, 2 * dim)?, t(9, 2 * dim)?);
        let shared: Vec<Seen> = (0..3)
            .map(|i| (0..i + 1).into())
            .chain((3..5).map(|i| Seen { before: 0..3, own: 3..i + 1 }))
            .chain((5..9).map(|i| Seen { before: 0..3, own: 5..i + 1 }))
            .collect();
        let packed = attention(&q, &k, &v, heads, &shared)?;
        for (rest, len) in [(3u32, 2usize), (5, 4)] {
            let whole = Tensor::new([0u32, 1, 2].into_iter().chain(rest..rest + len as u32).collect::<Vec<_>>().as_slice(), &device)?;
            let pick = |m: &Tensor| m.index_select(&whole, 0);
            let causal: Vec<Seen> = (0..3 + len).map(|i| (0..i + 1).into()).collect();
            let alone = attention(&pick(&q)?, &pick(&k)?, &pick(&v)?, heads, &causal)?;
            assert_eq!(pick(&packed)?.to_vec2::<f32>()?, alone.to_vec2::<f32>()?, "the rest at {rest}");
        }
        assert!(largest_difference(&packed, &padded(&q, &k, &v, heads, &shared)?)? < 1e-5);
        Ok(())
    }

    fn largest_difference(a: &Tensor, b: &Tensor) -> candle_core::Result<f32> {
        (a.to_dtype(DType::F32)? - b.to_dtype(DType::F32)?)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()
    }

    /// The GPU's path gives the CPU kernel's numbers: causal sentences of several
    /// lengths, a sliding window, grouped heads with a soft cap, an encoder's picked
    /// queries; and within bf16's rounding when the inputs are bf16.
    #[test]
    fn padded_blocks_attend_as_the_packed_kernel() -> candle_core::Result<()> {
        let device = Device::Cpu;
        let (tokens, dim) = (23, 8);
        let heads = Heads { query: 4, kv: 2, dim, scale: 0.35, softcap: Some(3.0) };
        let q = Tensor::rand(-2f32, 2f32, (tokens, 4 * dim), &device)?;
        let (k, v) = (Tensor::rand(-2f32, 2f32, (tokens, 2 * dim), &device)?, Tensor::rand(-2f32, 2f32, (tokens, 2 * dim), &device)?);
        let sentences: [Range<usize>; 3] = [0..7, 7..8, 8..23];
        let causal = |window: usize| -> Vec<Seen> {
            sentences.iter().flat_map(|s| s.clone().map(move |t| ((t + 1).saturating_sub(window).max(s.start)..t + 1).into())).collect()
        };
        for keys in [causal(usize::MAX), causal(4)] {
            let kernel = attention(&q, &k, &v, heads, &keys)?;
            assert!(largest_difference(&kernel, &padded(&q, &k, &v, heads, &keys)?)? < 1e-5);
            let half = |t: &Tensor| t.to_dtype(DType::BF16);
            let bf16 = attention(&half(&q)?, &half(&k)?, &half(&v)?, heads, &keys)?;
            assert_eq!(bf16.dtype(), DType::BF16);
            assert!(largest_difference(&kernel, &bf16)? < 0.05, "bf16 within its rounding");
        }
        let picks = Tensor::new(&[2u32, 5, 7, 9, 20], &device)?;
        let keys = [0..7, 0..7, 7..8, 8..23, 8..23].map(Seen::from);
        let q = q.index_select(&picks, 0)?;
        let kernel = attention(&q, &k, &v, heads, &keys)?;
        assert!(largest_difference(&kernel, &padded(&q, &k, &v, heads, &keys)?)? < 1e-5);
        Ok(())
    }

    #[test]
    fn ranges_outside_the_keys_are_errors() -> candle_core::Result<()> {
        let x = Tensor::zeros((2, 4), candle_core::DType::F32, &Device::Cpu)?;
        let two = Heads::plain(2, 4);
        assert!(attention(&x, &x, &x, two, &[0..2, 1..3].map(Seen::from)).is_err());
        assert!(attention(&x, &x, &x, two, &[0..2, 0..2].map(Seen::from)[..1]).is_err(), "one range for two queries");
        assert!(attention(&x, &x, &x, Heads::plain(3, 4), &[0..2, 0..2].map(Seen::from)).is_err());
        let beyond = Seen { before: 1..3, own: 0..1 };
        assert!(attention(&x, &x, &x, two, &[beyond.clone(), beyond]).is_err(), "a beginning outside the keys");
        Ok(())
    }
}
