//! The word index of the corpus: for each language and word, the ids of the
//! sentences that hold it as a whole word.
//!
//! Words are cut by the same rule as the whole-word check ([`super::words`]), so the
//! index and the check agree: "twenty-one" is one word, "l'été" holds "été". The
//! index is built in Rust as sentences go in, in the same transaction, and is the
//! same table on both backends (it replaced SQLite FTS5 and a PostgreSQL GIN index:
//! building it here is several times faster than either, see the README).
//!
//! A row holds one word's sentence ids from one batch of sentences, sorted and
//! stored as LEB128 varints of their gaps. A word's ids are the union of its rows.
//! Rows are only ever added: a sentence that is gone leaves an id that matches no
//! sentence, which the readers skip.

use std::collections::{BTreeSet, HashMap};

use integer_encoding::VarInt;
use sqlx::Row;

use crate::error::StoreError;
use crate::store::Store;
use gapwise_model::words::word_spans;

/// Rows per INSERT statement of sentences and of the word index. Set when SQLite's
/// parameters were numbered, which cost time quadratic in their number (at 500 rows
/// a third of a large import); they are anonymous now (see [`super::placeholders`]).
pub(crate) const ROWS_PER_STATEMENT: usize = 20;

/// The lower-cased words of `text`, each once.
pub fn words_of(text: &str) -> BTreeSet<String> {
    word_spans(text).into_iter().map(|(s, e)| text[s..e].to_lowercase()).collect()
}

/// Sorted, distinct ids as varints of their gaps (the first gap is from 0).
pub fn encode(ids: &[i64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ids.len() * 2);
    let mut last = 0i64;
    for &id in ids {
        let gap = u64::try_from(id - last).unwrap_or(0);
        out.extend_from_slice(&gap.encode_var_vec());
        last = id;
    }
    out
}

/// The ids [`encode`] wrote; a damaged tail ends the list.
pub fn decode(mut bytes: &[u8], into: &mut Vec<i64>) {
    let mut last = 0i64;
    while let Some((gap, read)) = u64::decode_var(bytes) {
        last += i64::try_from(gap).unwrap_or(0);
        into.push(last);
        bytes = bytes.get(read..).unwrap_or_default();
    }
}

/// Words of sentences added in one transaction, waiting to be written beside them:
/// language, then word, then sentence ids.
#[derive(Default)]
pub struct Postings {
    ids: HashMap<String, HashMap<String, Vec<i64>>>,
}

impl Postings {
    /// Records that sentence `id` of `lang` reads `text`.
    pub fn add(&mut self, id: i64, lang: &str, text: &str) {
        if !self.ids.contains_key(lang) {
            self.ids.insert(lang.to_owned(), HashMap::new());
        }
        if let Some(words) = self.ids.get_mut(lang) {
            for word in words_of(text) {
                words.entry(word).or_default().push(id);
            }
        }
    }

    /// Writes what was recorded, in the caller's transaction, and forgets it.
    pub async fn flush(&mut self, tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
        let mut rows: Vec<(String, String, Vec<i64>)> =
            self.ids.drain().flat_map(|(lang, words)| words.into_iter().map(move |(word, ids)| (lang.clone(), word, ids))).collect();
        rows.sort_unstable_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        for chunk in rows.chunks_mut(ROWS_PER_STATEMENT) {
            let sql =
                format!("INSERT INTO word_postings (lang, word, first_id, n, ids) VALUES {}", crate::sql::placeholders(tx, chunk.len(), 5));
            let mut query = sqlx::query(&sql);
            for (lang, word, ids) in chunk.iter_mut() {
                ids.sort_unstable();
                ids.dedup();
                let n = i64::try_from(ids.len()).unwrap_or(i64::MAX);
                query = query.bind(std::mem::take(lang)).bind(std::mem::take(word)).bind(ids.first().copied()).bind(n).bind(encode(ids));
            }
            query.execute(&mut **tx).await?;
        }
        Ok(())
    }
}

impl Store {
    /// Sorted ids of the sentences of `language` that hold `word` as a whole word.
    pub(crate) async fn sentences_with(&self, language: gapwise_model::Language, word: &str) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT ids FROM word_postings WHERE lang = $1 AND word = $2")
            .bind(language)
            .bind(gapwise_model::words::normalize(word).to_lowercase())
            .fetch_all(self.pool())
            .await?;
        let mut ids = Vec::new();
        for row in rows {
            decode(&row.try_get::<Vec<u8>, _>(0)?, &mut ids);
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }

    /// Indexes the sentences that predate the index (a database made before it
    /// existed): does nothing once any sentence is indexed. Returns how many it indexed.
    pub(crate) async fn index_unindexed(&self) -> Result<u64, StoreError> {
        // one row is enough to tell (MAX would read the whole index at every start)
        let indexed: Option<i64> = sqlx::query_scalar("SELECT first_id FROM word_postings LIMIT 1").fetch_optional(self.pool()).await?;
        if indexed.is_some() {
            return Ok(0);
        }
        let mut tx = self.pool().begin().await?;
        let rows = sqlx::query("SELECT id, lang, text FROM sentences ORDER BY id").fetch_all(&mut *tx).await?;
        let mut postings = Postings::default();
        for row in &rows {
            postings.add(row.try_get(0)?, &row.try_get::<String, _>(1)?, &row.try_get::<String, _>(2)?);
        }
        postings.flush(&mut tx).await?;
        tx.commit().await?;
        Ok(rows.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_survive_encoding() {
        let ids = [1, 2, 130, 131, 20_000, 5_000_000_000];
        let bytes = encode(&ids);
        // gaps 1, 1, 128, 1, 19_869, 4_999_980_000: 7 bits a byte
        assert_eq!(bytes.len(), 1 + 1 + 2 + 1 + 3 + 5, "gaps, not ids, are stored");
        let mut back = vec![7];
        decode(&bytes, &mut back);
        assert_eq!(back, [7, 1, 2, 130, 131, 20_000, 5_000_000_000]);
    }

    #[test]
    fn words_follow_the_whole_word_rule() {
        let words: Vec<String> = words_of("L'Été, twenty-one ÉTÉ dog's").into_iter().collect();
        assert_eq!(words, ["dog", "l", "s", "twenty-one", "été"]);
    }
}
