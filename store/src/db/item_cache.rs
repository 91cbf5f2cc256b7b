//! Items, kept in memory once read: an item's kind, pair words, language and
//! contexts never change after it is built (items are never deleted, and their ids
//! are not reused), and every round of the game shows them twice (the item, then
//! the feedback).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::model::Context;

/// Items kept at most; past it the cache starts over.
const MOST_ITEMS: usize = 20_000;

/// What an item shows: its contexts, and its pair's words.
#[derive(Debug)]
pub(crate) struct ItemFacts {
    /// A game item ("choice"), as opposed to a Likert rating's.
    pub choice: bool,
    pub lang: String,
    pub target: String,
    pub distractor: String,
    /// In order, split around the blank.
    pub contexts: Vec<Context>,
}

#[derive(Debug, Default)]
pub(crate) struct ItemCache {
    items: Mutex<HashMap<i64, Arc<ItemFacts>>>,
}

impl ItemCache {
    pub(crate) fn get(&self, item_id: i64) -> Option<Arc<ItemFacts>> {
        self.items.lock().unwrap_or_else(PoisonError::into_inner).get(&item_id).cloned()
    }

    pub(crate) fn put(&self, item_id: i64, item: Arc<ItemFacts>) {
        let mut items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        if items.len() >= MOST_ITEMS {
            items.clear();
        }
        items.insert(item_id, item);
    }
}
