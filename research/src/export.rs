//! Export files: the store's anonymised answer rows written as CSV, JSON Lines or
//! Parquet, all with the same flat columns (described once, in [`columns`], which
//! also writes the dataset card's column dictionary), and the dataset card itself.
//!
//! Rows are written as they stream out of the database; Parquet buffers one row
//! group ([`ROW_GROUP`] rows) at a time. Items have at most 5 contexts, so each
//! context has its own columns (`context_1` ... `context_5`, empty beyond k).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ResearchError;
use gapwise_model::{answer_flag, AnswerFilter, Timing, COARSE_CLOCK_US, FAST_ANSWER_FLOOR_MS, GOLD_MISSES_TO_FLAG};
use gapwise_store::{ExportRow, ModelInfo, Store, BLANK};
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DataType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::Type;

/// Rows per Parquet row group.
pub const ROW_GROUP: usize = 65_536;

/// The most contexts an item has (k = 5).
const MAX_CONTEXTS: usize = 5;

/// An export file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Jsonl,
    Parquet,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "csv" => Ok(Format::Csv),
            "jsonl" => Ok(Format::Jsonl),
            "parquet" => Ok(Format::Parquet),
            other => Err(format!("unknown export format {other:?} (csv, jsonl or parquet)")),
        }
    }
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Jsonl => "application/x-ndjson",
            Format::Parquet => "application/vnd.apache.parquet",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Bool,
    Text,
}

/// One exported column.
pub struct Column {
    pub name: String,
    kind: Kind,
    pub description: String,
}

/// The columns of an export with the scores of `models`.
pub fn columns(models: &[String]) -> Vec<Column> {
    let c = |name: &str, kind, description: &str| Column { name: name.into(), kind, description: description.into() };
    let mut cols = vec![
        c("item_id", Kind::Int, "the item (a word pair and its k contexts); the same id in every export"),
        c("language", Kind::Text, "language code: en, es, fr, it or ru"),
        c("k", Kind::Int, "number of contexts shown: 1, 3 or 5"),
        c("target", Kind::Text, "the word that was in the contexts"),
        c("distractor", Kind::Text, "the other word offered"),
        c("strategy", Kind::Text, "how the pair was made: a-priori, distributional or suggested"),
        c("creator", Kind::Text, "export ID of the player who proposed the pair (empty for curated pairs)"),
        c("annotator", Kind::Text, "export ID of the player who answered: random, stable across exports"),
        c("chosen", Kind::Text, "the word the annotator picked"),
        c("correct", Kind::Bool, "whether the annotator picked the target"),
        c("client_ms", Kind::Int, "response time measured in the browser, from the frame in which the item was first painted (its requestAnimationFrame timestamp) to the input event's timestamp (ms; empty without JavaScript or when out of range)"),
        c("client_ms_reported", Kind::Int, "the time the browser sent when it cannot be true (zero, negative or over an hour), kept apart and flagged time_untrusted; empty otherwise"),
        c("server_ms", Kind::Int, "time from serving the item to receiving the answer, measured by the server (ms)"),
        c("option_order", Kind::Text, "the two words in the order they were shown, first|second"),
        c("input", Kind::Text, "what answered: mouse, touch, pen or key (a shortcut, or Enter or Space on a button); empty without JavaScript"),
        c("hidden_changes", Kind::Int, "times the page went hidden (another tab, a minimised window) while the item was shown; more than 0 flags the answer tab_hidden"),
        c("clock_us", Kind::Int, &format!("the smallest step of the browser's clock, measured on the page (µs); over {COARSE_CLOCK_US} flags the answer coarse_clock")),
        c("frame_us", Kind::Int, "the time from the item's first frame to the next (µs): the precision of the onset"),
        c(
            "flag",
            Kind::Text,
            &format!("quality control: too_fast when the response time (client_ms, else server_ms) is under {FAST_ANSWER_FLOOR_MS} ms, too fast to have read a sentence; time_untrusted when the browser's time could not be true (see client_ms_reported); tab_hidden and coarse_clock (see hidden_changes and clock_us); ';'-joined; empty otherwise. Flagged answers are kept for the analysis to decide"),
        ),
        c("gold", Kind::Bool, "whether the item is gold: an admin verified that its contexts call for the target; gold items are served to every player"),
        c(
            "player_flag",
            Kind::Text,
            &format!(
                "quality control of the player who answered, ';'-joined: too_fast (some answers under {FAST_ANSWER_FLOOR_MS} ms), gold_failing ({GOLD_MISSES_TO_FLAG} or more gold items missed, more than got right), assignment_returned or assignment_abandoned (a crowd assignment given back or timed out; its items went to others); empty otherwise"
            ),
        ),
    ];
    for i in 1..=MAX_CONTEXTS {
        cols.push(c(&format!("context_{i}"), Kind::Text, &format!("context {i}, the target replaced by {BLANK} (empty when k < {i})")));
        cols.push(c(&format!("source_{i}"), Kind::Text, &format!("where context {i} comes from")));
        cols.push(c(&format!("genre_{i}"), Kind::Text, &format!("genre of context {i}")));
    }
    for m in models {
        cols.push(c(
            &score_column(m),
            Kind::Float,
            &format!("Eq. 2 score of model {m}: sum over the contexts of log p(target) - log p(distractor); > 0 means the model picks the target"),
        ));
    }
    cols
}

