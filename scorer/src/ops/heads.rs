//! The shape of an attention layer's heads, which both attention paths take.

/// The heads of an attention layer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Heads {
    /// Query heads.
    pub query: usize,
    /// Key/value heads: each serves `query / kv` query heads (grouped-query attention).
    pub kv: usize,
    /// Width of one head.
    pub dim: usize,
    /// Multiplies `q·k`: usually 1/√dim.
    pub scale: f32,
    /// Gemma 2's soft cap of the scores: `cap · tanh(s / cap)`.
    pub softcap: Option<f32>,
}

impl Heads {
    /// `heads` heads of width `width / heads`, keys and values for each, scaled by 1/√dim.
    pub(crate) fn plain(heads: usize, width: usize) -> Heads {
        let dim = width / heads.max(1);
        Heads { query: heads, kv: heads, dim, scale: 1.0 / (dim as f32).sqrt(), softcap: None }
    }
}
