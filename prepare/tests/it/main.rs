//! The integration tests of gapwise-prepare, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod wordfreq_reference;
mod wordnet_groups;
