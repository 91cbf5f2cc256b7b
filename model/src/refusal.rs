//! What goes wrong for a person in a way they can be told: a rule a player ran into,
//! and a problem on one line of a file someone imports.

use std::fmt;

/// A problem on one line of an imported file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number in the file.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Every refusal a player can meet, each a message of the interface catalogues
/// (`app/locales/*/main.ftl`; a test checks that every language has each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKey {
    Busy,
    Consent,
    FeedbackLength,
    FewChallengeItems,
    GuessLength,
    Login,
    MaxFriends,
    NoChallenge,
    NoPlayer,
    NoSession,
    NoStudy,
    NoStudyUnderWay,
    NotFriend,
    NotSingleWord,
    OwnPseudonym,
    PairInGame,
    PairProposed,
    PairSame,
    PasswordCurrent,
    PasswordLength,
    PasswordWeak,
    StudyElsewhere,
    StudyLink,
    StudyReturned,
    TooManyRequests,
    WordUnknown,
}

impl RefusalKey {
    pub const ALL: [RefusalKey; 26] = [
        RefusalKey::Busy,
        RefusalKey::Consent,
        RefusalKey::FeedbackLength,
        RefusalKey::FewChallengeItems,
        RefusalKey::GuessLength,
        RefusalKey::Login,
        RefusalKey::MaxFriends,
        RefusalKey::NoChallenge,
        RefusalKey::NoPlayer,
        RefusalKey::NoSession,
        RefusalKey::NoStudy,
        RefusalKey::NoStudyUnderWay,
        RefusalKey::NotFriend,
        RefusalKey::NotSingleWord,
        RefusalKey::OwnPseudonym,
        RefusalKey::PairInGame,
        RefusalKey::PairProposed,
        RefusalKey::PairSame,
        RefusalKey::PasswordCurrent,
        RefusalKey::PasswordLength,
        RefusalKey::PasswordWeak,
        RefusalKey::StudyElsewhere,
        RefusalKey::StudyLink,
        RefusalKey::StudyReturned,
        RefusalKey::TooManyRequests,
        RefusalKey::WordUnknown,
    ];

    /// Its stable name on the wire (`AppError::Refused`'s code), for clients that
    /// act on a refusal; the app says it in the player's language.
    pub fn code(self) -> &'static str {
        match self {
            RefusalKey::Busy => "busy",
            RefusalKey::Consent => "consent",
            RefusalKey::FeedbackLength => "feedback_length",
            RefusalKey::FewChallengeItems => "few_challenge_items",
            RefusalKey::GuessLength => "guess_length",
            RefusalKey::Login => "login",
            RefusalKey::MaxFriends => "max_friends",
            RefusalKey::NoChallenge => "no_challenge",
            RefusalKey::NoPlayer => "no_player",
            RefusalKey::NoSession => "no_session",
            RefusalKey::NoStudy => "no_study",
            RefusalKey::NoStudyUnderWay => "no_study_under_way",
            RefusalKey::NotFriend => "not_friend",
            RefusalKey::NotSingleWord => "not_single_word",
            RefusalKey::OwnPseudonym => "own_pseudonym",
            RefusalKey::PairInGame => "pair_in_game",
            RefusalKey::PairProposed => "pair_proposed",
            RefusalKey::PairSame => "pair_same",
            RefusalKey::PasswordCurrent => "password_current",
            RefusalKey::PasswordLength => "password_length",
            RefusalKey::PasswordWeak => "password_weak",
            RefusalKey::StudyElsewhere => "study_elsewhere",
            RefusalKey::StudyLink => "study_link",
            RefusalKey::StudyReturned => "study_returned",
            RefusalKey::TooManyRequests => "too_many_requests",
            RefusalKey::WordUnknown => "word_unknown",
        }
    }
}

/// A rule a player ran into, said in their language at the HTTP edge: `key` names a
/// message of the interface catalogues and `args` fill it; `english` is the English
/// message, for logs, the command line and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub key: RefusalKey,
    pub args: Vec<(&'static str, String)>,
    pub english: String,
}

impl Refusal {
    pub fn new(key: RefusalKey, english: impl Into<String>) -> Self {
        Refusal { key, args: Vec::new(), english: english.into() }
    }

    /// Adds the argument `name` (a value that reads as an integer chooses plural forms).
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Self {
        self.args.push((name, value.to_string()));
        self
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english)
    }
}
