//! A-priori word pairs: words of one closed category (cardinals, ordinals, months,
//! days of the week, colours) can stand for one another in many sentences, so every
//! two words of a category make a pair. The lists are `data/pairs/a_priori.tsv`.
//!
//! English "May" is left out of the months: as the modal verb it would fill
//! sentences that are not about the month.

use std::collections::HashSet;

use super::import::pair_key;
use super::{ImportFormat, ImportKind, ImportReport, Store, StoreError};

const LISTS: &str = include_str!("../../data/pairs/a_priori.tsv");

/// Every pair of two words of one category in `language`, in list order (the
/// earlier word is the target). Empty for a language without lists.
pub fn a_priori_pairs(language: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for line in LISTS.lines().skip(1) {
        let mut fields = line.split('\t');
        if fields.next() != Some(language) {
            continue;
        }
        let words: Vec<&str> = fields.nth(1).unwrap_or_default().split_whitespace().collect();
        for (i, a) in words.iter().enumerate() {
            pairs.extend(words[i + 1..].iter().map(|b| ((*a).to_owned(), (*b).to_owned())));
        }
    }
    pairs
}

impl Store {
    /// Adds the a-priori pairs of `language` (see [`Self::add_generated_pairs`]).
    pub async fn add_a_priori_pairs(&self, language: &str) -> Result<ImportReport, StoreError> {
        let pairs = a_priori_pairs(language);
        if pairs.is_empty() {
            return Err(StoreError::Invalid(format!("no a-priori word lists for language {language:?}")));
        }
        self.add_generated_pairs(language, pairs, "a-priori").await
    }

    /// Adds pairs made by a generator with its `strategy`; those already present (in
    /// either order, whatever their strategy) are counted as duplicates and left alone.
    pub async fn add_generated_pairs(&self, language: &str, pairs: Vec<(String, String)>, strategy: &str) -> Result<ImportReport, StoreError> {
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

#[cfg(test)]
mod tests {
    use super::a_priori_pairs;

    #[test]
    fn every_language_has_every_category() {
        // 45 cardinal, 45 ordinal, 21 weekday and 15 colour pairs, plus the months
        for (language, months) in [("en", 11), ("es", 12), ("fr", 12), ("it", 12), ("ru", 12)] {
            let expected = 45 + 45 + 21 + 15 + months * (months - 1) / 2;
            assert_eq!(a_priori_pairs(language).len(), expected, "{language}");
        }
        assert!(a_priori_pairs("de").is_empty());
    }

    #[test]
    fn pairs_stay_within_a_category() {
        let pairs = a_priori_pairs("ru");
        assert!(pairs.contains(&("два".to_owned(), "три".to_owned())));
        assert!(pairs.contains(&("красный".to_owned(), "зелёный".to_owned())));
        assert!(!pairs.iter().any(|(a, b)| (a == "два" && b == "красный") || (a == "красный" && b == "два")));
    }
}
