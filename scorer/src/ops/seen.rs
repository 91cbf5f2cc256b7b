//! The keys a query sees, which both attention paths take.

use std::ops::Range;

/// The token indices one query sees: `before`, the tokens of a shared beginning run
/// once for several sentences (empty when none), then `own`, those of its own row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub(crate) before: Range<usize>,
    pub(crate) own: Range<usize>,
}

impl From<Range<usize>> for Seen {
    fn from(own: Range<usize>) -> Seen {
        Seen { before: 0..0, own }
    }
}

impl Seen {
    /// The indices in the order they are read.
    pub(crate) fn indices(&self) -> impl Iterator<Item = usize> {
        self.before.clone().chain(self.own.clone())
    }

    /// The smallest range that holds them all.
    pub(crate) fn hull(&self) -> Range<usize> {
        match self.before.is_empty() {
            true => self.own.clone(),
            false => self.before.start.min(self.own.start)..self.before.end.max(self.own.end),
        }
    }

    /// Whether both ranges lie within `tokens` and the query sees something.
    pub(crate) fn fits(&self, tokens: usize) -> bool {
        !self.own.is_empty() && self.own.end <= tokens && (self.before.is_empty() || self.before.end <= tokens)
    }
}
