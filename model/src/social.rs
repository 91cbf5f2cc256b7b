//! Friends and challenges: players follow each other by pseudonym, and play the
//! same ten items to compare.

use serde::{Deserialize, Serialize};

use crate::{ChallengeId, Language, K};

/// Items in a challenge...
pub const CHALLENGE_ITEMS: usize = 10;
/// ...or as many as are new to both players when fewer are, but at least this many
/// (a language with few items still allows a short challenge).
pub const MIN_CHALLENGE_ITEMS: usize = 3;

/// A friend as the friends page lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Friend {
    pub pseudonym: String,
    pub answered: i64,
    pub correct: i64,
    /// Their proposed pairs in the game, which are served to this player first.
    pub pairs_in_game: i64,
}

/// How one side of a challenge is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeSide {
    pub answered: i64,
    pub correct: i64,
}

/// One challenge seen by one of its two players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: ChallengeId,
    /// The other player's pseudonym.
    pub friend: String,
    /// Whether this player made the challenge.
    pub mine: bool,
    pub k: K,
    pub language: Language,
    pub items: i64,
    pub me: ChallengeSide,
    pub them: ChallengeSide,
    /// Item by item: (right for me, right for them). The friend's result shows only
    /// for items this player has answered too, so it gives nothing away.
    pub results: Vec<(Option<bool>, Option<bool>)>,
}

impl Challenge {
    /// The URL that plays it.
    pub fn play_url(&self) -> String {
        format!("/play?k={}&lang={}&challenge={}", self.k, self.language, self.id)
    }
}
