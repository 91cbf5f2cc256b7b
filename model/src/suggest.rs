//! Word pairs proposed by players, and where each stands.

use serde::{Deserialize, Serialize};

/// Where a proposed word pair stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SuggestionStatus {
    Pending,
    Approved,
    Rejected,
}

impl SuggestionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SuggestionStatus::Pending => "pending",
            SuggestionStatus::Approved => "approved",
            SuggestionStatus::Rejected => "rejected",
        }
    }
}

/// Longest reason an admin may give a proposer for turning their pair down, in
/// characters.
pub const MAX_REASON_CHARS: usize = 500;

/// A word pair a player proposed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    pub id: i64,
    pub language: String,
    pub target: String,
    pub distractor: String,
    pub status: SuggestionStatus,
    /// Why it was rejected, or how an admin edited it.
    pub reason: Option<String>,
}
