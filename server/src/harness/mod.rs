//! The field's evaluation harness as a scorer: lm-evaluation-harness tasks written
//! from the items as stored ([`tasks`]), and its per-document results read back in
//! ([`results`]), so that models any backend of the harness runs (Hugging Face, vLLM
//! across GPUs, models behind an API) take their place beside the ones
//! `gapwise score` runs: on the leaderboard, in the report and in the export.
//!
//! Every document names its Gapwise request by an id (see [`Request`]) and the
//! database it was written from, so that results come back to the items they were
//! asked about, and results of another database are refused.

pub mod results;
pub mod tasks;

use std::fmt;

use gapwise_model::{DefinitionTask, Mode, PairId, PlayedWord, Teaching};

/// A mode's requests, as tasks name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum TaskMode {
    /// The main game: both sentences of each context (Eq. 2).
    Substitution,
    /// Next word: each word of a sentence after the text before it.
    Guess,
    /// Word and definition: the word after each candidate's definition pattern.
    Define,
    /// Invented words: the text after the blank, after each option (partial scoring).
    NewWords,
}

impl TaskMode {
    /// The harness's tasks of `mode`, where models play it through the harness
    /// (rating has no task: a model selects the contexts it rates by its scores; nor
    /// has the cloze game, whose model words are the next-word task's predictions).
    pub const fn of(mode: Mode) -> Option<TaskMode> {
        match mode {
            Mode::Play => Some(TaskMode::Substitution),
            Mode::Rate => None,
            Mode::Define => Some(TaskMode::Define),
            Mode::Guess => Some(TaskMode::Guess),
            Mode::NewWords => Some(TaskMode::NewWords),
            Mode::Cloze => None,
        }
    }

    /// Every mode's tasks.
    pub fn all() -> Vec<TaskMode> {
        Mode::ALL.into_iter().filter_map(TaskMode::of).collect()
    }

    /// As task names and ids write it.
    pub fn code(self) -> &'static str {
        match self {
            TaskMode::Substitution => "substitution",
            TaskMode::Guess => "guess",
            TaskMode::Define => "define",
            TaskMode::NewWords => "new_words",
        }
    }
}

impl fmt::Display for TaskMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What one document asks, by its id: `substitution/PAIR/SENTENCE`,
/// `guess/SENTENCE/POSITION`, `define/TASK/TARGET/CANDIDATE`,
/// `new_words/ITEM/WORD/TEACHING` (a `/` or `%` inside a name written `%2F`, `%25`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Request {
    Substitution { pair: PairId, sentence: i64 },
    Guess { sentence: i64, position: usize },
    Define { task: DefinitionTask, target: String, candidate: String },
    NewWords { item: String, word: PlayedWord, teaching: Teaching },
}

impl Request {
    pub fn mode(&self) -> TaskMode {
        match self {
            Request::Substitution { .. } => TaskMode::Substitution,
            Request::Guess { .. } => TaskMode::Guess,
            Request::Define { .. } => TaskMode::Define,
            Request::NewWords { .. } => TaskMode::NewWords,
        }
    }

    /// The request an id names, if it names one.
    pub fn parse(id: &str) -> Option<Request> {
        let parts: Vec<&str> = id.split('/').collect();
        match parts.as_slice() {
            ["substitution", pair, sentence] => {
                Some(Request::Substitution { pair: PairId(pair.parse().ok()?), sentence: sentence.parse().ok()? })
            }
            ["guess", sentence, position] => Some(Request::Guess { sentence: sentence.parse().ok()?, position: position.parse().ok()? }),
            ["define", task, target, candidate] => {
                Some(Request::Define { task: DefinitionTask::parse(task)?, target: unescaped(target), candidate: unescaped(candidate) })
            }
            ["new_words", item, word, teaching] => {
                Some(Request::NewWords { item: unescaped(item), word: PlayedWord::parse(word)?, teaching: Teaching::parse(teaching)? })
            }
            _ => None,
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Substitution { pair, sentence } => write!(f, "substitution/{pair}/{sentence}"),
            Request::Guess { sentence, position } => write!(f, "guess/{sentence}/{position}"),
            Request::Define { task, target, candidate } => write!(f, "define/{}/{}/{}", task.code(), escaped(target), escaped(candidate)),
            Request::NewWords { item, word, teaching } => write!(f, "new_words/{}/{}/{}", escaped(item), word.code(), teaching.code()),
        }
    }
}

/// A name as an id writes it: `/` and `%` written `%2F` and `%25`.
fn escaped(name: &str) -> String {
    name.replace('%', "%25").replace('/', "%2F")
}

fn unescaped(part: &str) -> String {
    part.replace("%2F", "/").replace("%25", "%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_requests_both_ways() {
        for request in [
            Request::Substitution { pair: PairId(3), sentence: 41 },
            Request::Guess { sentence: 7, position: 2 },
            Request::Define { task: DefinitionTask::D2w, target: "dog.n.01".into(), candidate: "cat.n.01".into() },
            Request::Define { task: DefinitionTask::W2d, target: "and/or.n.01".into(), candidate: "100%2F.n.01".into() },
            Request::NewWords { item: "wg-12".into(), word: PlayedWord::Invented, teaching: Teaching::DefinitionSuffix },
        ] {
            assert_eq!(Request::parse(&request.to_string()), Some(request.clone()), "{request}");
        }
        assert_eq!(Request::parse("substitution/x/1"), None);
        assert_eq!(Request::parse("other/1/2"), None);
    }
}
