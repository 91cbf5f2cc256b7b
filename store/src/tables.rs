//! The schema's tables: each mode's (an exhaustive `match` on [`Mode`], so a new
//! mode names its tables or does not compile) and those the modes share, with how
//! each table's rows name a player. The erasure deletes by this one list, the
//! player's data lists what each of these tables holds of theirs, and the row
//! counts accept these names only; a test reads the migrated schema and fails while
//! a table, or a table holding a player's rows, is missing from it.

use gapwise_model::Mode;

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

/// A table of the schema, and how its rows name a player (`None`: they do not).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    pub(crate) name: &'static str,
    owner: Option<Owner>,
}

/// A table holding players' rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayerTable {
    pub(crate) name: &'static str,
    owner: Owner,
}

const fn players(name: &'static str, owner: Owner) -> Table {
    Table { name, owner: Some(owner) }
}

const fn material(name: &'static str) -> Table {
    Table { name, owner: None }
}

/// The tables only `mode` reads and writes; of a player's rows, those hanging from
/// another row come before it (the order an erasure deletes in).
pub(crate) const fn mode_tables(mode: Mode) -> &'static [Table] {
    match mode {
        Mode::Play => {
            const {
                &[
                    players("answers", Owner::Column),
                    players("servings", Owner::Column),
                    material("items"),
                    material("item_contexts"),
                    material("context_tallies"),
                    material("context_scores"),
                    material("item_scores"),
                ]
            }
        }
        Mode::Rate => const { &[players("rate_ratings", Owner::Column)] },
        Mode::Define => {
            const {
                &[
                    players("define_picks", Owner::Through { key: "serving_id", parent: "define_servings" }),
                    players("define_servings", Owner::Column),
                    material("wordnet_synsets"),
                    material("wordnet_hypernyms"),
                    material("define_groups"),
                    material("define_scores"),
                    material("define_scored"),
                ]
            }
        }
        Mode::Guess => {
            const {
                &[
                    players("guess_answers", Owner::Through { key: "serving_id", parent: "guess_servings" }),
                    players("guess_answers_replaced", Owner::Through { key: "serving_id", parent: "guess_servings" }),
                    players("guess_servings", Owner::Column),
                    material("predictions_to_remake"),
                    material("guess_predictions"),
                    material("guess_words"),
                ]
            }
        }
        Mode::NewWords => {
            const {
                &[
                    players("new_words_servings", Owner::Column),
                    material("new_words_items"),
                    material("new_words_variants"),
                    material("new_words_judgements"),
                ]
            }
        }
        // its model words are the next-word game's predictions (guess_predictions)
        Mode::Cloze => {
            const {
                &[
                    players("cloze_answers", Owner::Through { key: "serving_id", parent: "cloze_servings" }),
                    players("cloze_servings", Owner::Column),
                ]
            }
        }
    }
}

/// The tables the modes share (but `annotators`, and `word_pairs`, whose proposer
/// is unlinked while the pair stays in the game), in the same order.
const SHARED_TABLES: [Table; 22] = [
    players("challenge_items", Owner::Through { key: "challenge_id", parent: "challenges" }),
    players("challenges", Owner::Either(&["creator_id", "opponent_id"])),
    players("friends", Owner::Either(&["annotator_id", "friend_id"])),
    players("pair_suggestions", Owner::Column),
    players("export_pseudonyms", Owner::Column),
    players("feedback", Owner::Column),
    players("crowd_assignments", Owner::Column),
    players("sessions", Owner::Column),
    material("annotators"),
    material("word_pairs"),
    material("languages"),
    material("sentences"),
    material("models"),
    material("staff"),
    material("api_tokens"),
    material("staff_sessions"),
    material("audit_log"),
    material("word_postings"),
    material("settings"),
    material("crowd_studies"),
    material("export_key"),
    material("data_repairs"),
];

/// Every table of the schema: each mode's, then those they share.
pub(crate) fn all_tables() -> impl Iterator<Item = Table> {
    Mode::ALL.into_iter().flat_map(|mode| mode_tables(mode).iter().copied()).chain(SHARED_TABLES)
}

/// Every table holding a player's rows, in an order that deletes a row before
/// anything it refers to.
pub(crate) fn player_tables() -> Vec<PlayerTable> {
    all_tables().filter_map(|t| t.owner.map(|owner| PlayerTable { name: t.name, owner })).collect()
}

impl PlayerTable {
    /// The table called `name` in [`player_tables`].
    fn named(name: &str) -> Option<PlayerTable> {
        player_tables().into_iter().find(|t| t.name == name)
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
        let tables = player_tables();
        for (at, table) in tables.iter().enumerate() {
            if let Owner::Through { parent, .. } = table.owner {
                let parent_at = tables.iter().position(|t| t.name == parent);
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
