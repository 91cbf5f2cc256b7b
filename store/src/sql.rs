//! The SQL helpers every area of the store uses: the clock of stored times, reading
//! a stored code, what an answer measured, and multi-row inserts on either backend.

use crate::error::StoreError;

/// Milliseconds since the Unix epoch, the unit of every stored time.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The columns of what an answer measured, in every mode's answer table, in the
/// order [`bind_measure`] binds them.
pub(crate) const MEASURE_COLUMNS: &str = "client_ms, client_ms_reported, server_ms, input_device, hidden_changes, clock_us, frame_us";

/// Binds what an answer measured, its `timing` and the browser's `trial`, to the
/// next seven parameters of `query` ([`MEASURE_COLUMNS`]).
pub(crate) fn bind_measure<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    timing: gapwise_model::Timing,
    trial: gapwise_model::Trial,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    query
        .bind(timing.client_ms)
        .bind(timing.client_ms_reported)
        .bind(timing.server_ms)
        .bind(trial.input.map(gapwise_model::Input::code))
        .bind(trial.hidden.map(i64::from))
        .bind(trial.clock_us.map(i64::from))
        .bind(trial.frame_us.map(i64::from))
}

/// The code stored in column `at` of `row`, read by `parse`; a code it does not
/// know (`what` names its kind) is an error, not a guess.
pub(crate) fn stored_code<T>(
    row: &sqlx::any::AnyRow,
    at: usize,
    what: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, StoreError> {
    use sqlx::Row;
    let code: String = row.try_get(at)?;
    parse(&code).ok_or_else(|| StoreError::Corrupt(format!("stored {what} {code:?} is unknown")))
}

/// The VALUES of a multi-row INSERT of `rows` rows of `columns` columns on `conn`:
/// `($1, $2), ($3, $4)` on PostgreSQL, `(?, ?), (?, ?)` on SQLite. SQLite keeps a
/// numbered parameter's name in a list it searches once per parameter, when it
/// prepares a statement and when sqlx binds it, a cost quadratic in a statement's
/// parameters; anonymous ones are bound by position.
pub(crate) fn placeholders(conn: &sqlx::AnyConnection, rows: usize, columns: usize) -> String {
    let numbered = conn.backend_name() != "SQLite";
    let parameter = |i: usize| if numbered { format!("${i}") } else { "?".to_owned() };
    (0..rows)
        .map(|r| format!("({})", (1..=columns).map(|c| parameter(r * columns + c)).collect::<Vec<_>>().join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A query of the Any driver, as [`insert_rows`] hands it to its binder.
pub(crate) type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Rows per statement of [`insert_rows`].
const ROWS_PER_INSERT: usize = 200;

/// Inserts `rows` in the caller's transaction, [`ROWS_PER_INSERT`] to a statement.
/// `insert` is the statement with `{}` where its VALUES go (an ON CONFLICT clause may
/// follow); `bind` binds one row's `columns` values (owned: the statement outlives no
/// row). `written` is told after each statement how many rows went so far. Returns
/// the rows affected.
pub(crate) async fn insert_rows<T>(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    insert: &str,
    columns: usize,
    rows: &[T],
    bind: impl for<'q> Fn(AnyQuery<'q>, &T) -> AnyQuery<'q>,
    written: &(dyn Fn(usize) + Sync),
) -> Result<u64, StoreError> {
    let mut affected = 0;
    let mut done = 0;
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let sql = insert.replacen("{}", &placeholders(tx, chunk.len(), columns), 1);
        // not kept as a prepared statement: PostgreSQL fixes a parameter's type when the
        // statement is prepared, and a column that is NULL in one chunk and a number in
        // the next (a word with no frequency) would then be refused
        let query = chunk.iter().fold(sqlx::query(&sql).persistent(false), &bind);
        affected += query.execute(&mut **tx).await?.rows_affected();
        done += chunk.len();
        written(done);
    }
    Ok(affected)
}
