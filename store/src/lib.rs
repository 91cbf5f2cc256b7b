//! Gapwise's database layer.
//!
//! One [`Store`] wraps an sqlx `AnyPool`, so the same queries run on the embedded
//! SQLite default and on PostgreSQL. Queries use `$1` placeholders (both backends
//! accept them) and only integer, text and float columns (what the Any driver maps).

#![forbid(unsafe_code)]

mod admin;
mod annotators;
mod audit;
mod changes;
mod corpus;
mod crowd;
mod define;
mod error;
mod export;
mod filter;
mod first_start;
mod game_writes;
mod generators;
mod guess;
mod import;
mod items;
mod leaderboard;
mod new_words;
mod postings;
mod quality;
mod rate;
mod responses;
mod rights;
mod scores;
mod search;
mod secrets;
mod servings;
mod session;
mod settings;
mod social;
mod staff;
mod store;
mod suggestions;

#[cfg(feature = "testing")]
pub mod testing;

pub use annotators::CONSENT_VERSION;
pub use changes::Changes;
pub use corpus::ROWS_PER_COMMIT;
pub use crowd::Assignment;
pub use define::{distinct_candidates, DefineServing, DefinitionRound, GroupFacts, GroupMember, GroupToScore, NewSynset, WordNetReport};
pub use error::StoreError;
pub use export::{ExportContext, ExportRow, BLANK};
pub use filter::check_filter;
pub use game_writes::{AnswerRow, Pending, ServingRow, Write};
pub use gapwise_model::{LineError, Refusal, RefusalKey};
pub use guess::{GuessProgress, GuessRow, GuessServing, HumanGuess, ModelGuess, WordFacts};
pub use import::ImportReport;
pub use items::{BuildReport, ITEMS_PER_K};
pub use leaderboard::MIN_ANSWERS_TO_RANK;
pub use new_words::{NewWordsAnswer, NewWordsItemRecord, NewWordsJudgement, NewWordsServing, NewWordsSetup, NewWordsVariant};
pub use rate::{RatePair, RateRow, RateServing};
pub use responses::ModeResponse;
pub use rights::Erased;
pub use scores::{ContextScore, ContextToScore, ModelInfo};
pub use search::Found;
pub use servings::{HoldCount, ItemFacts, PairPlays, PastAnswer, ServedAndFriends, RECENT_PAIRS};
pub use session::{Annotator, Session};
pub use staff::{Role, Staff};
pub use store::{sqlite_file, Backend, Store};

/// Milliseconds since the Unix epoch, the unit of every stored time.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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
    parse(&code).ok_or_else(|| StoreError::Invalid(format!("stored {what} {code:?} is unknown")))
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
