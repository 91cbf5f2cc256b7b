//! The rows every round writes, answers and servings, and their columns described
//! once: each column's name and kind, with how a row gives its value. The
//! statements that store them (one row alone on either backend, a batch's arrays
//! on PostgreSQL) are built from these lists, and their values are read through
//! them, so a column is named in one place and a value of the wrong kind does not
//! compile.

use std::sync::LazyLock;

use gapwise_model::{Input, ItemId, PlayerId, ServingId, Trial, K};

/// An answer's row (see the `answers` table).
#[derive(Debug)]
pub struct AnswerRow {
    /// Its serving's.
    pub id: ServingId,
    pub player: PlayerId,
    pub item: ItemId,
    pub k: K,
    pub chosen: String,
    pub correct: bool,
    pub client_ms: Option<i64>,
    pub server_ms: i64,
    pub option_order: String,
    pub created_at: i64,
    pub client_ms_reported: Option<i64>,
    /// What the browser saw of the trial.
    pub trial: Trial,
}

/// A serving's row (see the `servings` table); never updated once stored.
#[derive(Debug)]
pub struct ServingRow {
    pub id: ServingId,
    pub player: PlayerId,
    pub item: ItemId,
    pub k: K,
    pub target_first: bool,
    pub served_at: i64,
}

/// A value a statement binds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value<'a> {
    Text(&'a str),
    MaybeText(Option<&'a str>),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// A statement: its SQL (with `$n` parameters, which both backends read), and the
/// values of its parameters in order.
pub(super) type Statement<'a> = (&'static str, Vec<Value<'a>>);

/// One column of a row of type `R`: its name, and how a row gives its value; the
/// variant is the column's kind.
pub(super) enum Column<R: 'static> {
    Text(&'static str, fn(&R) -> Option<&str>),
    Int(&'static str, fn(&R) -> Option<i64>),
}

impl<R> Column<R> {
    pub(super) fn name(&self) -> &'static str {
        match self {
            Column::Text(name, _) | Column::Int(name, _) => name,
        }
    }

    /// The column's value in `row`, as a statement binds it.
    pub(super) fn value<'a>(&self, row: &'a R) -> Value<'a> {
        match self {
            Column::Text(_, get) => Value::MaybeText(get(row)),
            Column::Int(_, get) => Value::MaybeInt(get(row)),
        }
    }

    /// The PostgreSQL type of an array of the column's values.
    pub(super) fn array_type(&self) -> &'static str {
        match self {
            Column::Text(..) => "text[]",
            Column::Int(..) => "int8[]",
        }
    }
}

/// The `answers` table's columns a round writes.
pub(super) const ANSWER_COLUMNS: [Column<AnswerRow>; 15] = [
    Column::Text("id", |a| Some(a.id.as_str())),
    Column::Text("annotator_id", |a| Some(a.player.as_str())),
    Column::Int("item_id", |a| Some(a.item.get())),
    Column::Int("k", |a| Some(a.k.into())),
    Column::Text("chosen", |a| Some(&a.chosen)),
    Column::Int("correct", |a| Some(a.correct.into())),
    Column::Int("client_ms", |a| a.client_ms),
    Column::Int("server_ms", |a| Some(a.server_ms)),
    Column::Text("option_order", |a| Some(&a.option_order)),
    Column::Int("created_at", |a| Some(a.created_at)),
    Column::Int("client_ms_reported", |a| a.client_ms_reported),
    Column::Text("input_device", |a| a.trial.input.map(Input::code)),
    Column::Int("hidden_changes", |a| a.trial.hidden.map(i64::from)),
    Column::Int("clock_us", |a| a.trial.clock_us.map(i64::from)),
    Column::Int("frame_us", |a| a.trial.frame_us.map(i64::from)),
];

/// The `servings` table's columns.
pub(super) const SERVING_COLUMNS: [Column<ServingRow>; 6] = [
    Column::Text("id", |s| Some(s.id.as_str())),
    Column::Text("annotator_id", |s| Some(s.player.as_str())),
    Column::Int("item_id", |s| Some(s.item.get())),
    Column::Int("k", |s| Some(s.k.into())),
    Column::Int("target_first", |s| Some(s.target_first.into())),
    Column::Int("served_at", |s| Some(s.served_at)),
];

/// The names of `columns`, separated by commas.
pub(super) fn names<R>(columns: &[Column<R>]) -> String {
    columns.iter().map(Column::name).collect::<Vec<_>>().join(", ")
}

/// The values of `row` in `columns`, in order.
pub(super) fn values<'a, R>(columns: &[Column<R>], row: &'a R) -> Vec<Value<'a>> {
    columns.iter().map(|column| column.value(row)).collect()
}

/// Parameters `$from`, `$from + 1`... one per column.
pub(super) fn placeholders<R>(columns: &[Column<R>], from: usize) -> String {
    (from..from + columns.len()).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

/// Stores an answer unless one with its id is stored.
pub(super) static INSERT_ANSWER: LazyLock<String> = LazyLock::new(|| {
    format!("INSERT INTO answers ({}) VALUES ({}) ON CONFLICT (id) DO NOTHING", names(&ANSWER_COLUMNS), placeholders(&ANSWER_COLUMNS, 1))
});

/// Stores a serving unless the player was served the item.
pub(super) static INSERT_SERVING: LazyLock<String> = LazyLock::new(|| {
    format!(
        "INSERT INTO servings ({}) VALUES ({}) ON CONFLICT (annotator_id, item_id) DO NOTHING",
        names(&SERVING_COLUMNS),
        placeholders(&SERVING_COLUMNS, 1)
    )
});
