//! Large corpora: plain text (one paragraph or document per line, split here into
//! sentences at Unicode sentence boundaries), TSV or JSON Lines, read twice by the
//! store's import (see `Material::import_corpus`):
//!
//! 1. [`check_corpus`] reads every line and reports every malformed one with its line
//!    number; with any problem nothing is written.
//! 2. [`read_batches`] splits, normalises (NFC, runs of whitespace made one space) and
//!    filters by length, and hands on batches of sentences as it reads, so that memory
//!    stays flat: one line and one batch at a time.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;

use gapwise_model::words::normalize;
use gapwise_model::LineError;
use serde::Deserialize;
use unicode_segmentation::UnicodeSegmentation;

use crate::import::{label, ImportFormat, MAX_REPORTED_ERRORS};
use crate::PrepareError;

/// How a corpus file is laid out, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusFormat {
    /// `.txt`: running text, one paragraph or document per line.
    Text,
    /// `.tsv`: a header with `text` and any of `lang`, `source`, `genre`.
    Tsv,
    /// `.jsonl`: objects with `text` and any of `lang`, `source`, `genre`.
    Jsonl,
}

impl CorpusFormat {
    /// `.txt` or `.text`, else the extensions [`ImportFormat::from_path`] knows.
    pub fn from_path(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()? {
            "txt" | "text" => Some(Self::Text),
            _ => ImportFormat::from_path(path).map(|format| match format {
                ImportFormat::Tsv => Self::Tsv,
                ImportFormat::Jsonl => Self::Jsonl,
            }),
        }
    }
}

/// Values for fields a file does not carry, and the sentence length bounds.
#[derive(Clone, Debug)]
pub struct CorpusOptions {
    pub language: Option<String>,
    pub source: Option<String>,
    pub genre: Option<String>,
    /// Shortest and longest sentence kept, in characters.
    pub min_chars: usize,
    pub max_chars: usize,
}

impl Default for CorpusOptions {
    fn default() -> Self {
        CorpusOptions { language: None, source: None, genre: None, min_chars: 10, max_chars: 500 }
    }
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorpusReport {
    /// Sentences read (after splitting), whatever became of them.
    pub sentences: u64,
    pub inserted: u64,
    /// Already in the database, or earlier in the file.
    pub duplicates: u64,
    pub too_short: u64,
    pub too_long: u64,
}

/// One line's fields before defaults.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Record {
    text: String,
    lang: Option<String>,
    source: Option<String>,
    genre: Option<String>,
}

/// A checked line: language, text (not yet split or normalised), source, genre.
struct Line {
    lang: String,
    text: String,
    source: String,
    genre: String,
}

/// One line of a file: its number, its text (or why it is not text), its bytes.
type RawLine = (usize, Result<String, String>, usize);

/// Reads lines from a file, counting bytes for the progress bar.
struct Lines<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
}

impl Lines<BufReader<std::fs::File>> {
    fn open(path: &Path) -> Result<Self, PrepareError> {
        let file = std::fs::File::open(path).map_err(|e| PrepareError::file(path, e))?;
        Ok(Lines::new(BufReader::with_capacity(1 << 20, file)))
    }
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Lines { reader, number: 0, buf: Vec::new() }
    }

    /// The next line (its number, its text or why it is not text, bytes read).
    fn next_line(&mut self) -> Result<Option<RawLine>, PrepareError> {
        self.buf.clear();
        let n = self.reader.by_ref().read_until(b'\n', &mut self.buf).map_err(|e| PrepareError::Input(format!("reading: {e}")))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let text =
            std::str::from_utf8(&self.buf).map(|t| t.trim_end_matches(['\n', '\r']).to_owned()).map_err(|_| "not valid UTF-8".to_owned());
        Ok(Some((self.number, text, n)))
    }
}

/// Parses lines of one format, with the TSV header once it is read.
struct Parser<'a> {
    format: CorpusFormat,
    options: &'a CorpusOptions,
    languages: &'a HashSet<String>,
    /// Column of each TSV field: text, lang, source, genre.
    columns: Option<[Option<usize>; 4]>,
}

impl Parser<'_> {
    /// A data line as a checked [`Line`]; `Ok(None)` for blank lines and the header.
    fn parse(&mut self, raw: &str) -> Result<Option<Line>, String> {
        if raw.trim().is_empty() {
            return Ok(None);
        }
        let record = match self.format {
            CorpusFormat::Text => Record { text: raw.to_owned(), ..Default::default() },
            CorpusFormat::Jsonl => {
                serde_json::from_str(raw).map_err(|e| format!("not a JSON object with text (and lang, source, genre): {e}"))?
            }
            CorpusFormat::Tsv => {
                let Some(columns) = self.columns else {
                    self.columns = Some(tsv_header(raw)?);
                    return Ok(None);
                };
                let fields: Vec<&str> = raw.split('\t').collect();
                let get = |i: Option<usize>| i.and_then(|i| fields.get(i)).map(|f| (*f).to_owned());
                let text = get(columns[0]).ok_or("missing the text field")?;
                Record { text, lang: get(columns[1]), source: get(columns[2]), genre: get(columns[3]) }
            }
        };
        let pick = |given: Option<String>, default: &Option<String>, name: &str| {
            given.or_else(|| default.clone()).ok_or_else(|| format!("no {name}: add the field or give --{name}"))
        };
        let lang = pick(record.lang, &self.options.language, "language")?.trim().to_owned();
        if !self.languages.contains(&lang) {
            return Err(format!("unknown language {lang:?}"));
        }
        if record.text.trim().is_empty() {
            return Err("empty text".into());
        }
        if record.text.contains('\0') {
            return Err("the text holds a NUL character".into());
        }
        Ok(Some(Line {
            lang,
            text: record.text,
            source: label("source", &pick(record.source, &self.options.source, "source")?)?,
            genre: label("genre", &pick(record.genre, &self.options.genre, "genre")?)?,
        }))
    }
}

