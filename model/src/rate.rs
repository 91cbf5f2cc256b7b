//! Likert rounds (Section 6 of 004_fd0640cd187f2eac.txt) as the rater sees them.

use serde::{Deserialize, Serialize};

use crate::{Context, ServingId};

/// Raters per Likert item: an item is served until this many people rated it.
pub const LIKERT_RATERS: i64 = 2;

/// A Likert item as shown to a rater: one context and the two words, in the order
/// of the scale (which of them is the target is not told).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateCard {
    /// The serving id the rating is sent back with.
    pub serving_id: ServingId,
    pub context: Context,
    /// The word at position 1 of the scale ("surely ...") and at position 5.
    pub left: String,
    pub right: String,
    /// Ratings this player has given so far.
    pub rated: i64,
}
