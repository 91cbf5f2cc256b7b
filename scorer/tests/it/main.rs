//! The integration tests of gapwise-scorer, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod define_fixtures;

mod baseline_reference;
mod batch_invariance;
mod causal_reference;
mod conventions;
mod family_reference;
mod guess;
mod masked_reference;
mod shared_passes;
mod wordnet_sanity;
