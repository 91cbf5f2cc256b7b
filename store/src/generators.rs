//! Word pairs made by rule rather than imported: the a-priori pairs of a language
//! (from `gapwise_prepare::a_priori`), and pairs any generator hands in.

use gapwise_model::Language;
use std::collections::HashSet;

use gapwise_prepare::a_priori::a_priori_pairs;
use gapwise_prepare::import::{pair_key, ImportFormat, ImportKind};

use crate::error::StoreError;
use crate::material::ImportReport;
use crate::material::Material;

impl Material<'_> {
    /// Adds the a-priori pairs of `language` (see [`Self::add_generated_pairs`]).
    pub async fn add_a_priori_pairs(self, language: Language) -> Result<ImportReport, StoreError> {
        let pairs = a_priori_pairs(language.code());
        if pairs.is_empty() {
            return Err(StoreError::Invalid(format!("no a-priori word lists for language {language:?}")));
        }
        self.add_generated_pairs(language, pairs, "a-priori").await
    }

    /// Adds pairs made by a generator with its `strategy`; those already present (in
    /// either order, whatever their strategy) are counted as duplicates and left alone.
    pub async fn add_generated_pairs(
        self,
        language: Language,
        pairs: Vec<(String, String)>,
        strategy: &str,
    ) -> Result<ImportReport, StoreError> {
        let present: HashSet<String> = sqlx::query_scalar("SELECT pair_key FROM word_pairs WHERE lang = $1")
            .bind(language)
            .fetch_all(self.pool())
            .await?
            .into_iter()
            .collect();
        let mut keys = HashSet::new();
        let (old, new): (Vec<_>, Vec<_>) =
            pairs.into_iter().partition(|(t, d)| present.contains(&pair_key(t, d)) || !keys.insert(pair_key(t, d)));
        let mut report = ImportReport { duplicates: old.len() as u64, ..Default::default() };
        if !new.is_empty() {
            let mut tsv = String::from("lang\ttarget\tdistractor\tstrategy\n");
            for (target, distractor) in new {
                tsv.push_str(&format!("{language}\t{target}\t{distractor}\t{strategy}\n"));
            }
            let added = self.import(ImportKind::Pairs, ImportFormat::Tsv, &tsv).await?;
            report.inserted = added.inserted;
            report.duplicates += added.duplicates;
        }
        Ok(report)
    }
}
