//! Corpus import at scale: millions of sentences from plain text (one paragraph or
//! document per line, split into sentences), TSV or JSON Lines, streamed twice.
//!
//! 1. A check pass reads every line and reports every malformed one with its line
//!    number; with any problem nothing is written.
//! 2. A load pass splits plain text into sentences (Unicode sentence boundaries),
//!    normalises them (NFC, runs of whitespace made one space), drops those outside
//!    the length bounds, and inserts them in multi-row statements, committed every
//!    [`ROWS_PER_COMMIT`] rows; a sentence already present (same language and text)
//!    is skipped, so a rerun after a stop resumes by inserting only what is missing.
//!
//! Memory stays flat: one line and one batch at a time, and the word index of the
//! rows of one transaction ([`Postings`]), built on a thread of its own as rows go
//! in and written just before the transaction commits.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::Deserialize;
use sqlx::{Acquire, Executor, Row};
use unicode_segmentation::UnicodeSegmentation;

use super::postings::Postings;
use super::import::{import_error, label, MAX_REPORTED_ERRORS, MAX_SENTENCE_CHARS};
use super::words::normalize;
use super::{Backend, ImportFormat, LineError, Store, StoreError};

/// Rows per INSERT statement (4 parameters a row). Set when SQLite's parameters
/// were numbered, which cost time quadratic in their number (at 500 rows a third
/// of a large import); they are anonymous now (see [`super::placeholders`]).
pub(crate) const ROWS_PER_STATEMENT: usize = 20;
/// Rows per transaction: what a stop can lose.
pub const ROWS_PER_COMMIT: usize = 100_000;
/// SQLite page cache of the import's connection, in KiB (SQLite's default is 2,000;
/// it is set back afterwards).
const IMPORT_CACHE_KIB: u32 = 256 * 1024;

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
    fn open(path: &Path) -> Result<Self, StoreError> {
        let file = std::fs::File::open(path).map_err(|e| StoreError::Invalid(format!("{}: {e}", path.display())))?;
        Ok(Lines::new(BufReader::with_capacity(1 << 20, file)))
    }
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Lines { reader, number: 0, buf: Vec::new() }
    }

    /// The next line (its number, its text or why it is not text, bytes read).
    fn next_line(&mut self) -> Result<Option<RawLine>, StoreError> {
        self.buf.clear();
        let n = self.reader.by_ref().read_until(b'\n', &mut self.buf).map_err(|e| StoreError::Invalid(format!("reading: {e}")))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let text = std::str::from_utf8(&self.buf)
            .map(|t| t.trim_end_matches(['\n', '\r']).to_owned())
            .map_err(|_| "not valid UTF-8".to_owned());
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
            CorpusFormat::Jsonl => serde_json::from_str(raw).map_err(|e| format!("not a JSON object with text (and lang, source, genre): {e}"))?,
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
type Row4 = (String, String, String, String);

/// Pass 1: every malformed line, with its number (none when the file is fine).
fn check_file(path: &Path, format: CorpusFormat, options: &CorpusOptions, languages: &HashSet<String>) -> Result<Vec<LineError>, StoreError> {
    check_corpus(Lines::open(path)?.reader, format, options, languages)
}

/// Every malformed line of a corpus read from `reader`, with its number, as the
/// import's first pass finds them (`languages`: the codes a line may name).
pub fn check_corpus(reader: impl BufRead, format: CorpusFormat, options: &CorpusOptions, languages: &HashSet<String>) -> Result<Vec<LineError>, StoreError> {
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

/// Pass 2's reading half: parses, splits, tidies and filters, and sends batches of
/// sentences (with the bytes read so far) to the writing half; returns the counts
/// of sentences read and filtered out.
fn read_batches(
    path: &Path,
    format: CorpusFormat,
    options: &CorpusOptions,
    languages: &HashSet<String>,
    out: &tokio::sync::mpsc::Sender<(Vec<Row4>, u64)>,
) -> Result<CorpusReport, StoreError> {
    let mut parser = Parser { format, options, languages, columns: None };
    let (mut lines, mut report, mut bytes) = (Lines::open(path)?, CorpusReport::default(), 0u64);
    let mut batch = Vec::with_capacity(ROWS_PER_STATEMENT);
    let closed = || StoreError::Invalid("the import stopped".into());
    while let Some((_, raw, n)) = lines.next_line()? {
        bytes += n as u64;
        let Some(line) = raw.and_then(|raw| parser.parse(&raw)).map_err(StoreError::Invalid)? else { continue };
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
            if batch.len() == ROWS_PER_STATEMENT {
                out.blocking_send((std::mem::take(&mut batch), bytes)).map_err(|_| closed())?;
            }
        }
    }
    out.blocking_send((batch, bytes)).map_err(|_| closed())?;
    Ok(report)
}

impl Store {
    /// Imports a corpus file (see the module documentation); `progress` is called
    /// with the bytes read so far in the load pass. Reading and parsing run on a
    /// thread of their own, beside the database writes.
    pub async fn import_corpus(&self, path: &Path, options: &CorpusOptions, progress: &(dyn Fn(u64) + Sync)) -> Result<CorpusReport, StoreError> {
        let format = CorpusFormat::from_path(path)
            .ok_or_else(|| StoreError::Invalid(format!("{}: use a .txt, .tsv or .jsonl file", path.display())))?;
        if options.min_chars > options.max_chars || options.max_chars > MAX_SENTENCE_CHARS {
            return Err(StoreError::Invalid(format!("sentence lengths must satisfy min <= max <= {MAX_SENTENCE_CHARS}")));
        }
        let languages: HashSet<String> = sqlx::query_scalar("SELECT code FROM languages").fetch_all(self.pool()).await?.into_iter().collect();
        let (path, options) = (path.to_owned(), options.clone());
        let joined = |e: tokio::task::JoinError| StoreError::Invalid(format!("the import failed: {e}"));

        let errors = {
            let (path, options, languages) = (path.clone(), options.clone(), languages.clone());
            tokio::task::spawn_blocking(move || check_file(&path, format, &options, &languages)).await.map_err(joined)??
        };
        if !errors.is_empty() {
            return Err(import_error(errors));
        }

        let (send, mut batches) = tokio::sync::mpsc::channel(8);
        let reader = tokio::task::spawn_blocking(move || read_batches(&path, format, &options, &languages, &send));
        let (mut inserted, mut attempted, mut in_tx, mut read) = (0u64, 0u64, 0usize, 0u64);
        // One connection for the whole load; on SQLite with a large page cache, since
        // the unique (lang, text) index and the word index take writes all over.
        let mut conn = self.pool().acquire().await?;
        if self.backend() == Backend::Sqlite {
            conn.execute(format!("PRAGMA cache_size = -{IMPORT_CACHE_KIB}").as_str()).await?;
        }
        let mut tx = conn.begin().await?;
        let (to_indexer, indexer_inbox) = tokio::sync::mpsc::unbounded_channel();
        let indexer = tokio::task::spawn_blocking(move || index_rows(indexer_inbox));
        while let Some((batch, bytes)) = batches.recv().await {
            read = bytes;
            let rows = batch.len();
            let new = insert_batch(&mut tx, batch).await?;
            inserted += new.len() as u64;
            to_indexer.send(ToIndexer::Rows(new)).map_err(|_| indexer_stopped())?;
            attempted += rows as u64;
            in_tx += rows;
            if in_tx >= ROWS_PER_COMMIT {
                take_postings(&to_indexer).await?.flush(&mut tx).await?;
                tx.commit().await?;
                tx = conn.begin().await?;
                in_tx = 0;
                progress(bytes);
            }
        }
        let mut report = reader.await.map_err(joined)??;
        take_postings(&to_indexer).await?.flush(&mut tx).await?;
        tx.commit().await?;
        drop(to_indexer);
        indexer.await.map_err(joined)?;
        if self.backend() == Backend::Sqlite {
            conn.execute("PRAGMA cache_size = -2000").await?;
        }
        progress(read);
        report.inserted = inserted;
        report.duplicates = attempted - inserted;
        Ok(report)
    }
}

/// Inserts `batch` (a sentence already present is skipped); returns the id,
/// language and text of those that went in.
async fn insert_batch(tx: &mut sqlx::Transaction<'_, sqlx::Any>, batch: Vec<Row4>) -> Result<Vec<(i64, String, String)>, StoreError> {
    if batch.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "INSERT INTO sentences (lang, text, source, genre) VALUES {} ON CONFLICT (lang, text) DO NOTHING RETURNING id, lang, text",
        super::placeholders(tx, batch.len(), 4)
    );
    let mut query = sqlx::query(&sql);
    for (lang, text, source, genre) in batch {
        query = query.bind(lang).bind(text).bind(source).bind(genre);
    }
    let rows = query.fetch_all(&mut **tx).await?;
    rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?))).collect()
}

