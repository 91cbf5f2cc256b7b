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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKey {
    Busy,
    FeedbackLength,
    FewChallengeItems,
    GuessLength,
    Login,
    MaxFriends,
    NoChallenge,
    NoPlayer,
    NoStudy,
    NoStudyUnderWay,
    NotFriend,
    NotSingleWord,
    OwnPseudonym,
    PairInGame,
    PairProposed,
    PairSame,
    PasswordLength,
    StudyLink,
    StudyReturned,
    WordUnknown,
}

impl RefusalKey {
    pub const ALL: [RefusalKey; 20] = [
        RefusalKey::Busy,
        RefusalKey::FeedbackLength,
        RefusalKey::FewChallengeItems,
        RefusalKey::GuessLength,
        RefusalKey::Login,
        RefusalKey::MaxFriends,
        RefusalKey::NoChallenge,
        RefusalKey::NoPlayer,
        RefusalKey::NoStudy,
        RefusalKey::NoStudyUnderWay,
        RefusalKey::NotFriend,
        RefusalKey::NotSingleWord,
        RefusalKey::OwnPseudonym,
        RefusalKey::PairInGame,
        RefusalKey::PairProposed,
        RefusalKey::PairSame,
        RefusalKey::PasswordLength,
        RefusalKey::StudyLink,
        RefusalKey::StudyReturned,
        RefusalKey::WordUnknown,
    ];

    /// Its message's name in the catalogues.
    pub fn key(self) -> &'static str {
        match self {
            RefusalKey::Busy => "error-busy",
            RefusalKey::FeedbackLength => "error-feedback-length",
            RefusalKey::FewChallengeItems => "error-few-challenge-items",
            RefusalKey::GuessLength => "error-guess-length",
            RefusalKey::Login => "error-login",
            RefusalKey::MaxFriends => "error-max-friends",
            RefusalKey::NoChallenge => "error-no-challenge",
            RefusalKey::NoPlayer => "error-no-player",
            RefusalKey::NoStudy => "error-no-study",
            RefusalKey::NoStudyUnderWay => "error-no-study-under-way",
            RefusalKey::NotFriend => "error-not-friend",
            RefusalKey::NotSingleWord => "error-not-single-word",
            RefusalKey::OwnPseudonym => "error-own-pseudonym",
            RefusalKey::PairInGame => "error-pair-in-game",
            RefusalKey::PairProposed => "error-pair-proposed",
            RefusalKey::PairSame => "error-pair-same",
            RefusalKey::PasswordLength => "error-password-length",
            RefusalKey::StudyLink => "error-study-link",
            RefusalKey::StudyReturned => "error-study-returned",
            RefusalKey::WordUnknown => "error-word-unknown",
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
