//! The integration tests of gapwise-stats, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod agreement_reference;
mod irt_coverage;
mod irt_reference;
mod stats_reference;
