//! Where a player's rows are: every table that holds them, and how its rows name
//! the player. The erasure deletes by this one list, and the player's data lists
//! what each of these tables holds of theirs, so that a mode's new table is erased
//! and shown once it is listed here; a test reads the migrated schema and fails
//! while a table holding a player's rows is missing from the list.

/// How the rows of a table belong to a player (`$1` in the conditions).
#[derive(Clone, Copy, Debug)]
enum Owner {
    /// Its `annotator_id` column names them.
    Column,
    /// Any of these columns names them (a challenge's two players, a friendship's two ends).
    Either(&'static [&'static str]),
    /// Its column `key` refers to a row of `parent` (by `id`) that is theirs: a round's picks.
    Through { key: &'static str, parent: &'static str },
}

/// A table holding players' rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayerTable {
    pub(crate) name: &'static str,
    owner: Owner,
}

const fn table(name: &'static str, owner: Owner) -> PlayerTable {
    PlayerTable { name, owner }
}

/// Every table holding a player's rows (but `annotators`, and `word_pairs`, whose
/// proposer is unlinked while the pair stays in the game), in an order that deletes
/// a row before anything it refers to.
pub(crate) const PLAYER_TABLES: [PlayerTable; 16] = [
    table("define_picks", Owner::Through { key: "serving_id", parent: "define_servings" }),
    table("guess_answers", Owner::Through { key: "serving_id", parent: "guess_servings" }),
    table("challenge_items", Owner::Through { key: "challenge_id", parent: "challenges" }),
    table("challenges", Owner::Either(&["creator_id", "opponent_id"])),
    table("friends", Owner::Either(&["annotator_id", "friend_id"])),
    table("answers", Owner::Column),
    table("servings", Owner::Column),
    table("rate_ratings", Owner::Column),
    table("define_servings", Owner::Column),
    table("guess_servings", Owner::Column),
    table("new_words_servings", Owner::Column),
    table("pair_suggestions", Owner::Column),
    table("export_pseudonyms", Owner::Column),
    table("feedback", Owner::Column),
    table("crowd_assignments", Owner::Column),
    table("sessions", Owner::Column),
];

impl PlayerTable {
    /// The table called `name` in [`PLAYER_TABLES`].
    fn named(name: &str) -> Option<PlayerTable> {
        PLAYER_TABLES.into_iter().find(|t| t.name == name)
    }

    /// The condition that picks the player's rows of this table.
    fn condition(&self) -> String {
        match self.owner {
            Owner::Column => "annotator_id = $1".to_owned(),
            Owner::Either(columns) => columns.iter().map(|c| format!("{c} = $1")).collect::<Vec<_>>().join(" OR "),
            Owner::Through { key, parent } => {
                // a parent missing from the list picks nothing (a test checks there is none)
                let of_parent = PlayerTable::named(parent).map_or_else(|| "1 = 0".to_owned(), |p| p.condition());
                format!("{key} IN (SELECT id FROM {parent} WHERE {of_parent})")
            }
        }
    }

    /// Deletes the player's rows of this table.
    pub(crate) fn delete(&self) -> String {
        format!("DELETE FROM {} WHERE {}", self.name, self.condition())
    }

    /// Counts the player's rows of this table.
    pub(crate) fn count(&self) -> String {
        format!("SELECT COUNT(*) FROM {} WHERE {}", self.name, self.condition())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row is deleted before the rows it refers to: a table whose rows hang from
    /// another's comes before it in the list, and that other is in the list.
    #[test]
    fn rows_hanging_from_a_players_rows_go_first() {
        for (at, table) in PLAYER_TABLES.iter().enumerate() {
            if let Owner::Through { parent, .. } = table.owner {
                let parent_at = PLAYER_TABLES.iter().position(|t| t.name == parent);
                assert!(parent_at.is_some_and(|p| p > at), "{} hangs from {parent}, which must follow it", table.name);
            }
        }
        let picks = PlayerTable::named("challenge_items").map(|t| t.delete());
        assert_eq!(
            picks.as_deref(),
            Some("DELETE FROM challenge_items WHERE challenge_id IN (SELECT id FROM challenges WHERE creator_id = $1 OR opponent_id = $1)")
        );
    }
}