/// `score_` and the model id, with anything but letters, digits, `-` and `.` made `_`.
fn score_column(model: &str) -> String {
    let safe: String = model.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '_' }).collect();
    format!("score_{safe}")
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(Option<i64>),
    Float(Option<f64>),
    Bool(Option<bool>),
    Text(Option<String>),
}

/// A row's values, in the order of [`columns`].
fn values(row: ExportRow) -> Vec<Value> {
    let text = |s: String| Value::Text(Some(s));
    let mut v = vec![
        Value::Int(Some(row.item_id.get())),
        text(row.language),
        Value::Int(Some(row.k)),
        text(row.target),
        text(row.distractor),
        text(row.strategy),
        Value::Text(row.creator),
        text(row.annotator),
        text(row.chosen),
        Value::Bool(Some(row.correct)),
        Value::Int(row.client_ms),
        Value::Int(row.client_ms_reported),
        Value::Int(Some(row.server_ms)),
        text(row.option_order),
        Value::Text(row.trial.input.map(|i| i.code().to_owned())),
        Value::Int(row.trial.hidden.map(i64::from)),
        Value::Int(row.trial.clock_us.map(i64::from)),
        Value::Int(row.trial.frame_us.map(i64::from)),
        Value::Text(answer_flag(
            Timing { client_ms: row.client_ms, client_ms_reported: row.client_ms_reported, server_ms: row.server_ms },
            row.trial,
        )),
        Value::Bool(Some(row.gold)),
        Value::Text(row.player_flags),
    ];
    let mut contexts = row.contexts.into_iter();
    for _ in 0..MAX_CONTEXTS {
        match contexts.next() {
            Some(c) => v.extend([text(c.text), text(c.source), text(c.genre)]),
            None => v.extend([Value::Text(None), Value::Text(None), Value::Text(None)]),
        }
    }
    v.extend(row.model_scores.into_iter().map(Value::Float));
    v
}

/// A row as one JSON object, written without building a map.
struct JsonRow<'a> {
    names: &'a [String],
    values: &'a [Value],
}

impl serde::Serialize for JsonRow<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.names.len()))?;
        for (name, value) in self.names.iter().zip(self.values) {
            match value {
                Value::Int(v) => map.serialize_entry(name, v)?,
                Value::Float(v) => map.serialize_entry(name, v)?,
                Value::Bool(v) => map.serialize_entry(name, v)?,
                Value::Text(v) => map.serialize_entry(name, v)?,
            }
        }
        map.end()
    }
}

