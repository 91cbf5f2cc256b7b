//! What this process keeps in memory of the database, in maps that start over when
//! full. Facts that never change once written are kept until then: an item's kind,
//! pair words, language and contexts (items are never deleted, and their ids are
//! not reused), and the servings this process made (a serving's row is never
//! updated). What other processes may change is kept for a short time (see
//! [`Memo::aged`]).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A map that starts over when it holds `most` entries, and forgets entries older
/// than its age limit, if it has one.
#[derive(Debug)]
pub(crate) struct Memo<K, V> {
    entries: Mutex<HashMap<K, (V, Instant)>>,
    most: usize,
    max_age: Option<Duration>,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    pub(crate) fn new(most: usize) -> Self {
        Memo { entries: Mutex::default(), most, max_age: None }
    }

    /// A memo whose entries are forgotten `max_age` after they were put.
    pub(crate) fn aged(most: usize, max_age: Duration) -> Self {
        Memo { entries: Mutex::default(), most, max_age: Some(max_age) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, (V, Instant)>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn get<Q: Eq + Hash + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let entries = self.lock();
        let (value, put_at) = entries.get(key)?;
        self.max_age.is_none_or(|age| put_at.elapsed() < age).then(|| value.clone())
    }

    pub(crate) fn put(&self, key: K, value: V) {
        let mut entries = self.lock();
        if entries.len() >= self.most {
            entries.clear();
        }
        entries.insert(key, (value, Instant::now()));
    }

    pub(crate) fn remove<Q: Eq + Hash + ?Sized>(&self, key: &Q)
    where
        K: Borrow<Q>,
    {
        self.lock().remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_starts_over_when_full_and_an_aged_one_forgets_old_entries() {
        let memo = Memo::new(2);
        memo.put(1, "a");
        memo.put(2, "b");
        assert_eq!((memo.get(&1), memo.get(&2)), (Some("a"), Some("b")));
        memo.put(3, "c");
        assert_eq!((memo.get(&1), memo.get(&3)), (None, Some("c")));
        memo.remove(&3);
        assert_eq!(memo.get(&3), None);

        let aged = Memo::aged(10, Duration::from_millis(30));
        aged.put("k", 1);
        assert_eq!(aged.get("k"), Some(1));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(aged.get("k"), None);
    }
}
