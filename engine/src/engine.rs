//! The engine and the caches its clones share.

use gapwise_model::{ItemId, Language, PlayerId, ServingId};
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gapwise_store::{ItemFacts, ServingRow, Store};

use super::estimates::{Estimates, REFIT_AFTER};
use super::hold_table::{HoldTable, PlayerView};
use super::memo::Memo;
use super::tally::Tally;
use crate::error::EngineError;

/// Items and servings kept in memory at most (see [`Memo`]).
const MOST_ITEMS: usize = 20_000;
const MOST_SERVINGS: usize = 100_000;
/// Games (k and language) whose difficulties are kept at most.
const MOST_GAMES: usize = 64;
/// Players whose views are kept at most.
const MOST_PLAYERS: usize = 10_000;

/// How long a player's view (their served items and friends) is kept in memory.
/// Another process may serve them meanwhile: the unique serving of an item to a
/// player turns that serving down, the view is read again and the choice made again.
const PLAYER_VIEW_AGE: Duration = Duration::from_secs(2);

/// The game over one store; clones share the caches.
#[derive(Clone, Debug)]
pub struct Engine {
    pub(crate) store: Store,
    pub(crate) holds: Arc<HoldTable>,
    /// Items' facts once read.
    pub(crate) items: Arc<Memo<ItemId, Arc<ItemFacts>>>,
    /// The servings this process made, until answered.
    pub(crate) served: Arc<Memo<ServingId, Arc<ServingRow>>>,
    /// Players' views for the choice of their next item, for a short while.
    pub(crate) players: Arc<Memo<PlayerId, Arc<Mutex<PlayerView>>>>,
    /// When this process last swept for abandoned crowd assignments (ms).
    pub(crate) swept_at: Arc<AtomicI64>,
    /// Players' answers folded for their progress (see [`super::progress`]).
    pub(crate) tallies: Arc<Memo<PlayerId, Arc<Mutex<Tally>>>>,
    /// Adaptive studies' item difficulties by k and language, for a short while.
    pub(crate) estimates: Arc<Memo<(gapwise_model::K, Language), Arc<Estimates>>>,
}

/// Declares a handle on one audience's part of the engine: a type borrowing the
/// [`Engine`] (whose caches and store its methods use through `Deref`), and the
/// `Engine` method that hands it out, both documented with the part's `doc`. A
/// caller names the part as it names the store's areas: `engine.define().round(..)`.
/// The machinery the parts share (the hold table, the item choice, the caches)
/// stays on `Engine` itself, for the crate alone.
macro_rules! part {
    ($(#[$doc:meta])* $handle:ident, $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $handle<'e>(&'e $crate::engine::Engine);

        impl $crate::engine::Engine {
            $(#[$doc])*
            pub fn $name(&self) -> $handle<'_> {
                $handle(self)
            }
        }

        impl std::ops::Deref for $handle<'_> {
            type Target = $crate::engine::Engine;

            fn deref(&self) -> &$crate::engine::Engine {
                self.0
            }
        }
    };
}
pub(crate) use part;

impl Engine {
    pub fn new(store: Store) -> Engine {
        Engine {
            store,
            holds: Arc::default(),
            items: Arc::new(Memo::new(MOST_ITEMS)),
            served: Arc::new(Memo::new(MOST_SERVINGS)),
            players: Arc::new(Memo::aged(MOST_PLAYERS, PLAYER_VIEW_AGE)),
            swept_at: Arc::default(),
            tallies: Arc::new(Memo::new(MOST_PLAYERS)),
            estimates: Arc::new(Memo::aged(MOST_GAMES, REFIT_AFTER)),
        }
    }

    /// The store it plays on.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// An item's facts, kept in memory once read.
    pub(crate) async fn item(&self, id: ItemId) -> Result<Arc<ItemFacts>, EngineError> {
        if let Some(known) = self.items.get(&id) {
            return Ok(known);
        }
        let item = Arc::new(self.store.game().item_facts(id).await?);
        self.items.put(id, item.clone());
        Ok(item)
    }
}
