//! Items' contexts, kept in memory once read: an item's contexts never change after
//! it is built, and every round of the game shows them twice (the item, then the
//! feedback).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::model::Context;

/// Items whose contexts are kept at most; past it the cache starts over.
const MOST_ITEMS: usize = 20_000;

#[derive(Debug, Default)]
pub(crate) struct ContextCache {
    items: Mutex<HashMap<i64, Arc<[Context]>>>,
}

impl ContextCache {
    pub(crate) fn get(&self, item_id: i64) -> Option<Arc<[Context]>> {
        self.items.lock().unwrap_or_else(PoisonError::into_inner).get(&item_id).cloned()
    }

    pub(crate) fn put(&self, item_id: i64, contexts: Arc<[Context]>) {
        let mut items = self.items.lock().unwrap_or_else(PoisonError::into_inner);
        if items.len() >= MOST_ITEMS {
            items.clear();
        }
        items.insert(item_id, contexts);
    }
}