/// A failed write of the export.
fn io(e: impl std::fmt::Display) -> ResearchError {
    ResearchError::Write { what: "export", message: e.to_string() }
}

/// Where rows go: one writer per format.
enum Sink<W: Write + Send> {
    Csv(csv::Writer<W>),
    Jsonl(std::io::BufWriter<W>, Vec<String>),
    Parquet(ParquetSink<W>),
}

impl<W: Write + Send> Sink<W> {
    fn new(format: Format, out: W, cols: &[Column]) -> Result<Self, ResearchError> {
        let names: Vec<String> = cols.iter().map(|c| c.name.clone()).collect();
        Ok(match format {
            Format::Csv => {
                let mut w = csv::Writer::from_writer(out);
                w.write_record(&names).map_err(io)?;
                Sink::Csv(w)
            }
            Format::Jsonl => Sink::Jsonl(std::io::BufWriter::new(out), names),
            Format::Parquet => Sink::Parquet(ParquetSink::new(out, cols)?),
        })
    }

    fn write(&mut self, row: Vec<Value>) -> Result<(), ResearchError> {
        match self {
            Sink::Csv(w) => {
                let fields = row.into_iter().map(|v| match v {
                    Value::Int(Some(i)) => i.to_string(),
                    Value::Float(Some(f)) => f.to_string(),
                    Value::Bool(Some(b)) => b.to_string(),
                    Value::Text(Some(s)) => s,
                    _ => String::new(),
                });
                w.write_record(fields).map_err(io)
            }
            Sink::Jsonl(w, names) => {
                serde_json::to_writer(&mut *w, &JsonRow { names, values: &row }).map_err(io)?;
                w.write_all(b"\n").map_err(io)
            }
            Sink::Parquet(p) => p.write(row),
        }
    }

    fn finish(self) -> Result<(), ResearchError> {
        match self {
            Sink::Csv(mut w) => w.flush().map_err(io),
            Sink::Jsonl(mut w, _) => w.flush().map_err(io),
            Sink::Parquet(p) => p.finish(),
        }
    }
}

/// Buffers a row group column by column, then writes it.
struct ParquetSink<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    kinds: Vec<Kind>,
    buffered: Vec<Vec<Value>>,
    rows: usize,
}

