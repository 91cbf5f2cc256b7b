//! The word-definition game (W2D and D2W, 001_bf5d15b61b58df06.txt) as the player sees it.

use serde::{Deserialize, Serialize};

use crate::ServingId;

/// Fewest distinct candidates a round has: the paper's smallest group (Sec. 2.1).
/// A group whose sisters repeat each other's text can fall below it once they are
/// shown once ([`distinct_candidates`]); such groups are neither served
/// nor scored.
pub const MIN_CANDIDATES: usize = 5;

/// The two ways round of the word-definition game (001_bf5d15b61b58df06.txt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DefinitionTask {
    /// A word; pick its definition among its taxonomic sisters'.
    W2d,
    /// A definition; pick its word.
    D2w,
}

impl DefinitionTask {
    pub const ALL: [DefinitionTask; 2] = [DefinitionTask::W2d, DefinitionTask::D2w];

    /// `w2d` or `d2w`, as stored and in URLs.
    pub fn code(self) -> &'static str {
        match self {
            DefinitionTask::W2d => "w2d",
            DefinitionTask::D2w => "d2w",
        }
    }

    pub fn parse(code: &str) -> Option<DefinitionTask> {
        DefinitionTask::ALL.into_iter().find(|t| t.code() == code.trim())
    }
}

/// The caps on a group's size a player can choose (the difficulty: groups of at
/// most this many candidates are served, every member shown). The paper's human
/// study used groups of at most 10.
pub const DEFINITION_CAPS: [u32; 3] = [5, 10, 20];

pub const DEFAULT_DEFINITION_CAP: u32 = 10;

/// One round of the word-definition game as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefinitionCard {
    pub serving_id: ServingId,
    pub task: DefinitionTask,
    /// The word (W2D) or the definition (D2W).
    pub prompt: String,
    /// The definitions (W2D) or words (D2W), in the order shown; picks name a position.
    pub options: Vec<String>,
    /// Positions picked so far in this round, with whether each was right.
    pub picked: Vec<(usize, bool)>,
    /// Rounds of this task the player has finished.
    pub finished: i64,
    /// The pick that finished the player's last round of this task, when it was
    /// just made ([`crate::RECENT_OUTCOME_MS`]).
    pub last: Option<DefinitionPick>,
}

/// What a pick in the word-definition game did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefinitionPick {
    pub correct: bool,
    /// Picks so far in the round (the rank the player gave the right one, once found).
    pub attempts: i64,
    /// The word and its definition, once the right one is found.
    pub solution: Option<Solution>,
}

/// A round's answer: the word and its definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    pub word: String,
    pub definition: String,
}

/// A member of a group, as scorers and analyses see it.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupMember {
    pub id: String,
    pub word: String,
    pub definition: String,
}

/// The candidates of a round of `task`: the group's members, without those whose
/// text (the word for D2W, the definition for W2D) repeats the target's or another
/// kept member's. WordNet has sisters spelled alike (wood_anemone.n.01 and .n.02);
/// nobody, person or model, can tell such options apart, so only the target's is shown.
pub fn distinct_candidates(members: Vec<GroupMember>, target: &str, task: DefinitionTask) -> Vec<GroupMember> {
    let text = |m: &GroupMember| if task == DefinitionTask::D2w { m.word.clone() } else { m.definition.clone() };
    let mut seen: std::collections::HashSet<String> = members.iter().filter(|m| m.id == target).map(text).collect();
    members.into_iter().filter(|m| m.id == target || seen.insert(text(m))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sisters_spelled_alike_are_shown_once() {
        let member =
            |id: &str, word: &str, definition: &str| GroupMember { id: id.into(), word: word.into(), definition: definition.into() };
        let group = vec![
            member("anemone.n.01", "anemone", "a flower"),
            member("wood_anemone.n.01", "wood anemone", "a woodland flower"),
            member("wood_anemone.n.02", "wood anemone", "another woodland flower"),
            member("thimbleweed.n.01", "thimbleweed", "a flower"),
        ];
        let ids = |task, target| distinct_candidates(group.clone(), target, task).into_iter().map(|m| m.id).collect::<Vec<_>>();
        assert_eq!(ids(DefinitionTask::D2w, "wood_anemone.n.02"), ["anemone.n.01", "wood_anemone.n.02", "thimbleweed.n.01"]);
        assert_eq!(ids(DefinitionTask::D2w, "anemone.n.01"), ["anemone.n.01", "wood_anemone.n.01", "thimbleweed.n.01"]);
        assert_eq!(ids(DefinitionTask::W2d, "thimbleweed.n.01"), ["wood_anemone.n.01", "wood_anemone.n.02", "thimbleweed.n.01"]);
    }
}
