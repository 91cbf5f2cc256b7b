//! The paper's k: how many sentences an item shows at once.

use serde::{Deserialize, Serialize};

/// How many sentences an item shows at once (the paper's k): 1, 3 or 5. Made only
/// by [`K::new`] or [`K::parse`], so that a `K` anywhere is a valid one: a request,
/// a form, a file or a stored row is checked once, where it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct K(u8);

impl K {
    pub const ONE: K = K(1);
    pub const THREE: K = K(3);
    pub const FIVE: K = K(5);
    /// Every k, fewest sentences (hardest) first.
    pub const ALL: [K; 3] = [K::ONE, K::THREE, K::FIVE];
    /// k when the player has not chosen.
    pub const DEFAULT: K = K::FIVE;
    /// The most sentences an item shows.
    pub const MOST: K = K::FIVE;

    /// `k` if it is 1, 3 or 5; else why not.
    pub fn new(k: u8) -> Result<K, String> {
        K::ALL.into_iter().find(|allowed| allowed.0 == k).ok_or_else(|| format!("k must be 1, 3 or 5, not {k}"))
    }

    /// A k as typed or sent (`"3"`, `" 5"`); `None` when it is not 1, 3 or 5.
    pub fn parse(raw: &str) -> Option<K> {
        raw.parse().ok()
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for K {
    type Error = String;

    fn try_from(k: u8) -> Result<K, String> {
        K::new(k)
    }
}

impl std::str::FromStr for K {
    type Err = String;

    /// A k as typed or sent; why not when it is not 1, 3 or 5.
    fn from_str(raw: &str) -> Result<K, String> {
        raw.trim().parse::<u8>().map_err(|_| format!("k must be 1, 3 or 5, not {raw:?}")).and_then(K::new)
    }
}

impl From<K> for u8 {
    fn from(k: K) -> u8 {
        k.0
    }
}

impl From<K> for i64 {
    fn from(k: K) -> i64 {
        i64::from(k.0)
    }
}

impl From<K> for usize {
    fn from(k: K) -> usize {
        usize::from(k.0)
    }
}

impl std::fmt::Display for K {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_must_be_one_three_or_five() {
        assert_eq!(K::parse("1").map(K::get), Some(1));
        assert_eq!(K::parse(" 5").map(K::get), Some(5));
        assert_eq!(K::parse("3").map(K::get), Some(3));
        assert_eq!(K::parse("2"), None);
        assert_eq!(K::parse("-1"), None);
        assert_eq!(K::parse("five"), None);
        assert_eq!(K::new(4), Err("k must be 1, 3 or 5, not 4".to_owned()));
        // a k is sent as its number, and a wrong number does not deserialize
        assert_eq!(serde_json::to_string(&K::DEFAULT).expect("json"), "5");
        assert_eq!(serde_json::from_str::<K>("3").expect("json"), K::THREE);
        assert!(serde_json::from_str::<K>("2").is_err());
    }
}
