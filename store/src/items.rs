//! Building items: for each active pair without choice items, groups of k distinct
//! sentences that contain the target once as a whole word and not the distractor,
//! spread across sources and genres (the sentences are drawn at random, then dealt
//! one origin, `source/genre`, at a time), and never giving another item away: a
//! sentence is in one item only.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::{BTreeMap, HashSet};

use sqlx::{Any, Row, Transaction};

use crate::error::StoreError;
use crate::guess::SHOWN_WHOLE;
use crate::material::Material;
use crate::search::{ContextTally, Found};
use crate::sql::now_ms;
use gapwise_model::{ItemId, Language, PairId, K};

/// Items built per pair and k unless asked otherwise.
pub const ITEMS_PER_K: usize = 4;

/// Sentences drawn per sentence needed, so that rarer origins have a chance to be dealt.
const DRAWN_PER_NEEDED: usize = 4;

/// Reorders sentences one origin at a time (round robin over the origins, in order of
/// first appearance), keeping the order within each origin.
fn deal_by_origin(sentences: Vec<Found>) -> Vec<Found> {
    let mut origins: Vec<(String, std::collections::VecDeque<Found>)> = Vec::new();
    for s in sentences {
        match origins.iter_mut().find(|(o, _)| *o == s.origin) {
            Some((_, queue)) => queue.push_back(s),
            None => origins.push((s.origin.clone(), std::collections::VecDeque::from([s]))),
        }
    }
    let mut dealt = Vec::new();
    while origins.iter().any(|(_, q)| !q.is_empty()) {
        dealt.extend(origins.iter_mut().filter_map(|(_, q)| q.pop_front()));
    }
    dealt
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub pairs: u64,
    pub items: u64,
    /// Active pairs for which no sentence qualified.
    pub pairs_without_contexts: u64,
    /// Per language, the contexts looked at and those dropped for giving the
    /// target away.
    pub contexts: BTreeMap<Language, ContextTally>,
}

/// The two kinds of items: the game's two-button ones, and Section 6's Likert ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Choice,
    Likert,
}