/// The columns of text, lang, source and genre in a TSV header.
fn tsv_header(raw: &str) -> Result<[Option<usize>; 4], String> {
    let names: Vec<&str> = raw.split('\t').map(str::trim).collect();
    let find = |name: &str| names.iter().position(|n| *n == name);
    if let Some(unknown) = names.iter().find(|n| !["text", "lang", "source", "genre"].contains(n)) {
        return Err(format!("unknown column {unknown:?} (text, lang, source, genre)"));
    }
    let text = find("text").ok_or("the header has no text column")?;
    Ok([Some(text), find("lang"), find("source"), find("genre")])
}

/// The sentences of a line: split when the file is running text, then normalised.
fn sentences(format: CorpusFormat, text: &str) -> Vec<String> {
    let tidy = |s: &str| normalize(s).split_whitespace().collect::<Vec<_>>().join(" ");
    match format {
        CorpusFormat::Text => text.unicode_sentences().map(tidy).filter(|s| !s.is_empty()).collect(),
        CorpusFormat::Tsv | CorpusFormat::Jsonl => vec![tidy(text)],
    }
}

/// A sentence ready to insert: language, text, source, genre.
pub type Sentence = (String, String, String, String);

/// Pass 1: every malformed line, with its number (none when the file is fine).
pub fn check_file(
    path: &Path,
    format: CorpusFormat,
    options: &CorpusOptions,
    languages: &HashSet<String>,
) -> Result<Vec<LineError>, PrepareError> {
    check_corpus(Lines::open(path)?.reader, format, options, languages)
}

/// Every malformed line of a corpus read from `reader`, with its number, as the
/// import's first pass finds them (`languages`: the codes a line may name).
pub fn check_corpus(
    reader: impl BufRead,
    format: CorpusFormat,
    options: &CorpusOptions,
    languages: &HashSet<String>,
) -> Result<Vec<LineError>, PrepareError> {
    let mut parser = Parser { format, options, languages, columns: None };
    let (mut lines, mut errors) = (Lines::new(reader), Vec::new());
    while let Some((number, raw, _)) = lines.next_line()? {
        if let Err(message) = raw.and_then(|raw| parser.parse(&raw)) {
            errors.push(LineError { line: number, message });
            if errors.len() > 10 * MAX_REPORTED_ERRORS {
                break;
            }
        }
    }
    if format == CorpusFormat::Tsv && parser.columns.is_none() {
        errors.push(LineError { line: 1, message: "the file has no header".into() });
    }
    Ok(errors)
}

/// Pass 2's reading half: parses, splits, tidies and filters, and hands batches of
/// at most `batch_rows` sentences (with the bytes read so far) to `send`, which says
/// whether the import goes on; returns the counts of sentences read and filtered out.
pub fn read_batches(
    path: &Path,
    format: CorpusFormat,
    options: &CorpusOptions,
    languages: &HashSet<String>,
    batch_rows: usize,
    mut send: impl FnMut(Vec<Sentence>, u64) -> bool,
) -> Result<CorpusReport, PrepareError> {
    let mut parser = Parser { format, options, languages, columns: None };
    let (mut lines, mut report, mut bytes) = (Lines::open(path)?, CorpusReport::default(), 0u64);
    let mut batch = Vec::with_capacity(batch_rows);
    let stopped = || PrepareError::Input("the import stopped".into());
    while let Some((_, raw, n)) = lines.next_line()? {
        bytes += n as u64;
        let Some(line) = raw.and_then(|raw| parser.parse(&raw)).map_err(PrepareError::Input)? else { continue };
        for sentence in sentences(format, &line.text) {
            report.sentences += 1;
            let chars = sentence.chars().count();
            if chars < options.min_chars {
                report.too_short += 1;
            } else if chars > options.max_chars {
                report.too_long += 1;
            } else {
                batch.push((line.lang.clone(), sentence, line.source.clone(), line.genre.clone()));
            }
            if batch.len() == batch_rows && !send(std::mem::take(&mut batch), bytes) {
                return Err(stopped());
            }
        }
    }
    if !send(batch, bytes) {
        return Err(stopped());
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_text_is_split_and_tidied() {
        let got = sentences(CorpusFormat::Text, "Il pleut.  Le chat dort-il ? Oui !\tFin.");
        assert_eq!(got, ["Il pleut.", "Le chat dort-il ?", "Oui !", "Fin."]);
        assert_eq!(sentences(CorpusFormat::Tsv, " One. Two. "), ["One. Two."], "rows of a table are kept whole");
        assert_eq!(sentences(CorpusFormat::Jsonl, "e\u{301}te\u{301}  x"), ["été x"]);
    }

    #[test]
    fn tsv_headers_name_their_columns() {
        assert_eq!(tsv_header("lang\ttext"), Ok([Some(1), Some(0), None, None]));
        assert!(tsv_header("lang\tsentence").is_err());
        assert!(tsv_header("source\tgenre").is_err());
    }
}
