//! The material the definition game is played on, as admins and the command line import it.

use crate::error::StoreError;
use crate::sql::insert_rows;

use super::{Define, NewSynset, WordNetReport};

impl Define<'_> {
    /// Imports WordNet synsets, their hypernym links (child, parent) and the groups
    /// (target, size), in one transaction; what is present already is kept.
    /// `progress` is told how many rows are written, out of the total.
    pub async fn import_wordnet(
        self,
        synsets: &[NewSynset],
        hypernyms: &[(String, String)],
        groups: &[(String, usize)],
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<WordNetReport, StoreError> {
        let mut tx = self.pool().begin().await?;
        let new_synsets = insert_rows(
            &mut tx,
            "INSERT INTO wordnet_synsets (id, pos, word, definition, depth, zipf) VALUES {} ON CONFLICT (id) DO NOTHING",
            6,
            synsets,
            |q, s| {
                q.bind(s.id.clone())
                    .bind(s.pos.clone())
                    .bind(s.word.clone())
                    .bind(s.definition.clone())
                    .bind(i64::from(s.depth))
                    .bind(s.zipf)
            },
            &|n| progress(n as u64),
        )
        .await?;
        let links = synsets.len();
        insert_rows(
            &mut tx,
            "INSERT INTO wordnet_hypernyms (child, parent) VALUES {} ON CONFLICT DO NOTHING",
            2,
            hypernyms,
            |q, (child, parent)| q.bind(child.clone()).bind(parent.clone()),
            &|n| progress((links + n) as u64),
        )
        .await?;
        let before_groups = links + hypernyms.len();
        let new_groups = insert_rows(
            &mut tx,
            "INSERT INTO define_groups (target, size, draw) VALUES {} ON CONFLICT (target) DO NOTHING",
            3,
            groups,
            |q, (target, size)| q.bind(target.clone()).bind(i64::try_from(*size).unwrap_or(i64::MAX)).bind(rand::random::<f64>()),
            &|n| progress((before_groups + n) as u64),
        )
        .await?;
        tx.commit().await?;
        Ok(WordNetReport { synsets: new_synsets, groups: new_groups })
    }
}
