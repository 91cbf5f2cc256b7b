//! A dense layer kept as `[in, out]` (transposed once at load), so that its product
//! with `[rows, in]` activations is one contiguous matrix product.

use candle_core::{Module, Tensor};

pub(crate) struct Linear {
    pub(crate) weight_t: Tensor,
    pub(crate) bias: Option<Tensor>,
}

impl Linear {
    /// From PyTorch's `[out, in]` weight.
    pub(crate) fn new(weight: &Tensor, bias: Option<Tensor>) -> candle_core::Result<Self> {
        Ok(Linear { weight_t: weight.t()?.contiguous()?, bias })
    }

    /// From a weight already stored `[in, out]` (GPT-2's Conv1D).
    pub(crate) fn transposed(weight_t: Tensor, bias: Option<Tensor>) -> candle_core::Result<Self> {
        Ok(Linear { weight_t: weight_t.contiguous()?, bias })
    }
}

impl Module for Linear {
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let y = x.matmul(&self.weight_t)?;
        match &self.bias {
            Some(b) => y.broadcast_add(b),
            None => Ok(y),
        }
    }
}
