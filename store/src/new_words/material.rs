//! The material the invented-word game is played on, as admins and the command line import it.

use crate::error::StoreError;
use crate::sql::{insert_rows, stored_code};
use gapwise_model::PlayedWord;
use sqlx::Row;
use std::collections::BTreeMap;

use super::{option_index, NewWords, NewWordsItemRecord, NewWordsVariant};

impl NewWords<'_> {
    /// Imports items with their variants in one transaction; items present already
    /// (same id) are kept as they are. Returns how many items were new.
    pub async fn import(self, items: &[NewWordsItemRecord]) -> Result<u64, StoreError> {
        let mut tx = self.pool().begin().await?;
        let new = insert_rows(
            &mut tx,
            "INSERT INTO new_words_items (id, option_a, option_b, answer, pos, definition, source) VALUES {} ON CONFLICT (id) DO NOTHING",
            7,
            items,
            |q, i| {
                q.bind(i.id.clone())
                    .bind(i.options[0].clone())
                    .bind(i.options[1].clone())
                    .bind(i64::from(i.answer == 1))
                    .bind(i.pos.clone())
                    .bind(i.definition.clone())
                    .bind(i.source.clone())
            },
            &|_| {},
        )
        .await?;
        let variants: Vec<(&str, PlayedWord, &NewWordsVariant)> =
            items.iter().flat_map(|i| i.variants.iter().map(move |(w, v)| (i.id.as_str(), *w, v))).collect();
        insert_rows(
            &mut tx,
            "INSERT INTO new_words_variants (item_id, word, lemma, sentence, taught) VALUES {} ON CONFLICT (item_id, word) DO NOTHING",
            5,
            &variants,
            |q, (id, word, v)| {
                q.bind((*id).to_owned()).bind(word.code()).bind(v.lemma.clone()).bind(v.sentence.clone()).bind(v.taught.clone())
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(new)
    }

    /// Every item with its variants, in id order, with whether anyone answered it.
    pub async fn items(self) -> Result<Vec<(NewWordsItemRecord, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT i.id, i.option_a, i.option_b, i.answer, i.pos, i.definition, i.source, \
                    CASE WHEN EXISTS (SELECT 1 FROM new_words_servings s WHERE s.item_id = i.id AND s.choice IS NOT NULL) THEN 1 ELSE 0 END \
             FROM new_words_items i ORDER BY i.id",
        )
        .fetch_all(self.pool())
        .await?;
        let variants = sqlx::query("SELECT item_id, word, lemma, sentence, taught FROM new_words_variants").fetch_all(self.pool()).await?;
        let mut by_item: BTreeMap<String, BTreeMap<PlayedWord, NewWordsVariant>> = BTreeMap::new();
        for v in &variants {
            by_item.entry(v.try_get(0)?).or_default().insert(
                stored_code(v, 1, "WinoDict word", PlayedWord::parse)?,
                NewWordsVariant { lemma: v.try_get(2)?, sentence: v.try_get(3)?, taught: v.try_get(4)? },
            );
        }
        rows.iter()
            .map(|r| {
                let id: String = r.try_get(0)?;
                let item = NewWordsItemRecord {
                    variants: by_item.remove(&id).unwrap_or_default(),
                    id,
                    options: [r.try_get(1)?, r.try_get(2)?],
                    answer: option_index(r.try_get(3)?)?,
                    pos: r.try_get(4)?,
                    definition: r.try_get(5)?,
                    source: r.try_get(6)?,
                };
                Ok((item, r.try_get::<i64, _>(7)? == 1))
            })
            .collect()
    }
}