/// What the import's word indexer is sent: new sentences, or a request for the
/// index of those sent so far (to write before a commit).
enum ToIndexer {
    Rows(Vec<(i64, String, String)>),
    Take(tokio::sync::oneshot::Sender<Postings>),
}

/// The word indexer: builds the index of new sentences on a thread of its own, so
/// that it runs beside the database's writes.
fn index_rows(mut inbox: tokio::sync::mpsc::UnboundedReceiver<ToIndexer>) {
    let mut postings = Postings::default();
    while let Some(message) = inbox.blocking_recv() {
        match message {
            ToIndexer::Rows(rows) => rows.iter().for_each(|(id, lang, text)| postings.add(*id, lang, text)),
            ToIndexer::Take(reply) => {
                let _ = reply.send(std::mem::take(&mut postings));
            }
        }
    }
}

/// The index of the sentences sent to the indexer since the last call.
async fn take_postings(indexer: &tokio::sync::mpsc::UnboundedSender<ToIndexer>) -> Result<Postings, StoreError> {
    let (reply, postings) = tokio::sync::oneshot::channel();
    indexer.send(ToIndexer::Take(reply)).map_err(|_| indexer_stopped())?;
    postings.await.map_err(|_| indexer_stopped())
}

fn indexer_stopped() -> StoreError {
    StoreError::Invalid("the word indexer stopped".into())
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
