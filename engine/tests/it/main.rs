//! The integration tests of gapwise-engine, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod adaptive;
mod game;
mod modes;
mod pairs;
