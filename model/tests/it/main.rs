//! The integration tests of gapwise-model, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod agreement_reference;
