//! Gapwise's scorer: how language models play the substitution game.
//!
//! - [`causal`]: causal language models (GPT-2, Llama, Mistral, Qwen2/3, Phi-3,
//!   Gemma 1-3) from Hugging Face directories or GGUF files, scoring whole sentences
//!   from one forward pass that returns every position.
//! - [`masked`]: BERT, DistilBERT and RoBERTa / XLM-R / CamemBERT from Hugging Face
//!   directories, with the paper's mask scoring and two pseudo-log-likelihood variants.
//! - [`hf`]: model directories as the Hub ships them, and models found by Hub id.
//! - [`convention`]: the named choices a score depends on (start token, first token,
//!   masked scoring), stored with the scores.
//! - [`baseline`]: 1-gram / 2-gram models with add-k smoothing and static word vectors.
//! - [`ContextScorer`]: what every model implements: log p(context with the target)
//!   and log p(context with the distractor).
//! - [`define`]: the word-definition tasks (W2D, D2W) of 001_bf5d15b61b58df06.txt.
//! - [`guess`]: whole-word next-word prediction (002_07d3f5412720a88c.txt).
//!
//! No web dependency: the server and the command line both call into this crate.

#![forbid(unsafe_code)]
#![allow(
    clippy::indexing_slicing,
    reason = "the tensor and token maths indexes buffers whose shapes it checked when the model loaded (lengths of pieces, heads and rows); an index out of range there is a bug of ours, not bad input"
)]

pub mod baseline;
mod batching;
pub mod causal;
mod context;
pub mod convention;
pub mod define;
mod error;
pub mod guess;
pub mod hf;
mod load;
pub mod masked;
pub mod new_words;
mod ops;

pub use context::{fill_blank, Context, ContextScorer, Sharing, WordLogProbs};
pub use convention::{Conventions, FirstToken, Precision, StartToken};
pub use error::ScorerError;
pub use load::{device, load, load_baseline, locate, LoadedModel};
pub use masked::MaskedScoring;

/// Settles candle's CPU thread pool for scoring, before any thread starts: by default
/// its worker spins 25,000 times after each element-wise op, waiting for the next;
/// on a machine of few cores that spinning thread takes a core from the matrix
/// products that come next (a twentieth of the masked scorer's time on two cores),
/// so it is made to sleep at once (`CANDLE_BARRIER_POOL_SPIN_LIMIT=0`) unless the
/// environment already chose. Call it first thing in `main`.
pub fn settle_thread_pool() {
    const SPIN_LIMIT: &str = "CANDLE_BARRIER_POOL_SPIN_LIMIT";
    if std::env::var_os(SPIN_LIMIT).is_none() {
        std::env::set_var(SPIN_LIMIT, "0");
    }
}
