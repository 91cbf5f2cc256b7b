//! The exact (erf) GELU of BERT-family feed-forward layers, with the bias of the
//! dense layer before it, as a candle CPU op that the compiler vectorizes.
//!
//! candle's own `gelu_erf` calls the scalar `erff` of the `libm` crate for each
//! element; on a bert-base-sized model that was 13 % of a scoring run. Here erf
//! comes from `fast_math`, whose loops have no calls and no branches.

use candle_core::{CpuStorage, CustomOp2, DType, Layout, Shape, Tensor, D};
use rayon::prelude::*;

use super::fast_math::erf;

/// `gelu(x + bias)` element-wise, `bias` broadcast over the rows of `x`:
/// contiguous f32 tensors on the CPU take the vectorized path (one pass, rows
/// split over threads), anything else candle's own ops.
pub(crate) fn gelu_erf(x: &Tensor, bias: &Tensor) -> candle_core::Result<Tensor> {
    let fits = x.device().is_cpu() && x.dtype() == DType::F32 && bias.dtype() == DType::F32;
    if fits && x.is_contiguous() && bias.is_contiguous() && bias.dims1()? == x.dim(D::Minus1)? {
        x.apply_op2_no_bwd(bias, &GeluErf)
    } else {
        x.broadcast_add(bias)?.gelu_erf()
    }
}

struct GeluErf;

impl CustomOp2 for GeluErf {
    fn name(&self) -> &'static str {
        "gelu-erf-biased"
    }

    fn cpu_fwd(&self, xs: &CpuStorage, xl: &Layout, bs: &CpuStorage, bl: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let (CpuStorage::F32(x), CpuStorage::F32(bias), Some((x0, x1)), Some((b0, b1))) =
            (xs, bs, xl.contiguous_offsets(), bl.contiguous_offsets())
        else {
            candle_core::bail!("gelu-erf-biased takes contiguous f32 tensors");
        };
        let (x, bias) = (&x[x0..x1], &bias[b0..b1]);
        let mut out = vec![0f32; x.len()];
        out.par_chunks_mut(bias.len()).zip(x.par_chunks(bias.len())).for_each(|(out, x)| gelu_row(x, bias, out));
        Ok((CpuStorage::F32(out), xl.shape().clone()))
    }
}

/// Compiled again for AVX-512 (16 lanes) and for AVX2 with FMA (8), picked at run time
/// by what the CPU has.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+fma", "x86_64+avx2+fma"))]
fn gelu_row(x: &[f32], bias: &[f32], out: &mut [f32]) {
    for ((o, x), b) in out.iter_mut().zip(x).zip(bias) {
        *o = gelu(x + b);
    }
}

#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_op_matches_candles_gelu_erf() -> candle_core::Result<()> {
        let xs: Vec<f32> = (-4000..4000).map(|i| i as f32 * 2.5e-3).collect();
        let x = Tensor::from_vec(xs, (80, 100), &candle_core::Device::Cpu)?;
        let bias = Tensor::arange(-50f32, 50f32, &candle_core::Device::Cpu)?.affine(0.01, 0.0)?;
        let ours = gelu_erf(&x, &bias)?;
        let theirs = x.broadcast_add(&bias)?.gelu_erf()?;
        let diff = (ours - theirs)?.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()?;
        assert!(diff < 1e-6, "largest difference {diff}");
        Ok(())
    }
}
