//! Sentence and word-pair files (TSV or JSON Lines), checked: every line is read and
//! every problem reported with its line number, so that an import is whole or nothing
//! (the store inserts the rows in one transaction).
//!
//! TSV files start with a header naming the columns, in any order:
//! sentences need `lang text source genre`, pairs need `lang target distractor strategy`.
//! JSONL files hold one object per line with the same keys. Blank lines are skipped.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use gapwise_model::words::{is_single_word, normalize};
use gapwise_model::{LineError, Refusal, RefusalKey, STRATEGIES};
use serde::Deserialize;

pub const MAX_SENTENCE_CHARS: usize = 2000;
const MAX_LABEL_CHARS: usize = 100;
pub const MAX_REPORTED_ERRORS: usize = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportKind {
    Sentences,
    Pairs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    Tsv,
    Jsonl,
}

impl ImportFormat {
    /// The format named by a file's extension (`.tsv`, `.jsonl`).
    pub fn from_path(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()? {
            "tsv" | "tab" => Some(Self::Tsv),
            "jsonl" | "ndjson" => Some(Self::Jsonl),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SentenceRow {
    lang: String,
    text: String,
    source: String,
    genre: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairRow {
    lang: String,
    target: String,
    distractor: String,
    strategy: String,
}

/// A checked row, ready to insert.
pub enum Row {
    Sentence { lang: String, text: String, source: String, genre: String },
    Pair { lang: String, target: String, distractor: String, key: String, strategy: String },
}

/// Order-insensitive identity of a pair: both words lower-cased, sorted, joined by '|'.
pub fn pair_key(a: &str, b: &str) -> String {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    if a <= b {
        format!("{a}|{b}")
    } else {
        format!("{b}|{a}")
    }
}

fn columns(kind: ImportKind) -> [&'static str; 4] {
    match kind {
        ImportKind::Sentences => ["lang", "text", "source", "genre"],
        ImportKind::Pairs => ["lang", "target", "distractor", "strategy"],
    }
}

/// Splits TSV lines into JSON-like field maps, using the header for names.
fn tsv_fields<'a>(
    kind: ImportKind,
    lines: impl Iterator<Item = (usize, &'a str)>,
    errors: &mut Vec<LineError>,
) -> Vec<(usize, [String; 4])> {
    let mut lines = lines.filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else { return Vec::new() };
    let names: Vec<&str> = header.trim_end_matches('\r').split('\t').map(str::trim).collect();
    let wanted = columns(kind);
    let mut positions = [0usize; 4];
    for (slot, name) in positions.iter_mut().zip(wanted) {
        match names.iter().position(|n| *n == name) {
            Some(p) => *slot = p,
            None => {
                errors.push(LineError {
                    line: header_line,
                    message: format!("the header must name the columns {}; `{name}` is missing", wanted.join(", ")),
                });
                return Vec::new();
            }
        }
    }
    let mut rows = Vec::new();
    for (line, text) in lines {
        let cells: Vec<&str> = text.trim_end_matches('\r').split('\t').collect();
        if cells.len() != names.len() {
            errors.push(LineError { line, message: format!("expected {} tab-separated fields, found {}", names.len(), cells.len()) });
            continue;
        }
        rows.push((line, positions.map(|p| cells.get(p).copied().unwrap_or_default().to_owned())));
    }
    rows
}

fn jsonl_fields<'a>(
    kind: ImportKind,
    lines: impl Iterator<Item = (usize, &'a str)>,
    errors: &mut Vec<LineError>,
) -> Vec<(usize, [String; 4])> {
    let mut rows = Vec::new();
    for (line, text) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let parsed = match kind {
            ImportKind::Sentences => serde_json::from_str::<SentenceRow>(text).map(|r| [r.lang, r.text, r.source, r.genre]),
            ImportKind::Pairs => serde_json::from_str::<PairRow>(text).map(|r| [r.lang, r.target, r.distractor, r.strategy]),
        };
        match parsed {
            Ok(fields) => rows.push((line, fields)),
            Err(e) => errors.push(LineError { line, message: format!("not a valid JSON row: {e}") }),
        }
    }
    rows
}

pub fn label(name: &str, value: &str) -> Result<String, String> {
    let value = normalize(value);
    if value.is_empty() || value.chars().count() > MAX_LABEL_CHARS {
        return Err(format!("{name} must have 1 to {MAX_LABEL_CHARS} characters"));
    }
    Ok(value)
}

fn word(name: &str, value: &str) -> Result<String, Refusal> {
    let value = normalize(value);
    if !is_single_word(&value) {
        return Err(Refusal::new(RefusalKey::NotSingleWord, format!("{name} {value:?} is not a single word")).arg("word", value));
    }
    Ok(value)
}

/// Two single, different words, normalised, with their order-insensitive key.
pub fn checked_pair(target: &str, distractor: &str) -> Result<(String, String, String), Refusal> {
    let (target, distractor) = (word("target", target)?, word("distractor", distractor)?);
    if target.to_lowercase() == distractor.to_lowercase() {
        return Err(Refusal::new(RefusalKey::PairSame, "target and distractor are the same word"));
    }
    let key = pair_key(&target, &distractor);
    Ok((target, distractor, key))
}

fn validate(kind: ImportKind, [lang, a, b, c]: [String; 4], langs: &HashSet<String>) -> Result<Row, String> {
    let lang = lang.trim().to_owned();
    if !langs.contains(&lang) {
        let mut known: Vec<&str> = langs.iter().map(String::as_str).collect();
        known.sort_unstable();
        return Err(format!("unknown language {lang:?} (known: {})", known.join(", ")));
    }
    match kind {
        ImportKind::Sentences => {
            let text = normalize(&a);
            if text.is_empty() || text.chars().count() > MAX_SENTENCE_CHARS {
                return Err(format!("text must have 1 to {MAX_SENTENCE_CHARS} characters"));
            }
            if text.contains('\0') {
                return Err("the text holds a NUL character".into());
            }
            Ok(Row::Sentence { lang, text, source: label("source", &b)?, genre: label("genre", &c)? })
        }
        ImportKind::Pairs => {
            let (target, distractor, key) = checked_pair(&a, &b).map_err(|r| r.english)?;
            let strategy = c.trim().to_owned();
            if !STRATEGIES.contains(&strategy.as_str()) {
                return Err(format!("strategy must be one of {}, not {strategy:?}", STRATEGIES.join(", ")));
            }
            Ok(Row::Pair { lang, target, distractor, key, strategy })
        }
    }
}

/// The checked rows of `text`, or every problem with its line number
/// (`languages`: the codes a row may name). No database is touched.
pub fn parse_rows(
    kind: ImportKind,
    format: ImportFormat,
    text: &str,
    langs: &HashSet<String>,
) -> Result<Vec<(usize, Row)>, Vec<LineError>> {
    let mut errors = Vec::new();
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let fields = match format {
        ImportFormat::Tsv => tsv_fields(kind, lines, &mut errors),
        ImportFormat::Jsonl => jsonl_fields(kind, lines, &mut errors),
    };
    let mut rows = Vec::with_capacity(fields.len());
    let mut first_line_of_key: HashMap<(String, String), usize> = HashMap::new();
    for (line, f) in fields {
        match validate(kind, f, langs) {
            Ok(row) => {
                if let Row::Pair { lang, key, .. } = &row {
                    if let Some(first) = first_line_of_key.insert((lang.clone(), key.clone()), line) {
                        errors.push(LineError { line, message: format!("the same pair as line {first}") });
                    }
                }
                rows.push((line, row));
            }
            Err(message) => errors.push(LineError { line, message }),
        }
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(LineError { line: 1, message: "the file holds no rows".into() });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(rows)
}

/// How many rows of `text` an import would take, or every problem with its line
/// number, without touching a database (for checks before an upload, and fuzzing).
pub fn check_import(kind: ImportKind, format: ImportFormat, text: &str, languages: &HashSet<String>) -> Result<usize, Vec<LineError>> {
    parse_rows(kind, format, text, languages).map(|rows| rows.len())
}

/// `errors` in line order, the first [`MAX_REPORTED_ERRORS`] of them and a line that
/// counts the rest.
pub fn reported(mut errors: Vec<LineError>) -> Vec<LineError> {
    errors.sort_by_key(|e| e.line);
    let total = errors.len();
    if total > MAX_REPORTED_ERRORS {
        errors.truncate(MAX_REPORTED_ERRORS);
        errors.push(LineError {
            line: errors.last().map_or(0, |e| e.line),
            message: format!("... and {} more problems", total - MAX_REPORTED_ERRORS),
        });
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_keys_ignore_order_and_case() {
        assert_eq!(pair_key("Red", "green"), pair_key("green", "RED"));
        assert_eq!(pair_key("b", "a"), "a|b");
    }

    #[test]
    fn tsv_needs_every_column_in_the_header() {
        let mut errors = Vec::new();
        let rows = tsv_fields(ImportKind::Pairs, [(1, "lang\ttarget\tstrategy")].into_iter(), &mut errors);
        assert!(rows.is_empty());
        assert_eq!(errors[0].line, 1);
        assert!(errors[0].message.contains("`distractor` is missing"), "{}", errors[0].message);
    }

    #[test]
    fn tsv_columns_may_come_in_any_order() {
        let mut errors = Vec::new();
        let lines = [(1, "strategy\tlang\tdistractor\ttarget"), (2, "a-priori\ten\tgreen\tred")];
        let rows = tsv_fields(ImportKind::Pairs, lines.into_iter(), &mut errors);
        assert!(errors.is_empty());
        assert_eq!(rows, vec![(2, ["en", "red", "green", "a-priori"].map(String::from))]);
    }
}
