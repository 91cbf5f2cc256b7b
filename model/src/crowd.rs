//! Crowd-platform studies: Prolific and MTurk participants arrive with the
//! platform's ids, answer a set number of items and go back with a completion code.

use serde::{Deserialize, Serialize};

use crate::{StudyId, K};

/// A crowd platform, and the query parameters its participants arrive with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Platform {
    Prolific,
    Mturk,
}

impl Platform {
    pub const ALL: [Platform; 2] = [Platform::Prolific, Platform::Mturk];

    pub fn code(self) -> &'static str {
        match self {
            Platform::Prolific => "prolific",
            Platform::Mturk => "mturk",
        }
    }

    pub fn parse(code: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.code() == code.trim())
    }

    /// Its name as its participants know it.
    pub fn name(self) -> &'static str {
        match self {
            Platform::Prolific => "Prolific",
            Platform::Mturk => "Amazon Mechanical Turk",
        }
    }

    /// The names of the (participant, session) query parameters the platform adds
    /// to the study URL. Prolific also sends `STUDY_ID`, MTurk `hitId`.
    pub fn parameters(self) -> (&'static str, &'static str) {
        match self {
            Platform::Prolific => ("PROLIFIC_PID", "SESSION_ID"),
            Platform::Mturk => ("workerId", "assignmentId"),
        }
    }

    /// The study URL to give the platform, with its placeholders.
    pub fn entry_url(self, base: &str, study: &StudyId) -> String {
        match self {
            Platform::Prolific => {
                format!(
                    "{base}/crowd/{study}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&STUDY_ID={{{{%STUDY_ID%}}}}&SESSION_ID={{{{%SESSION_ID%}}}}"
                )
            }
            Platform::Mturk => format!("{base}/crowd/{study}"),
        }
    }

    /// Where a participant who finished goes: the platform's completion address
    /// with the code (for MTurk, the assignment is submitted with it).
    pub fn completion_url(self, code: &str, platform_session: &str) -> String {
        let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        match self {
            Platform::Prolific => format!("https://app.prolific.com/submissions/complete?cc={}", enc(code)),
            Platform::Mturk => {
                format!("https://www.mturk.com/mturk/externalSubmit?assignmentId={}&completion_code={}", enc(platform_session), enc(code))
            }
        }
    }
}

/// MTurk's assignment id while a worker only previews the task.
pub const MTURK_PREVIEW: &str = "ASSIGNMENT_ID_NOT_AVAILABLE";

/// How a study's items are chosen for its participants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemPolicy {
    /// The game's own: the item held by the fewest people.
    #[default]
    FewestHolders,
    /// Adaptive: once every open item has a few answers, the one with the most
    /// information at the participant's ability estimate (1PL; the rule of
    /// `gapwise_stats::adaptive`), still never repeated, gold items still
    /// mixed in, and items still retired at the answers per item.
    MostInformation,
}

impl ItemPolicy {
    pub const ALL: [ItemPolicy; 2] = [ItemPolicy::FewestHolders, ItemPolicy::MostInformation];

    pub fn code(self) -> &'static str {
        match self {
            ItemPolicy::FewestHolders => "fewest",
            ItemPolicy::MostInformation => "information",
        }
    }

    pub fn parse(code: &str) -> Option<ItemPolicy> {
        ItemPolicy::ALL.into_iter().find(|p| p.code() == code.trim())
    }
}

/// What an admin sets up in a study.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudySettings {
    pub platform: Platform,
    pub name: String,
    pub k: K,
    pub language: crate::Language,
    /// Items a participant answers.
    pub items_target: i64,
    /// An assignment idle this long is abandoned.
    pub max_minutes: i64,
    /// The code the platform gave (one is made up when it is left empty).
    pub completion_code: String,
    pub policy: ItemPolicy,
}

/// A study as admins follow it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdStudy {
    pub id: StudyId,
    pub settings: StudySettings,
    /// Assignments by status: active, completed, returned, abandoned.
    pub assignments: [i64; 4],
}

/// A participant's way through their study, shown on the game page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdProgress {
    pub study: String,
    pub answered: i64,
    pub target: i64,
}

/// What the entry page shows before the participant consents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdEntry {
    pub study: String,
    pub items_target: i64,
    pub max_minutes: i64,
    pub platform: Platform,
}
