//! Corpus import at scale: millions of sentences (read and checked by
//! `gapwise_prepare::corpus`), inserted in multi-row statements, committed every
//! [`ROWS_PER_COMMIT`] rows; a sentence already present (same language and text)
//! is skipped, so a rerun after a stop resumes by inserting only what is missing.
//!
//! Memory stays flat: one batch at a time, and the word index of the rows of one
//! transaction ([`Postings`]), built on a thread of its own as rows go in and written
//! just before the transaction commits. Reading runs on a thread of its own too.

use std::collections::HashSet;
use std::path::Path;

use gapwise_prepare::corpus::{check_file, read_batches, CorpusFormat, CorpusOptions, CorpusReport, Sentence};
use gapwise_prepare::import::MAX_SENTENCE_CHARS;
use sqlx::{Acquire, Executor, Row};

use super::material::import_error;
use super::postings::{Postings, ROWS_PER_STATEMENT};
use crate::error::StoreError;
use crate::material::Material;
use crate::store::Backend;

/// Rows per transaction: what a stop can lose.
pub const ROWS_PER_COMMIT: usize = 100_000;
/// SQLite page cache of the import's connection, in KiB (SQLite's default is 2,000;
/// it is set back afterwards).
const IMPORT_CACHE_KIB: u32 = 256 * 1024;

impl Material<'_> {
    /// Imports a corpus file (see the module documentation); `progress` is called
    /// with the bytes read so far in the load pass. Reading and parsing run on a
    /// thread of their own, beside the database writes.
    pub async fn import_corpus(
        self,
        path: &Path,
        options: &CorpusOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<CorpusReport, StoreError> {
        let format = CorpusFormat::from_path(path)
            .ok_or_else(|| StoreError::Invalid(format!("{}: use a .txt, .tsv or .jsonl file", path.display())))?;
        if options.min_chars > options.max_chars || options.max_chars > MAX_SENTENCE_CHARS {
            return Err(StoreError::Invalid(format!("sentence lengths must satisfy min <= max <= {MAX_SENTENCE_CHARS}")));
        }
        let languages: HashSet<String> =
            sqlx::query_scalar("SELECT code FROM languages").fetch_all(self.pool()).await?.into_iter().collect();
        let (path, options) = (path.to_owned(), options.clone());
        let joined = |e: tokio::task::JoinError| StoreError::Internal(format!("the import failed: {e}"));

        let errors = {
            let (path, options, languages) = (path.clone(), options.clone(), languages.clone());
            tokio::task::spawn_blocking(move || check_file(&path, format, &options, &languages)).await.map_err(joined)?.map_err(prepared)?
        };
        if !errors.is_empty() {
            return Err(import_error(errors));
        }

        let (send, mut batches) = tokio::sync::mpsc::channel(8);
        let reader = tokio::task::spawn_blocking(move || {
            read_batches(&path, format, &options, &languages, ROWS_PER_STATEMENT, |batch, bytes| send.blocking_send((batch, bytes)).is_ok())
        });
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
        let mut report = reader.await.map_err(joined)?.map_err(prepared)?;
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

    /// The sources the sentences come from, lowercased and sorted.
    pub async fn sentence_sources(self) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT DISTINCT LOWER(source) FROM sentences ORDER BY 1").fetch_all(self.pool()).await?)
    }
}

/// Inserts `batch` (a sentence already present is skipped); returns the id,
/// language and text of those that went in.
async fn insert_batch(tx: &mut sqlx::Transaction<'_, sqlx::Any>, batch: Vec<Sentence>) -> Result<Vec<(i64, String, String)>, StoreError> {
    if batch.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "INSERT INTO sentences (lang, text, source, genre) VALUES {} ON CONFLICT (lang, text) DO NOTHING RETURNING id, lang, text",
        crate::sql::placeholders(tx, batch.len(), 4)
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
    StoreError::Internal("the word indexer stopped".into())
}

/// A file the import could not read.
fn prepared(e: gapwise_prepare::PrepareError) -> StoreError {
    StoreError::Invalid(e.to_string())
}
