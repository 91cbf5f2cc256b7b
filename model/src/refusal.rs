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

/// A rule a player ran into, said in their language at the HTTP edge: `key` names a
/// message of the interface catalogues (`app/locales/*/main.ftl`) and `args` fill it;
/// `english` is the English message, for logs, the command line and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
    pub english: String,
}

impl Refusal {
    pub fn new(key: &'static str, english: impl Into<String>) -> Self {
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
