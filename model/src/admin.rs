//! What the admin pages show: table sizes, pairs and their items, the audit log.

use serde::{Deserialize, Serialize};

use crate::{Context, CrowdStudy, FeedbackNote, FlaggedPlayer, ItemId, Language, PairId, Suggestion, K};

/// One change made by a staff member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    pub staff: String,
    pub action: String,
    pub detail: String,
    /// When, as `YYYY-MM-DD HH:MM UTC`.
    pub at: String,
}

/// Pairs per page of the admin's pair list.
pub const PAIRS_PER_PAGE: u8 = 50;

/// Last page of the admin's pair list a request may ask for (pages count from 0):
/// five million pairs, far past any language's.
pub const MAX_PAIR_PAGE: i64 = 100_000;

/// A word pair as the admin's pair list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRow {
    pub id: PairId,
    pub target: String,
    pub distractor: String,
    pub strategy: String,
    /// Active pairs are served; retired ones are not.
    pub active: bool,
    pub items: i64,
    pub answers: i64,
    pub correct: i64,
}

/// One item of a pair as the admin's item list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRow {
    pub id: ItemId,
    pub k: K,
    /// `choice` (the two-button game) or `likert` (Section 6 ratings).
    pub kind: String,
    pub contexts: Vec<Context>,
    /// Answers (choice) or ratings (likert) collected.
    pub answers: i64,
    /// Right answers (choice items only).
    pub correct: i64,
    /// Whether an admin verified its answer (see `model::quality`).
    pub gold: bool,
}

/// A pair with its items, for the admin's item list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairItems {
    pub language: Language,
    pub target: String,
    pub distractor: String,
    pub items: Vec<ItemRow>,
}

/// Sentences of one language, source and genre, as the admin page counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusPart {
    pub language: String,
    pub source: String,
    pub genre: String,
    pub sentences: i64,
}

/// What the admin page shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminOverview {
    /// (table, rows) for the main tables.
    pub counts: Vec<(String, i64)>,
    /// The corpus by language, source and genre.
    pub corpora: Vec<CorpusPart>,
    pub pending: Vec<Suggestion>,
    pub audit: Vec<AuditEntry>,
    /// The latest feedback, newest first (without who sent it).
    pub feedback: Vec<FeedbackNote>,
    /// Answers flagged `too_fast` (see [`answer_flag`]), and the players who gave them.
    pub too_fast: (i64, i64),
    /// Players with a quality flag, most gold misses first.
    pub flagged: Vec<FlaggedPlayer>,
    /// The per-item redundancy: answers an item collects before it retires.
    pub answers_per_item: i64,
    /// Choice items marked gold.
    pub gold_items: i64,
    pub studies: Vec<CrowdStudy>,
}
