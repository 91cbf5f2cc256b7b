//! Baselines that need no neural network: n-gram language models counted from a
//! corpus the user points to, and static word vectors.

mod ngram;
mod vectors;

pub use ngram::NgramLm;
pub use vectors::StaticVectors;

/// The words of a text as both baselines see it: lower-cased maximal runs of
/// letters and digits (any script).
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}
