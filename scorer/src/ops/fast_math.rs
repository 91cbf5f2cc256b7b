//! Branch-free f32 erf and exponential that the compiler vectorizes (the standard
//! library's calls `libm`, one element at a time).

/// erf(x) by formula 7.1.26 of Abramowitz & Stegun: absolute error below 1.5e-7,
/// the formula PyTorch's vectorized CPU erf also uses.
#[inline(always)]
pub(crate) fn erf(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_74, 1.421_413_7, -1.453_152_1, 1.061_405_4];
    let a = x.abs();
    let t = 1.0 / (1.0 + P * a);
    let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
    (1.0 - poly * exp_negative(-a * a)).copysign(x)
}

/// e^x for x <= 0; below -87 it gives e^-87 ≈ 1.6e-38, which no caller can tell
/// from 0. x = k ln 2 + r with |r| <= ln2 / 2; e^r from its Taylor series to r^7
/// (relative error below 2e-8 there), times 2^k.
#[inline(always)]
pub(crate) fn exp_negative(x: f32) -> f32 {
    // Adding 1.5 * 2^23 rounds to an integer, which then sits in the low mantissa
    // bits: no float-to-int conversion, so the loop stays vectorized.
    const ROUNDER: f32 = 12_582_912.0;
    let x = x.max(-87.0);
    let shifted = x * std::f32::consts::LOG2_E + ROUNDER;
    let k = shifted - ROUNDER;
    // ln 2 in two parts, the first with few enough bits that k times it is exact
    let r = (x - k * 0.693_359_4) + k * 2.121_944_4e-4;
    let mut series = 1.0 / 5040.0;
    for d in [720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        series = series * r + 1.0 / d;
    }
    // k is in [-126, 0], so 2^k is a normal f32 whose exponent field is k + 127
    let k_bits = shifted.to_bits().wrapping_sub(ROUNDER.to_bits());
    series * f32::from_bits(k_bits.wrapping_add(127) << 23)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_and_exp_match_libm_over_their_range() {
        for i in -20_000i32..=20_000 {
            let x = i as f32 * 5e-4; // [-10, 10]
            let want = libm_erf(x);
            // A&S bound 1.5e-7, plus f32 rounding of 1 - poly e^(-x²) near 0
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {} vs {want}", erf(x));
            let e = -(i.abs() as f32) * 5e-3; // [-100, 0]
            let want = e.exp().max((-87f32).exp());
            assert!((exp_negative(e) - want).abs() <= 4e-7 * want, "exp({e}) = {} vs {want}", exp_negative(e));
        }
    }

    fn libm_erf(x: f32) -> f32 {
        statrs::function::erf::erf(f64::from(x)) as f32
    }
}
