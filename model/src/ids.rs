//! The ids that travel between layers, each its own type so that one cannot be
//! passed for another: a player's id is not a serving's, though both are text, and
//! an item's is not its pair's, though both are numbers. Each is made once where it
//! enters (a session read, a stored row, a request) and passed as it is from there.
//! With the `sqlx` feature each binds and reads as the column it names.

use std::fmt;

/// Declares an id held as text: `new`, `as_str`, `Display`, and serde and sqlx as
/// the plain string.
macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        #[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> $name {
                $name(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

/// Declares an id held as a number (a table's integer key): `get`, `Display`, and
/// serde and sqlx as the plain integer.
macro_rules! number_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        #[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
        pub struct $name(pub i64);

        impl $name {
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

text_id!(
    /// A player's id (`annotators.id`): random, never shown; the pseudonym is what
    /// others see.
    PlayerId
);
text_id!(
    /// A serving's id in any mode: the main game's (`servings.id`, which its answer
    /// keeps as `answers.id`) and each side mode's (`define_servings.id`,
    /// `cloze_servings.id`, ...; rate rounds are main-game servings).
    ServingId
);
text_id!(
    /// A challenge's id (`challenges.id`), the link a player sends a friend.
    ChallengeId
);
text_id!(
    /// A crowd study's id (`studies.id`), part of its entry link.
    StudyId
);
text_id!(
    /// A model's id as its scores name it: a Hub id or a path, as the researcher gave it.
    ModelId
);
number_id!(
    /// An item's id (`items.id`): one pair at one k with its contexts.
    ItemId
);
number_id!(
    /// A word pair's id (`pairs.id`).
    PairId
);
