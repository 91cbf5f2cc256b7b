//! Numeric building blocks that the encoders ([`crate::masked`]) and the decoders
//! ([`crate::causal`]) share: packed attention, dense layers, a vectorized GELU.

pub(crate) mod attention;
mod fast_math;
pub(crate) mod gelu;
mod heads;
mod linear;
mod padded_attention;
mod seen;

pub(crate) use linear::Linear;