impl<W: Write + Send> ParquetSink<W> {
    fn new(out: W, cols: &[Column]) -> Result<Self, ResearchError> {
        let fields = cols
            .iter()
            .map(|c| {
                let (physical, logical) = match c.kind {
                    Kind::Int => (Physical::INT64, None),
                    Kind::Float => (Physical::DOUBLE, None),
                    Kind::Bool => (Physical::BOOLEAN, None),
                    Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                };
                Type::primitive_type_builder(&c.name, physical)
                    .with_repetition(Repetition::OPTIONAL)
                    .with_logical_type(logical)
                    .build()
                    .map(Arc::new)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(io)?;
        let schema = Type::group_type_builder("answer").with_fields(fields).build().map_err(io)?;
        let props = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(props)).map_err(io)?;
        Ok(ParquetSink { writer, kinds: cols.iter().map(|c| c.kind).collect(), buffered: vec![Vec::new(); cols.len()], rows: 0 })
    }

    fn write(&mut self, row: Vec<Value>) -> Result<(), ResearchError> {
        for (column, value) in self.buffered.iter_mut().zip(row) {
            column.push(value);
        }
        self.rows += 1;
        if self.rows == ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ResearchError> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(io)?;
        for (kind, column) in self.kinds.iter().zip(self.buffered.iter_mut()) {
            let values = std::mem::take(column);
            let levels: Vec<i16> = values.iter().map(|v| i16::from(!is_null(v))).collect();
            let mut col = group.next_column().map_err(io)?.ok_or_else(|| io("fewer Parquet columns than values"))?;
            match kind {
                Kind::Int => write_column::<Int64Type>(&mut col, values, &levels, |v| if let Value::Int(i) = v { i } else { None }),
                Kind::Float => write_column::<DoubleType>(&mut col, values, &levels, |v| if let Value::Float(f) = v { f } else { None }),
                Kind::Bool => write_column::<BoolType>(&mut col, values, &levels, |v| if let Value::Bool(b) = v { b } else { None }),
                Kind::Text => write_column::<ByteArrayType>(&mut col, values, &levels, |v| {
                    if let Value::Text(s) = v {
                        s.map(|s| ByteArray::from(s.into_bytes()))
                    } else {
                        None
                    }
                }),
            }
            .map_err(io)?;
            col.close().map_err(io)?;
        }
        group.close().map_err(io)?;
        self.rows = 0;
        Ok(())
    }

    fn finish(mut self) -> Result<(), ResearchError> {
        self.flush()?;
        self.writer.close().map_err(io)?;
        Ok(())
    }
}

/// Writes one column of a row group: the non-null values (`get`) and a definition
/// level per row (1 present, 0 null).
fn write_column<T: DataType>(
    col: &mut SerializedColumnWriter<'_>,
    values: Vec<Value>,
    levels: &[i16],
    get: impl Fn(Value) -> Option<T::T>,
) -> parquet::errors::Result<usize> {
    let present: Vec<T::T> = values.into_iter().filter_map(get).collect();
    col.typed::<T>().write_batch(&present, Some(levels), None)
}

fn is_null(v: &Value) -> bool {
    matches!(v, Value::Int(None) | Value::Float(None) | Value::Bool(None) | Value::Text(None))
}

/// Writes the answers `filter` selects to `out` in `format`, with the scores of
/// `models`; returns the row count.
pub async fn write_answers<W: Write + Send>(
    store: &Store,
    format: Format,
    models: &[String],
    filter: &AnswerFilter,
    out: W,
) -> Result<u64, ResearchError> {
    let cols = columns(models);
    let mut sink = Sink::new(format, out, &cols)?;
    let n = store.research().export_answers(models, filter, |row| sink.write(values(row))).await?;
    sink.finish()?;
    Ok(n)
}

/// The recorded models among `models`, named as research names them (by the text of
/// their ids, its tables' column labels), in the order given.
pub async fn models_info(store: &Store, models: &[String]) -> Result<Vec<ModelInfo>, gapwise_store::StoreError> {
    let ids: Vec<gapwise_model::ModelId> = models.iter().map(gapwise_model::ModelId::new).collect();
    store.scores().models_info(&ids).await
}

/// The dataset card (README.md) of an export: what it is, its licence, what it
/// leaves out, and the column dictionary.
pub fn dataset_card(format: Format, models: &[ModelInfo], rows: u64) -> String {
    let names: Vec<String> = models.iter().map(|m| m.id.to_string()).collect();
    let mut card = format!(
        "# Gapwise answers\n\n\
         {rows} answers from the Gapwise substitution game (004_fd0640cd187f2eac.txt): players saw k \
         sentences with one word blanked and picked which of two words had been there. One row per \
         answer, in `answers.{ext}`.\n\n\
         ## Licence\n\nCreative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0), \
         https://creativecommons.org/licenses/by-sa/4.0/ (full text reference in `LICENSE`).\n\n\
         ## Privacy\n\nPeople appear only as export IDs: random strings, the same in every export of this \
         database, unrelated to database ids and to the pseudonyms shown in the game. The export holds no \
         names, e-mail addresses, IP addresses, creation times or locations. Players who erase their \
         data are absent from later exports.\n\n\
         ## Models\n\nEach `score_<model>` column is Eq. 2 of the paper: the sum over the item's contexts of \
         log p(target) - log p(distractor) as the model gives them, made as described here.\n\n{models}\n\n\
         Next-word predictions (the next-word game; in the report's `next_word_accuracy`, not in this \
         file) carry the actual word's log-probability two ways, on the sentence's own pieces: \
         `word_log_prob`, the sum over its pieces (the paper's), and `word_log_prob_corrected`, the \
         word's own (Pimentel & Meister 2024, with the word-start correction as minicons' \
         `bow_correction` computes it); `perplexity` uses the second, `perplexity_pieces` the first. A \
         word that shares a piece with the text beside it has neither (`unscored` counts them).\n\n\
         ## Columns\n\n| column | type | meaning |\n|---|---|---|\n",
        ext = format.extension(),
        models = if models.is_empty() {
            "No model scores included.".to_owned()
        } else {
            models.iter().map(model_line).collect::<Vec<_>>().join("\n")
        },
    );
    for c in columns(&names) {
        let kind = match c.kind {
            Kind::Int => "integer",
            Kind::Float => "float",
            Kind::Bool => "boolean",
            Kind::Text => "text",
        };
        card.push_str(&format!("| `{}` | {kind} | {} |\n", c.name, c.description));
    }
    card
}

/// One model of the card: its id, kind, and how its scores were made.
fn model_line(m: &ModelInfo) -> String {
    let how = if m.convention.is_empty() { "convention not recorded (scored before Gapwise kept it)" } else { &m.convention };
    format!("- `{}` ({}): {how}", m.id, m.kind)
}

/// The licence file that goes with every export.
pub const LICENSE: &str = "The data in this folder is licensed under the Creative Commons Attribution-ShareAlike 4.0 \
International License (CC BY-SA 4.0). To view a copy of this license, visit \
https://creativecommons.org/licenses/by-sa/4.0/legalcode\n";

/// Writes `answers.<ext>`, `README.md` (the dataset card) and `LICENSE` into `dir`
/// (created if needed); returns the data file's path and the row count. An export
/// that fails (a refused filter, a database that cannot be read to the end) leaves
/// no partial export: the data are written under a temporary name in `dir` and take
/// their name only once whole, and a folder made for them goes again.
pub async fn export_folder(
    store: &Store,
    format: Format,
    models: &[String],
    filter: &AnswerFilter,
    dir: &Path,
) -> Result<(PathBuf, u64), ResearchError> {
    // a refused filter leaves no folder or empty file behind
    gapwise_store::check_filter(filter)?;
    let made = !dir.exists();
    std::fs::create_dir_all(dir).map_err(io)?;
    let data = dir.join(format!("answers.{}", format.extension()));
    let partial = dir.join(format!(".answers.{}.partial", format.extension()));
    let written = write_folder(store, format, models, filter, &partial).await.and_then(|rows| {
        std::fs::rename(&partial, &data).map_err(io)?;
        Ok(rows)
    });
    match written {
        Ok(rows) => Ok((data, rows)),
        Err(e) => {
            // what is left goes; the error is the one worth telling
            let _ = if made { std::fs::remove_dir_all(dir) } else { std::fs::remove_file(&partial) };
            Err(e)
        }
    }
}

/// Writes the answers to `partial`, then the dataset card and the licence beside it;
/// returns the row count.
async fn write_folder(
    store: &Store,
    format: Format,
    models: &[String],
    filter: &AnswerFilter,
    partial: &Path,
) -> Result<u64, ResearchError> {
    let dir = partial.parent().unwrap_or(Path::new("."));
    let file = std::fs::File::create(partial).map_err(io)?;
    let rows = write_answers(store, format, models, filter, std::io::BufWriter::new(file)).await?;
    std::fs::write(dir.join("README.md"), dataset_card(format, &models_info(store, models).await?, rows)).map_err(io)?;
    std::fs::write(dir.join("LICENSE"), LICENSE).map_err(io)?;
    Ok(rows)
}
