//! Counters of the changes that make what a process keeps in memory about the
//! database out of date. The store bumps them when it changes the pool of items a
//! player may get (items built, a pair's status, an item's gold flag, the answers
//! per item, a crowd assignment given back or abandoned, an erasure) or someone's
//! friends; the game engine compares them with those its caches were read at.
//! They count this process's changes only: other processes' reach it when the
//! caches age.

use std::sync::atomic::{AtomicU64, Ordering};

/// See the module's documentation.
#[derive(Debug, Default)]
pub struct Changes {
    pool: AtomicU64,
    friends: AtomicU64,
}

impl Changes {
    /// How many times the pool of servable items changed.
    pub fn pool(&self) -> u64 {
        self.pool.load(Ordering::SeqCst)
    }

    /// How many times someone's friends changed.
    pub fn friends(&self) -> u64 {
        self.friends.load(Ordering::SeqCst)
    }

    pub(crate) fn pool_changed(&self) {
        self.pool.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn friends_changed(&self) {
        self.friends.fetch_add(1, Ordering::SeqCst);
    }
}