/// Inserts an item of `kind` with its contexts, `(sentence id, blank byte range)` in
/// order; returns its id.
pub(crate) async fn insert_item(
    tx: &mut Transaction<'_, Any>,
    pair: PairId,
    k: K,
    kind: ItemKind,
    contexts: &[(i64, (usize, usize))],
) -> Result<ItemId, StoreError> {
    let kind = match kind {
        ItemKind::Choice => "choice",
        ItemKind::Likert => "likert",
    };
    let item_id: ItemId = sqlx::query_scalar("INSERT INTO items (pair_id, k, kind, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
        .bind(pair)
        .bind(i64::from(k))
        .bind(kind)
        .bind(now_ms())
        .fetch_one(&mut **tx)
        .await?;
    let offset = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    for (position, &(sentence_id, (start, end))) in contexts.iter().enumerate() {
        sqlx::query("INSERT INTO item_contexts (item_id, position, sentence_id, blank_start, blank_end) VALUES ($1, $2, $3, $4, $5)")
            .bind(item_id)
            .bind(offset(position))
            .bind(sentence_id)
            .bind(offset(start))
            .bind(offset(end))
            .execute(&mut **tx)
            .await?;
    }
    Ok(item_id)
}

impl Material<'_> {
    /// How many answers item `id` has (0 for an item that does not exist).
    pub async fn answers_to_item(self, id: ItemId) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM answers WHERE item_id = $1").bind(id).fetch_one(self.pool()).await?)
    }

    /// Builds up to `per_k` items for each k in {1, 3, 5} for every active pair that
    /// has no items yet, so that items do not give each other away and a player does
    /// not read a sentence twice: a sentence is in one item only (of any pair: one
    /// pair's item would show another's answer, or the same sentence blanked at
    /// another word), and no two sentences of a pair have the same text (up to case
    /// and punctuation). The items of each k are built in turns (one of k = 1, 3, 5, then
    /// again), so that a pair with few sentences still has items of every k. The
    /// choice is shuffled with a seed taken from the pair id, so a rebuild is
    /// reproducible.
    pub async fn build_items(self, per_k: usize) -> Result<BuildReport, StoreError> {
        let pairs = sqlx::query(
            "SELECT p.id, p.lang, p.target, p.distractor FROM word_pairs p WHERE p.status = 'active' \
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.pair_id = p.id AND i.kind = 'choice') ORDER BY p.id",
        )
        .fetch_all(self.pool())
        .await?;
        let mut used = self.sentences_taken().await?;
        let mut report = BuildReport::default();
        let needed: usize = K::ALL.iter().map(|&k| usize::from(k)).sum::<usize>() * per_k;
        let mut tx = self.pool().begin().await?;
        for pair in pairs {
            let (pair_id, language): (PairId, Language) = (pair.try_get(0)?, pair.try_get(1)?);
            let (target, distractor): (String, String) = (pair.try_get(2)?, pair.try_get(3)?);
            let seed = pair_id.get().unsigned_abs();
            let tally = report.contexts.entry(language).or_default();
            let mut candidates =
                self.sample_contexts(language, &target, &distractor, DRAWN_PER_NEEDED * needed, seed, &used, tally).await?;
            report.pairs += 1;
            candidates.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
            let mut texts = HashSet::new();
            candidates.retain(|c| texts.insert(text_key(&c.text)));
            if candidates.is_empty() {
                report.pairs_without_contexts += 1;
                continue;
            }
            let mut dealt = deal_by_origin(candidates).into_iter();
            'turns: for _ in 0..per_k {
                for k in K::ALL {
                    let group: Vec<Found> = dealt.by_ref().take(usize::from(k)).collect();
                    if group.len() < usize::from(k) {
                        break 'turns;
                    }
                    let contexts: Vec<(i64, (usize, usize))> = group.iter().map(|c| (c.sentence_id, c.blank)).collect();
                    insert_item(&mut tx, pair_id, k, ItemKind::Choice, &contexts).await?;
                    used.extend(group.iter().map(|c| c.sentence_id));
                    report.items += 1;
                }
            }
        }
        for (language, tally) in &report.contexts {
            let counts = std::iter::once(("examined", tally.examined)).chain(tally.given_away.iter().map(|(g, n)| (g.code(), *n)));
            for (reason, n) in counts {
                sqlx::query(
                    "INSERT INTO context_tallies (lang, reason, contexts) VALUES ($1, $2, $3) \
                     ON CONFLICT (lang, reason) DO UPDATE SET contexts = context_tallies.contexts + excluded.contexts",
                )
                .bind(*language)
                .bind(reason)
                .bind(i64::try_from(n).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        self.changes.pool_changed();
        Ok(report)
    }

    /// The sentences already in an item, or shown whole to someone by the next-word
    /// or cloze game: an item never blanks a sentence a player may have read whole,
    /// and never shares one with another item.
    async fn sentences_taken(self) -> Result<HashSet<i64>, StoreError> {
        let sql = format!("SELECT sentence_id FROM item_contexts UNION {SHOWN_WHOLE}");
        let ids: Vec<i64> = sqlx::query_scalar(&sql).fetch_all(self.pool()).await?;
        Ok(ids.into_iter().collect())
    }
}

/// A sentence's text up to case, spacing and punctuation: two sentences with the same
/// key read the same to a player.
fn text_key(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(id: i64, origin: &str) -> Found {
        Found { sentence_id: id, text: String::new(), blank: (0, 0), origin: origin.into() }
    }

    #[test]
    fn texts_that_read_the_same_share_a_key() {
        assert_eq!(text_key("\u{ab}Il pleut.\u{bb}"), text_key("il  pleut !"));
        assert_ne!(text_key("Il pleut."), text_key("Il pleuvait."));
    }

    #[test]
    fn origins_take_turns() {
        let dealt = deal_by_origin(vec![found(1, "a"), found(2, "a"), found(3, "a"), found(4, "b"), found(5, "c"), found(6, "b")]);
        let ids: Vec<i64> = dealt.iter().map(|f| f.sentence_id).collect();
        assert_eq!(ids, [1, 4, 5, 2, 6, 3]);
    }
}
