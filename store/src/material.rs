//! Imports of sentences and word pairs (checked by `gapwise_prepare::import`), whole
//! or not at all: the rows go in one transaction, with their word index.

use std::collections::HashSet;
use std::path::Path;

use gapwise_prepare::import::{parse_rows, reported, ImportFormat, ImportKind, Row};
use sqlx::Row as _;

use super::postings::Postings;
use crate::error::StoreError;
use crate::sql::now_ms;
use gapwise_model::LineError;

crate::store::area!(
    /// The game's material: corpora, the word index's searches, imports, generated pairs and built items.
    Material,
    material
);

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub inserted: u64,
    /// Rows already present (sentences only; a repeated pair is an error).
    pub duplicates: u64,
}

impl Material<'_> {
    /// Imports a file from disk; the format comes from its extension.
    pub async fn import_file(self, kind: ImportKind, path: &Path) -> Result<ImportReport, StoreError> {
        let format =
            ImportFormat::from_path(path).ok_or_else(|| StoreError::Invalid(format!("{}: use a .tsv or .jsonl file", path.display())))?;
        let text = std::fs::read_to_string(path).map_err(|e| StoreError::Invalid(format!("{}: {e}", path.display())))?;
        self.import(kind, format, &text).await
    }

    /// Imports the rows of `text`, all or nothing.
    pub async fn import(self, kind: ImportKind, format: ImportFormat, text: &str) -> Result<ImportReport, StoreError> {
        let langs: HashSet<String> = sqlx::query_scalar("SELECT code FROM languages").fetch_all(self.pool()).await?.into_iter().collect();
        let rows = parse_rows(kind, format, text, &langs).map_err(import_error)?;
        self.insert_rows(rows).await
    }

    async fn insert_rows(self, rows: Vec<(usize, Row)>) -> Result<ImportReport, StoreError> {
        let mut tx = self.pool().begin().await?;
        let mut report = ImportReport::default();
        let mut errors = Vec::new();
        let mut postings = Postings::default();
        let now = now_ms();
        for (line, row) in rows {
            match row {
                Row::Sentence { lang, text, source, genre } => {
                    let id: Option<i64> = sqlx::query_scalar(
                        "INSERT INTO sentences (lang, text, source, genre) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (lang, text) DO NOTHING RETURNING id",
                    )
                    .bind(&lang)
                    .bind(&text)
                    .bind(source)
                    .bind(genre)
                    .fetch_optional(&mut *tx)
                    .await?;
                    match id {
                        Some(id) => {
                            postings.add(id, &lang, &text);
                            report.inserted += 1;
                        }
                        None => report.duplicates += 1,
                    }
                }
                Row::Pair { lang, target, distractor, key, strategy } => {
                    let existing = sqlx::query("SELECT target, distractor FROM word_pairs WHERE lang = $1 AND pair_key = $2")
                        .bind(&lang)
                        .bind(&key)
                        .fetch_optional(&mut *tx)
                        .await?;
                    if let Some(existing) = existing {
                        let (t, d): (String, String) = (existing.try_get(0)?, existing.try_get(1)?);
                        errors.push(LineError { line, message: format!("the pair {t}/{d} already exists in {lang}") });
                        continue;
                    }
                    sqlx::query(
                        "INSERT INTO word_pairs (lang, target, distractor, pair_key, strategy, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(lang)
                    .bind(target)
                    .bind(distractor)
                    .bind(key)
                    .bind(strategy)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    report.inserted += 1;
                }
            }
        }
        if !errors.is_empty() {
            tx.rollback().await?;
            return Err(import_error(errors));
        }
        postings.flush(&mut tx).await?;
        tx.commit().await?;
        Ok(report)
    }
}

/// The error of an import refused for `errors`.
pub(crate) fn import_error(errors: Vec<LineError>) -> StoreError {
    StoreError::Import(reported(errors))
}
