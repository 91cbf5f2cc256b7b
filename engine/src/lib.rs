//! Gapwise's game engine: what a player is served, how their answers are taken and
//! what they earn, over a [`Store`] that holds the database and its queries.
//!
//! The engine keeps in memory what makes a round cheap: the open game's hold table
//! ([`hold_table`]), items' facts, the servings it made until they are answered, and
//! players' views for the choice of their next item. It watches the store's
//! [`gapwise_store::Changes`] so that a change this process makes (items built, a
//! pair withdrawn, a friend added) counts at once; other processes' changes count
//! when the caches age.

#![forbid(unsafe_code)]

mod adaptive;
mod challenge;
mod crowd;
mod engine;
mod error;
mod estimates;
mod hold_table;
mod item_choice;
mod memo;
mod modes;
mod play;
mod progress;
mod tally;
#[cfg(feature = "testing")]
pub mod testing;

pub use engine::Engine;
pub use error::EngineError;
pub use modes::{Cloze, Define, Guess, NewWords, Rate};
pub use play::Game;
