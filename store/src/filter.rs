//! [`AnswerFilter`] as SQL: the `WHERE` clause over `answers a` joined to
//! `word_pairs p` that exports and reports share.

use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::Any;

use crate::error::StoreError;
use gapwise_model::{parse_language, AnswerFilter, Language, DAY_MS, LANGUAGES, STRATEGIES};

/// A value bound to one placeholder of the clause.
enum Bound {
    Text(String),
    Int(i64),
}

/// A checked filter: the clause (`WHERE ...`, or empty) and its values for `$1...`.
pub(crate) struct FilterSql {
    pub clause: String,
    values: Vec<Bound>,
}

impl FilterSql {
    /// Binds the clause's values, in order, to a query built on it.
    pub fn bind<'q>(&self, mut query: Query<'q, Any, AnyArguments<'q>>) -> Query<'q, Any, AnyArguments<'q>> {
        for value in &self.values {
            query = match value {
                Bound::Text(t) => query.bind(t.clone()),
                Bound::Int(i) => query.bind(*i),
            };
        }
        query
    }
}

/// Milliseconds at the start of a UTC day given as `YYYY-MM-DD`.
fn day_start_ms(day: &str, field: &str) -> Result<i64, StoreError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(day.trim(), &format)
        .map_err(|_| StoreError::Invalid(format!("{field} must be a date written YYYY-MM-DD, not {day:?}")))?;
    Ok(date.midnight().assume_utc().unix_timestamp() * 1000)
}

/// The days `filter` selects as milliseconds, from its first (included) to past its
/// last (excluded); the whole of time where it names none. What Likert ratings,
/// which have no k or strategy of their own, are filtered by.
pub fn day_range(filter: &AnswerFilter) -> Result<(i64, i64), StoreError> {
    check_filter(filter)?;
    let given = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    let from = given(&filter.from).map(|day| day_start_ms(&day, "from")).transpose()?;
    let to = given(&filter.to).map(|day| day_start_ms(&day, "to")).transpose()?;
    Ok((from.unwrap_or(i64::MIN), to.map_or(i64::MAX, |to| to + DAY_MS)))
}

/// The language `filter` selects, `None` for every language; an unknown one is
/// refused (see [`filter_sql`]). What Likert ratings are filtered by, beside
/// [`day_range`].
pub fn filter_language(filter: &AnswerFilter) -> Result<Option<Language>, StoreError> {
    check_filter(filter)?;
    Ok(filter.language.as_deref().map(str::trim).and_then(Language::parse))
}

/// Checks `filter` (see [`filter_sql`]) before any work is done with it.
pub fn check_filter(filter: &AnswerFilter) -> Result<(), StoreError> {
    filter_sql(filter).map(|_| ())
}

/// Checks `filter` and turns it into SQL; a value that cannot match anything (an
/// unknown language, k or strategy, a malformed date, a range that ends before it
/// starts) is an error rather than an empty result.
pub(crate) fn filter_sql(filter: &AnswerFilter) -> Result<FilterSql, StoreError> {
    let mut conditions = Vec::new();
    let mut values = Vec::new();
    let mut add = |condition: &str, value: Bound| {
        values.push(value);
        conditions.push(condition.replace('?', &format!("${}", values.len())));
    };
    let given = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    if let Some(language) = given(&filter.language) {
        if parse_language(&language).is_none() {
            let codes: Vec<&str> = LANGUAGES.iter().map(|(code, _)| *code).collect();
            return Err(StoreError::Invalid(format!("language must be one of {}, not {language:?}", codes.join(", "))));
        }
        add("p.lang = ?", Bound::Text(language));
    }
    if let Some(k) = filter.k {
        add("a.k = ?", Bound::Int(i64::from(k)));
    }
    if let Some(strategy) = given(&filter.strategy) {
        if !STRATEGIES.contains(&strategy.as_str()) {
            return Err(StoreError::Invalid(format!("strategy must be one of {}, not {strategy:?}", STRATEGIES.join(", "))));
        }
        add("p.strategy = ?", Bound::Text(strategy));
    }
    let from = given(&filter.from).map(|day| day_start_ms(&day, "from")).transpose()?;
    let to = given(&filter.to).map(|day| day_start_ms(&day, "to")).transpose()?;
    if let (Some(from), Some(to)) = (from, to) {
        if from > to {
            return Err(StoreError::Invalid(format!(
                "the range ends before it starts: from {} is after to {}",
                filter.from.as_deref().unwrap_or_default().trim(),
                filter.to.as_deref().unwrap_or_default().trim()
            )));
        }
    }
    if let Some(from) = from {
        add("a.created_at >= ?", Bound::Int(from));
    }
    if let Some(to) = to {
        add("a.created_at < ?", Bound::Int(to + DAY_MS));
    }
    let clause = if conditions.is_empty() { String::new() } else { format!("WHERE {}", conditions.join(" AND ")) };
    Ok(FilterSql { clause, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_filter_selects_everything() {
        assert_eq!(filter_sql(&AnswerFilter::default()).map(|f| f.clause).ok(), Some(String::new()));
    }

    #[test]
    fn conditions_are_numbered_in_order() {
        let filter = AnswerFilter {
            language: Some("fr".into()),
            k: Some(gapwise_model::K::THREE),
            to: Some("2026-11-23".into()),
            ..Default::default()
        };
        let sql = filter_sql(&filter).map(|f| f.clause).unwrap_or_default();
        assert_eq!(sql, "WHERE p.lang = $1 AND a.k = $2 AND a.created_at < $3");
    }

    #[test]
    fn bad_values_are_refused() {
        for filter in [
            AnswerFilter { strategy: Some("random".into()), ..Default::default() },
            AnswerFilter { from: Some("23/11/2026".into()), ..Default::default() },
            AnswerFilter { language: Some("english".into()), ..Default::default() },
            AnswerFilter { language: Some("xx".into()), ..Default::default() },
            AnswerFilter { from: Some("2026-11-24".into()), to: Some("2026-11-23".into()), ..Default::default() },
        ] {
            assert!(matches!(filter_sql(&filter), Err(StoreError::Invalid(_))), "{filter:?}");
        }
    }

    #[test]
    fn a_range_of_one_day_is_accepted() {
        let filter = AnswerFilter { from: Some("2026-11-23".into()), to: Some("2026-11-23".into()), ..Default::default() };
        assert!(filter_sql(&filter).is_ok());
    }

    #[test]
    fn days_are_utc_midnights() {
        assert_eq!(day_start_ms("1970-01-02", "from").ok(), Some(DAY_MS));
    }
}
