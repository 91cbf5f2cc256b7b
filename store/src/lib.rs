//! Gapwise's database layer.
//!
//! One [`Store`] wraps an sqlx `AnyPool`, so the same queries run on the embedded
//! SQLite default and on PostgreSQL. Queries use `$1` placeholders (both backends
//! accept them) and only integer, text and float columns (what the Any driver maps).
//!
//! With the `db` feature off, only [`model`] is compiled: the serialisable types the
//! web front end shares with the server.

pub mod model;

#[cfg(feature = "db")]
mod db;
#[cfg(feature = "db")]
pub use db::*;
