//! Whole-word search in the corpus: the sentences of a language that contain the
//! target once as a whole word and not the distractor (the contexts of a pair).
//!
//! The word index ([`super::postings`]) gives the sentences that hold the target and
//! not the distractor; [`blank_for`] then keeps those that hold the target exactly
//! once, with its byte range, and [`giveaway`] drops those whose grammar gives the
//! target away (what the distractor's own sentences say of its neighbours decides
//! agreement).

use gapwise_model::{giveaway, Giveaway, Language, Neighbours, NEIGHBOUR_SENTENCES};
use std::collections::{BTreeMap, HashSet};
use std::ops::ControlFlow;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use sqlx::Row;

use crate::error::StoreError;
use crate::material::Material;
use gapwise_model::words::{blank_for, game_occurrences, stands_alone, word_spans};

/// Sentences read per query when checking candidates.
const SENTENCES_PER_QUERY: usize = 500;

/// What a search looked at: the contexts that held the target once and not the
/// distractor, and those of them dropped because they give the target away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContextTally {
    pub examined: u64,
    pub given_away: BTreeMap<Giveaway, u64>,
}

impl std::fmt::Display for ContextTally {
    /// "120 contexts looked at, 9 dropped (article 0, elision 4, agreement 5)"
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dropped: u64 = self.given_away.values().sum();
        let reasons: Vec<String> =
            Giveaway::ALL.iter().map(|g| format!("{} {}", g.code(), self.given_away.get(g).copied().unwrap_or(0))).collect();
        write!(f, "{} contexts looked at, {dropped} dropped ({})", self.examined, reasons.join(", "))
    }
}

/// The pair a search is for, with what the corpus says of its distractor.
struct Sought<'a> {
    language: Language,
    target: &'a str,
    distractor: &'a str,
    seen: Neighbours,
}

/// A sentence that can stand for a pair, with the byte range of its blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub sentence_id: i64,
    pub text: String,
    pub blank: (usize, usize),
    /// Where the sentence comes from, `source/genre`.
    pub origin: String,
}

