//! Who a request comes from: the annotator and their signed-in browser, as every
//! request reads it (see [`super::game_writes`], which reads it in its batch).

use gapwise_model::{PlayerId, Score, ServingId};

/// A player, known only by a random pseudonym.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub pseudonym: String,
}

/// A signed-in browser: the player and the serving they are looking at (`serving`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub token_hash: String,
    pub player: Player,
    pub serving: Option<ServingId>,
    /// The annotator came from a crowd platform (has a study assignment).
    pub in_crowd: bool,
    /// The annotator's score when the session was read.
    pub score: Score,
    /// How many word pairs the annotator proposed, when the session was read.
    pub proposed: i64,
    /// When the session was opened (Unix ms); it ends
    /// [`PLAYER_SESSION_DAYS`](crate::lifetimes::PLAYER_SESSION_DAYS) later.
    pub opened_at: i64,
}

/// What [`SESSION_BY_TOKEN`] reads of a session.
pub(crate) type SessionColumns = (Option<String>, String, String, i64, i64, i64, i64, i64);

/// A query of sessions: `$first` columns, then [`SessionColumns`], of the sessions
/// that `$which` picks.
macro_rules! sessions_where {
    ($first:literal, $which:literal) => {
        concat!(
            "SELECT ",
            $first,
            "s.current_serving_id, a.id, a.pseudonym, ",
            "(SELECT COUNT(*) FROM crowd_assignments c WHERE c.annotator_id = a.id), a.answered, a.answered_right, ",
            "(SELECT COUNT(*) FROM word_pairs p WHERE p.creator_id = a.id), s.created_at ",
            "FROM sessions s JOIN annotators a ON a.id = s.annotator_id WHERE ",
            $which
        )
    };
}
pub(crate) use sessions_where;

/// The session with a token hash ($1), as [`SessionColumns`].
pub(crate) const SESSION_BY_TOKEN: &str = sessions_where!("", "s.token_hash = $1");

impl Session {
    pub(crate) fn from_columns(token_hash: String, columns: SessionColumns) -> Session {
        let (serving, id, pseudonym, assignments, answered, correct, proposed, opened_at) = columns;
        let score = Score { answered, correct };
        Session {
            token_hash,
            serving: serving.map(ServingId::new),
            player: Player { id: PlayerId::new(id), pseudonym },
            in_crowd: assignments > 0,
            score,
            proposed,
            opened_at,
        }
    }
}
