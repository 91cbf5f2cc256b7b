//! The word-definition game (W2D and D2W, 001_bf5d15b61b58df06.txt): WordNet synsets
//! and their groups, rounds served to players, their picks, and model scores.
//!
//! The round's rules (a whole group within the player's cap, distinct candidates in
//! an order drawn per serving, picks until the right one, their number the rank) are
//! the engine's (`gapwise_engine`'s define mode). The store holds the rows and draws
//! the candidates of a round: groups a model scored first, at random
//! ([`Define::unplayed_scored_targets`]), then the others along a stored shuffled
//! order ([`Define::unplayed_targets`]); and it picks the groups models score next
//! ([`Define::groups_to_score`]).
//!
//! Its queries are in one file per audience: `game`, `material`, `scoring`, `research`.

mod game;
mod material;
mod research;
mod scoring;

use gapwise_model::{DefinitionTask, GroupMember, Solution};

crate::store::area!(
    /// The definition game's rows: WordNet, groups, rounds, picks and model scores.
    Define,
    define
);

/// A synset to import.
#[derive(Clone, Debug, PartialEq)]
pub struct NewSynset {
    pub id: String,
    /// `n` or `v`.
    pub pos: String,
    pub word: String,
    pub definition: String,
    pub depth: u32,
    pub zipf: Option<f64>,
}

/// What the WordNet import wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordNetReport {
    pub synsets: u64,
    pub groups: u64,
}

/// A group to score: its target, the target's part of speech, and its candidates
/// (see [`gapwise_model::distinct_candidates`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GroupToScore {
    pub target: String,
    pub pos: String,
    pub members: Vec<GroupMember>,
}

/// A round as an answer to it needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct DefineServing {
    /// The right candidate's synset.
    pub target: String,
    /// The candidates' synsets in the order shown.
    pub candidates: Vec<String>,
    pub served_at: i64,
    /// The target's word and definition.
    pub solution: Solution,
    /// (candidate, whether right) of each pick so far, in order.
    pub picks: Vec<(String, bool)>,
}

/// A finished round, without who played it.
#[derive(Clone, Debug, PartialEq)]
pub struct DefinitionRound {
    pub task: DefinitionTask,
    pub target: String,
    pub candidates: usize,
    /// Picks until the right one: the rank the player gave it.
    pub rank: usize,
    pub first_pick_ms: i64,
}

/// A group's target as the strata need it.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupFacts {
    pub pos: String,
    pub depth: u32,
    pub zipf: Option<f64>,
}