impl Material<'_> {
    /// The ids of the sentences of `language` that hold `target` and not
    /// `distractor` as whole words, sorted, and the pair to search for.
    async fn candidates<'a>(self, language: Language, target: &'a str, distractor: &'a str) -> Result<(Vec<i64>, Sought<'a>), StoreError> {
        let with = self.sentences_with(language, target).await?;
        let holding = self.sentences_with(language, distractor).await?;
        let mut texts = Vec::new();
        let read = if Neighbours::matter_in(language) { NEIGHBOUR_SENTENCES / SENTENCES_PER_QUERY } else { 0 };
        for chunk in holding.chunks(SENTENCES_PER_QUERY).take(read) {
            texts.extend(self.texts(chunk).await?.into_values().map(|(text, _)| text));
        }
        let seen = Neighbours::of(language, distractor, texts.iter().map(String::as_str));
        let without: HashSet<i64> = holding.into_iter().collect();
        let ids = with.into_iter().filter(|id| !without.contains(id)).collect();
        Ok((ids, Sought { language, target, distractor, seen }))
    }

    /// Whether the corpus of `language` has `word` standing alone somewhere, as a
    /// word the games play ([`game_occurrences`]: not the "aujourd" of
    /// "aujourd'hui", nor the "don" of "don't") and not glued to a digit or dot
    /// ([`stands_alone`]), among the first [`SENTENCES_PER_QUERY`] sentences that
    /// hold its first word ("don" for "don't"). Read a few at a time, and only until
    /// one says yes: a suggestion's card asks this of each word.
    pub(crate) async fn stands_alone_in_corpus(self, language: Language, word: &str) -> Result<bool, StoreError> {
        /// Sentences read per query: most words stand alone in their first one.
        const AT_A_TIME: usize = 20;
        let Some(&(start, end)) = word_spans(word).first() else { return Ok(false) };
        let ids = self.sentences_with(language, &word[start..end]).await?;
        for chunk in ids.get(..SENTENCES_PER_QUERY.min(ids.len())).unwrap_or_default().chunks(AT_A_TIME) {
            let texts = self.texts(chunk).await?;
            if texts.values().any(|(text, _)| game_occurrences(text, word).into_iter().any(|span| stands_alone(text, span))) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The text and origin (`source/genre`) of each sentence of `ids` (at most
    /// [`SENTENCES_PER_QUERY`]).
    async fn texts(self, ids: &[i64]) -> Result<std::collections::HashMap<i64, (String, String)>, StoreError> {
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!("SELECT id, text, source || '/' || genre FROM sentences WHERE id IN ({})", marks.join(", "));
        let mut query = sqlx::query(&sql);
        for id in ids {
            query = query.bind(*id);
        }
        let mut read = std::collections::HashMap::new();
        for r in query.fetch_all(self.pool()).await? {
            read.insert(r.try_get::<i64, _>(0)?, (r.try_get::<String, _>(1)?, r.try_get::<String, _>(2)?));
        }
        Ok(read)
    }

    /// Calls `each` with the sentences among `ids` that hold the target once and not
    /// the distractor, in the order of `ids`, with what [`giveaway`] says of each,
    /// until it breaks; counts in `tally` what it looked at.
    async fn each_judged(
        self,
        ids: &[i64],
        sought: &Sought<'_>,
        tally: &mut ContextTally,
        mut each: impl FnMut(Found, Option<Giveaway>) -> ControlFlow<()>,
    ) -> Result<(), StoreError> {
        let Sought { language, target, distractor, seen } = sought;
        for chunk in ids.chunks(SENTENCES_PER_QUERY) {
            let mut read = self.texts(chunk).await?;
            for id in chunk {
                let Some((text, origin)) = read.remove(id) else { continue };
                let Some(blank) = blank_for(&text, target, distractor) else { continue };
                tally.examined += 1;
                let verdict = giveaway(*language, &text, blank, target, distractor, seen);
                if let Some(reason) = verdict {
                    *tally.given_away.entry(reason).or_default() += 1;
                }
                if each(Found { sentence_id: *id, text, blank, origin }, verdict).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// [`Self::each_judged`] of the contexts that give nothing away.
    async fn each_context(
        self,
        ids: &[i64],
        sought: &Sought<'_>,
        tally: &mut ContextTally,
        mut each: impl FnMut(Found) -> ControlFlow<()>,
    ) -> Result<(), StoreError> {
        self.each_judged(ids, sought, tally, |found, verdict| match verdict {
            Some(_) => ControlFlow::Continue(()),
            None => each(found),
        })
        .await
    }

    /// The first `limit` sentences of `language` that contain `target` once as a
    /// whole word and not `distractor`, before the giveaway rules, each with what
    /// the rules say of it (the held-back check of the rules by a model reads them).
    pub async fn judged_contexts(
        self,
        language: Language,
        target: &str,
        distractor: &str,
        limit: usize,
    ) -> Result<Vec<(Found, Option<Giveaway>)>, StoreError> {
        self.first_judged(language, target, distractor, limit, |_| true).await
    }

    /// The first `limit` sentences of [`Self::each_judged`] whose verdict `keep` takes.
    async fn first_judged(
        self,
        language: Language,
        target: &str,
        distractor: &str,
        limit: usize,
        keep: impl Fn(Option<Giveaway>) -> bool,
    ) -> Result<Vec<(Found, Option<Giveaway>)>, StoreError> {
        let mut found = Vec::new();
        if limit > 0 {
            let (ids, sought) = self.candidates(language, target, distractor).await?;
            self.each_judged(&ids, &sought, &mut ContextTally::default(), |f, verdict| {
                if keep(verdict) {
                    found.push((f, verdict));
                }
                if found.len() >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .await?;
        }
        Ok(found)
    }

    /// The active pairs of `language`, (target, distractor), oldest first.
    pub async fn active_pairs(self, language: Language) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as("SELECT target, distractor FROM word_pairs WHERE lang = $1 AND status = 'active' ORDER BY id")
            .bind(language)
            .fetch_all(self.pool())
            .await?)
    }

    /// The first `limit` sentences of `language` that contain `target` once as a
    /// whole word and not `distractor`, and do not give the target away.
    pub async fn find_contexts(self, language: Language, target: &str, distractor: &str, limit: usize) -> Result<Vec<Found>, StoreError> {
        let found = self.first_judged(language, target, distractor, limit, |verdict| verdict.is_none()).await?;
        Ok(found.into_iter().map(|(f, _)| f).collect())
    }

    /// Up to `sample` of those sentences drawn uniformly without replacement (the
    /// candidates in a seeded random order, the first fitting ones kept), leaving out
    /// the sentence ids in `exclude`; in corpus order. Counts in `tally` what it
    /// looked at.
    #[allow(clippy::too_many_arguments)]
    pub async fn sample_contexts(
        self,
        language: Language,
        target: &str,
        distractor: &str,
        sample: usize,
        seed: u64,
        exclude: &HashSet<i64>,
        tally: &mut ContextTally,
    ) -> Result<Vec<Found>, StoreError> {
        let (mut ids, sought) = self.candidates(language, target, distractor).await?;
        ids.retain(|id| !exclude.contains(id));
        ids.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        let mut kept: Vec<Found> = Vec::with_capacity(sample.min(4096));
        if sample > 0 {
            self.each_context(&ids, &sought, tally, |f| {
                kept.push(f);
                if kept.len() >= sample {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .await?;
        }
        kept.sort_by_key(|f| f.sentence_id);
        Ok(kept)
    }

    /// How many sentences of the language hold `word` as a whole word.
    pub async fn word_count(self, language: Language, word: &str) -> Result<i64, StoreError> {
        Ok(i64::try_from(self.sentences_with(language, word).await?.len()).unwrap_or(i64::MAX))
    }
}
