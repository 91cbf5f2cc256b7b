//! The integration tests of gapwise-store, one binary: one module per
//! subject (each says what it checks), built and linked once.

mod corpus;
mod game_positions;
mod game_writes;
mod import;
mod rate;
mod scores;
