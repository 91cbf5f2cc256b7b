//! How a model's numbers are made, chosen by name and stored with its scores: the
//! same causal model gives different sentence log-probabilities after a BOS token,
//! after its end-of-text token, or after nothing (then its first token cannot be
//! scored), and a masked model gives different word scores by mask and by
//! pseudo-log-likelihood. Every run records the convention it applied (see
//! [`crate::LoadedModel::convention`]) so that scores made under two conventions are
//! never mixed under one model id.

use std::fmt;
use std::str::FromStr;

use candle_core::{DType, Device};

/// How a masked LM scores a word in a context (see [`crate::masked`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaskedScoring {
    #[default]
    Mask,
    PllOriginal,
    PllWordL2r,
}

/// The token a causal model reads before each sentence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StartToken {
    /// A Hugging Face directory: what lm-evaluation-harness reads a sentence after
    /// (`HFLM.prefix_token_id`), the BOS token `AutoTokenizer` gives the directory,
    /// else its EOS token, else nothing; the files decide as transformers reads them
    /// (see `hf::special_tokens`), config.json's `bos_token_id` does not. A GGUF
    /// file: BOS where llama.cpp adds one (`tokenizer.ggml.add_bos_token`, true by
    /// default for SentencePiece vocabularies), else the end-of-text token
    /// (`<|endoftext|>`, else EOS), as lm-evaluation-harness does without a BOS.
    #[default]
    Auto,
    Bos,
    /// The end-of-text token: `<|endoftext|>` where the vocabulary has it, else EOS.
    Eos,
    None,
}

/// Whether the first token of a sentence counts in its log-probability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FirstToken {
    /// Scored after a start token; without one it has nothing to be predicted from.
    #[default]
    Auto,
    Scored,
    Unscored,
}

/// The floating type a model's weights and activations compute in. Log-probabilities
/// are taken in f32 from the logits whatever it is, as transformers does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// f32 on the CPU (the scorer's own attention and GELU kernels are f32); on a GPU
    /// the half type the checkpoint ships in (bf16 or f16, as PyTorch users load it),
    /// else f32. Quantized GGUF weights compute in f32.
    #[default]
    Auto,
    F32,
    Bf16,
    F16,
}

impl Precision {
    /// The type for a model on `device` whose checkpoint ships its weights in `shipped`.
    pub(crate) fn dtype(self, device: &Device, shipped: DType) -> DType {
        match self {
            Precision::Auto if device.is_cuda() && matches!(shipped, DType::BF16 | DType::F16) => shipped,
            Precision::Auto | Precision::F32 => DType::F32,
            Precision::Bf16 => DType::BF16,
            Precision::F16 => DType::F16,
        }
    }
}

/// What a model's convention adds when it computes in a half type (nothing for f32,
/// so that f32 scores keep the convention they were stored under before).
pub(crate) fn computed_in(dtype: DType) -> String {
    match dtype {
        DType::F32 => String::new(),
        other => format!("; computed in {}", other.as_str()),
    }
}

/// The conventions a scoring run asks for; models take the part that concerns them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conventions {
    pub masked: MaskedScoring,
    pub start: StartToken,
    pub first_token: FirstToken,
    pub precision: Precision,
}

macro_rules! named {
    ($t:ty, $what:literal, $($name:literal => $v:expr),+) => {
        impl $t {
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            pub fn name(self) -> &'static str {
                $(if self == $v { return $name; })+
                unreachable!("every variant has a name")
            }
        }

        impl FromStr for $t {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($name => Ok($v),)+
                    _ => Err(format!(concat!("unknown ", $what, " {:?} (one of {})"), s, Self::NAMES.join(", "))),
                }
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named!(StartToken, "start token", "auto" => StartToken::Auto, "bos" => StartToken::Bos, "eos" => StartToken::Eos, "none" => StartToken::None);
named!(MaskedScoring, "masked-LM scoring", "mask" => MaskedScoring::Mask, "pll-original" => MaskedScoring::PllOriginal, "pll-word-l2r" => MaskedScoring::PllWordL2r);
named!(Precision, "precision", "auto" => Precision::Auto, "f32" => Precision::F32, "bf16" => Precision::Bf16, "f16" => Precision::F16);
named!(FirstToken, "first-token rule", "auto" => FirstToken::Auto, "scored" => FirstToken::Scored, "unscored" => FirstToken::Unscored);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in StartToken::NAMES {
            assert_eq!(name.parse::<StartToken>().expect("parse").name(), *name);
        }
        for name in FirstToken::NAMES {
            assert_eq!(name.parse::<FirstToken>().expect("parse").to_string(), *name);
        }
        assert!("first".parse::<StartToken>().expect_err("unknown").contains("auto, bos, eos, none"));
    }
}
