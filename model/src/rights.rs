//! A player's data as they see it, take it and erase it.

use serde::{Deserialize, Serialize};

use crate::{Suggestion, K};

/// One answer of a player, as their "my data" page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyAnswer {
    pub item_id: crate::ItemId,
    pub k: K,
    pub chosen: String,
    pub correct: bool,
    /// Response time measured in the browser, if it was.
    pub client_ms: Option<i64>,
    pub server_ms: i64,
    /// What the browser saw of the trial (input, hidden page, clock, frame).
    pub trial: crate::Trial,
    /// When, as `YYYY-MM-DD HH:MM UTC`.
    pub at: String,
}

/// One Likert rating of a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyRating {
    pub item_id: crate::ItemId,
    pub rating: u8,
    pub at: String,
}

/// One feedback message of a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeedbackNote {
    pub message: String,
    pub at: String,
}

/// Everything stored about a player (the "my data" page and its download).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyData {
    pub pseudonym: String,
    /// The version of the consent text they agreed to.
    pub consent_version: String,
    pub joined: String,
    pub has_password: bool,
    /// Browsers signed in as them.
    pub sessions: i64,
    /// Items shown to them (answered or not).
    pub servings: i64,
    pub answers: Vec<MyAnswer>,
    pub ratings: Vec<MyRating>,
    /// Picks made in the word-definition game.
    pub define_picks: i64,
    /// Words guessed in the next-word game.
    pub word_guesses: i64,
    /// Items answered in the invented-word game.
    pub invented_word_answers: i64,
    pub suggestions: Vec<Suggestion>,
    /// Word pairs in the game that they proposed (they keep no link after erasure).
    pub pairs_created: i64,
    pub feedback: Vec<FeedbackNote>,
    /// Whether a random export ID was made for them (exports never hold the pseudonym).
    pub has_export_id: bool,
    /// The pseudonyms they added as friends.
    pub friends: Vec<String>,
    /// Challenges they made or were given.
    pub challenges: i64,
    /// A crowd study they took part in: (study, the platform's participant id, status).
    pub crowd: Option<(String, String, String)>,
    /// (table, rows) for every table that holds players' rows: how many of them are
    /// theirs, all of which an erasure deletes.
    pub rows: Vec<(String, i64)>,
}

/// Longest feedback message, in characters.
pub const MAX_FEEDBACK_CHARS: usize = 2000;
