//! The substitution game: serving items, taking answers, giving feedback.
//!
//! The state of a player lives in the database, not in the browser: the session
//! points at its current serving, which is either unanswered (show the item) or
//! answered (show the feedback until the player moves on). Pages with and without
//! JavaScript therefore render the same thing.

use std::collections::{BTreeMap, BTreeSet};

use rand::Rng;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::item_choice::Source;
use super::{now_ms, Session, Store, Refusal, StoreError};

use crate::model::{
    answer_points, level_of, level_threshold, unlock_level, Achievement, Context, Feedback, ItemCard, PlayState, Progress, Score,
    ALLOWED_K, DAILY_GOAL, DAY_MS, PAIR_PLAYED_POINTS, PAIR_UNSOLVED_AT_5_POINTS,
};

/// Client-measured times outside (0, 1 h] are not trusted: the server time is used,
/// and the reported one is kept apart (`answers.client_ms_reported`) and flagged.
pub(crate) const MAX_CLIENT_MS: i64 = 3_600_000;

/// A serving joined with its item's pair.
struct Serving {
    id: String,
    item_id: i64,
    k: u8,
    target_first: bool,
    served_at: i64,
    target: String,
    distractor: String,
    lang: String,
}

impl Serving {
    fn options(&self) -> [String; 2] {
        if self.target_first {
            [self.target.clone(), self.distractor.clone()]
        } else {
            [self.distractor.clone(), self.target.clone()]
        }
    }
}

pub(crate) fn to_k(raw: i64) -> Result<u8, StoreError> {
    u8::try_from(raw)
        .ok()
        .filter(|k| ALLOWED_K.contains(k))
        .ok_or_else(|| StoreError::Invalid(format!("stored k {raw} is not 1, 3 or 5")))
}

pub(crate) fn check_k(k: u8) -> Result<(), StoreError> {
    if ALLOWED_K.contains(&k) {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!("k must be 1, 3 or 5, not {k}")))
    }
}

impl Store {
    /// What the game page shows: a crowd participant's study, a challenge's items,
    /// or else the open game with `k` sentences in `lang` once the player's level
    /// unlocked that k ([`unlock_level`]).
    pub async fn play(&self, session: &Session, k: u8, lang: &str, challenge: Option<&str>) -> Result<PlayState, StoreError> {
        if let Some(state) = self.play_assignment(session).await? {
            return Ok(state);
        }
        if let Some(id) = challenge {
            return self.play_challenge(session, id).await;
        }
        check_k(k)?;
        let needed = unlock_level(k);
        // every player has level 1: the progress (the costliest query of a round) is
        // worked out only when the k asks for more
        if needed > 1 && self.progress(&session.annotator.id).await?.level < needed {
            return Ok(PlayState::Locked { k, level: needed, pseudonym: session.annotator.pseudonym.clone() });
        }
        // play_assignment reclaimed idle crowd assignments already
        self.play_state_from(session, k, lang, Source::Open).await
    }

    /// What the player should see now for `k` sentences per item in language `lang`;
    /// serves a new item when there is nothing to show.
    pub async fn play_state(&self, session: &Session, k: u8, lang: &str) -> Result<PlayState, StoreError> {
        // the items of idle crowd assignments go to others
        self.reclaim_abandoned().await?;
        self.play_state_from(session, k, lang, Source::Open).await
    }

    /// [`Store::play_state`] with the next item from `source`. An unanswered serving
    /// is shown again when it fits: same k and language, and in a challenge one of
    /// its items.
    pub(super) async fn play_state_from(&self, session: &Session, k: u8, lang: &str, source: Source<'_>) -> Result<PlayState, StoreError> {
        check_k(k)?;
        let pseudonym = session.annotator.pseudonym.clone();
        if let Some(id) = &session.current_serving_id {
            if let Some(serving) = self.serving(id, &session.annotator.id).await? {
                if let Some(feedback) = self.feedback(&serving, &session.annotator.id).await? {
                    return Ok(PlayState::Feedback { feedback, pseudonym });
                }
                if serving.k == k && serving.lang == lang && self.fits(&serving, source).await? {
                    let card = self.card(&serving).await?;
                    let score = self.score(&session.annotator.id).await?;
                    return Ok(PlayState::Item { card, score, pseudonym });
                }
            }
        }
        let score = self.score(&session.annotator.id).await?;
        match self.serve_new(session, k, lang, source).await? {
            Some(serving) => {
                let card = self.card(&serving).await?;
                Ok(PlayState::Item { card, score, pseudonym })
            }
            None => Ok(PlayState::Exhausted { k, score, pseudonym }),
        }
    }

    /// Stores the player's choice (0 or 1: the position of the button) for the serving
    /// `answer_id`. Idempotent: a retry with the same id stores nothing new and returns
    /// the feedback of the first answer.
    pub async fn answer(
        &self,
        session: &Session,
        answer_id: &str,
        choice: usize,
        client_ms: Option<i64>,
    ) -> Result<Feedback, StoreError> {
        let annotator = &session.annotator.id;
        let serving = self.serving(answer_id, annotator).await?.ok_or_else(|| {
            StoreError::NotFound(format!(
                "answer id {answer_id:?} does not belong to an item served to you"
            ))
        })?;
        let options = serving.options();
        let chosen = options
            .get(choice)
            .ok_or_else(|| StoreError::Invalid(format!("choice must be 0 or 1, not {choice}")))?;
        let now = now_ms();
        let (client_ms, reported) = match client_ms {
            Some(ms) if !(1..=MAX_CLIENT_MS).contains(&ms) => (None, Some(ms)),
            trusted => (trusted, None),
        };
        let correct = *chosen == serving.target;
        let stored = sqlx::query(
            "INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, \
             server_ms, option_order, created_at, client_ms_reported) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&serving.id)
        .bind(annotator)
        .bind(serving.item_id)
        .bind(i64::from(serving.k))
        .bind(chosen)
        .bind(i64::from(correct))
        .bind(client_ms)
        .bind((now - serving.served_at).max(0))
        .bind(options.join("|"))
        .bind(now)
        .bind(reported)
        .execute(self.writer())
        .await?;
        if stored.rows_affected() == 1 {
            return self.feedback_of(&serving, annotator, chosen.clone(), correct).await;
        }
        // a retry: the first answer's feedback
        self.feedback(&serving, annotator)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("answer {answer_id:?} vanished")))
    }

    /// Moves the player past the feedback of an answered item; whether there was one.
    pub async fn next_item(&self, session: &Session) -> Result<bool, StoreError> {
        let moved = sqlx::query(
            "UPDATE sessions SET current_serving_id = NULL WHERE token_hash = $1 \
             AND current_serving_id IN (SELECT id FROM answers)",
        )
        .bind(&session.token_hash)
        .execute(self.writer())
        .await?;
        Ok(moved.rows_affected() == 1)
    }

    /// Answers given and answers right, over all of the annotator's play.
    pub async fn score(&self, annotator_id: &str) -> Result<Score, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*), CAST(COALESCE(SUM(correct), 0) AS BIGINT) FROM answers WHERE annotator_id = $1",
        )
        .bind(annotator_id)
        .fetch_one(self.pool())
        .await?;
        Ok(Score { answered: row.try_get(0)?, correct: row.try_get(1)? })
    }

    /// The player's points (their answers', and their proposed pairs' when others
    /// play them), level, streaks and answers today (see [`Progress`]).
    pub async fn progress(&self, annotator_id: &str) -> Result<Progress, StoreError> {
        let rows = sqlx::query(
            "SELECT a.k, a.correct, a.created_at, p.lang FROM answers a JOIN items i ON i.id = a.item_id \
             JOIN word_pairs p ON p.id = i.pair_id WHERE a.annotator_id = $1 ORDER BY a.created_at, a.id",
        )
        .bind(annotator_id)
        .fetch_all(self.pool())
        .await?;
        let mut progress = Progress::default();
        let (mut ks, mut languages, mut per_day) = (BTreeSet::new(), BTreeSet::new(), BTreeMap::<i64, i64>::new());
        for row in &rows {
            let k = to_k(row.try_get(0)?)?;
            let correct = row.try_get::<i64, _>(1)? == 1;
            let at: i64 = row.try_get(2)?;
            progress.points += answer_points(k, correct);
            progress.streak = if correct { progress.streak + 1 } else { 0 };
            progress.best_streak = progress.best_streak.max(progress.streak);
            ks.insert(k);
            languages.insert(row.try_get::<String, _>(3)?);
            *per_day.entry(at.div_euclid(DAY_MS)).or_default() += 1;
        }
        progress.today = per_day.get(&now_ms().div_euclid(DAY_MS)).copied().unwrap_or(0);
        let pairs = sqlx::query(
            "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN a.correct = 0 AND a.k = 5 THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM answers a JOIN items i ON i.id = a.item_id JOIN word_pairs p ON p.id = i.pair_id \
             WHERE p.creator_id = $1 AND a.annotator_id <> $1",
        )
        .bind(annotator_id)
        .fetch_one(self.pool())
        .await?;
        let (played, unsolved): (i64, i64) = (pairs.try_get(0)?, pairs.try_get(1)?);
        progress.from_pairs = played * PAIR_PLAYED_POINTS + unsolved * PAIR_UNSOLVED_AT_5_POINTS;
        progress.points += progress.from_pairs;
        progress.level = level_of(progress.points);
        progress.next_level_at = level_threshold(progress.level + 1);
        let pairs_in_game: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM word_pairs WHERE creator_id = $1")
            .bind(annotator_id)
            .fetch_one(self.pool())
            .await?;
        let earned = |a: Achievement| match a {
            Achievement::FirstAnswer => !rows.is_empty(),
            Achievement::EveryK => ALLOWED_K.iter().all(|k| ks.contains(k)),
            Achievement::Polyglot => languages.len() >= 2,
            Achievement::TenInARow => progress.best_streak >= 10,
            Achievement::DailyGoal => per_day.values().any(|&n| n >= DAILY_GOAL),
            Achievement::LevelFive => progress.level >= 5,
            Achievement::PairInGame => pairs_in_game > 0,
            Achievement::Unsolvable => unsolved > 0,
        };
        progress.achievements = Achievement::ALL.into_iter().filter(|&a| earned(a)).collect();
        Ok(progress)
    }

    /// Picks the next item with `k` contexts from `source` (see [`Source`]) that this
    /// annotator has never been served, records the serving with a random option
    /// order, and makes it the session's current serving. `None` when none is left.
    async fn serve_new(&self, session: &Session, k: u8, lang: &str, source: Source<'_>) -> Result<Option<Serving>, StoreError> {
        let annotator = &session.annotator.id;
        // Two requests of one annotator may race for the same item: the unique
        // (annotator, item) constraint lets one win, and the other picks again.
        for _ in 0..5 {
            let item = self.choose_item(annotator, k, lang, source).await?;
            let Some(item_id) = item else { return Ok(None) };
            let id = uuid::Uuid::new_v4().to_string();
            let target_first = rand::thread_rng().gen_bool(0.5);
            let inserted = sqlx::query(
                "INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (annotator_id, item_id) DO NOTHING",
            )
            .bind(&id)
            .bind(annotator)
            .bind(item_id)
            .bind(i64::from(k))
            .bind(i64::from(target_first))
            .bind(now_ms())
            .execute(self.writer())
            .await?;
            if inserted.rows_affected() == 1 {
                if matches!(source, Source::Open) {
                    self.holds.add_holder(k, lang, item_id);
                }
                sqlx::query("UPDATE sessions SET current_serving_id = $1 WHERE token_hash = $2")
                    .bind(&id)
                    .bind(&session.token_hash)
                    .execute(self.writer())
                    .await?;
                return self.serving(&id, annotator).await;
            }
        }
        Err(Refusal::busy())
    }

    /// Whether a serving belongs where the next item comes from.
    async fn fits(&self, serving: &Serving, source: Source<'_>) -> Result<bool, StoreError> {
        match source {
            Source::Open => Ok(true),
            Source::Challenge(id) => {
                let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenge_items WHERE challenge_id = $1 AND item_id = $2")
                    .bind(id)
                    .bind(serving.item_id)
                    .fetch_one(self.pool())
                    .await?;
                Ok(n > 0)
            }
        }
    }

    async fn serving(&self, id: &str, annotator_id: &str) -> Result<Option<Serving>, StoreError> {
        let row = sqlx::query(
            "SELECT s.id, s.item_id, s.k, s.target_first, s.served_at, p.target, p.distractor, p.lang \
             FROM servings s JOIN items i ON i.id = s.item_id AND i.kind = 'choice' JOIN word_pairs p ON p.id = i.pair_id \
             WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(id)
        .bind(annotator_id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r: AnyRow| {
            Ok(Serving {
                id: r.try_get(0)?,
                item_id: r.try_get(1)?,
                k: to_k(r.try_get(2)?)?,
                target_first: r.try_get::<i64, _>(3)? == 1,
                served_at: r.try_get(4)?,
                target: r.try_get(5)?,
                distractor: r.try_get(6)?,
                lang: r.try_get(7)?,
            })
        })
        .transpose()
    }

    /// The item's contexts in order, split around the blank.
    pub(crate) async fn contexts(&self, item_id: i64) -> Result<Vec<Context>, StoreError> {
        if let Some(known) = self.contexts.get(item_id) {
            return Ok(known.to_vec());
        }
        let rows = sqlx::query(
            "SELECT t.text, c.blank_start, c.blank_end FROM item_contexts c \
             JOIN sentences t ON t.id = c.sentence_id WHERE c.item_id = $1 ORDER BY c.position",
        )
        .bind(item_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let text: String = r.try_get(0)?;
                let start = usize::try_from(r.try_get::<i64, _>(1)?).ok();
                let end = usize::try_from(r.try_get::<i64, _>(2)?).ok();
                match (start.and_then(|s| text.get(..s)), end.and_then(|e| text.get(e..))) {
                    (Some(before), Some(after)) => Ok(Context { before: before.into(), after: after.into() }),
                    _ => Err(StoreError::Invalid(format!("item {item_id} has a blank outside its sentence"))),
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .inspect(|contexts| self.contexts.put(item_id, contexts.as_slice().into()))
    }

    async fn card(&self, serving: &Serving) -> Result<ItemCard, StoreError> {
        Ok(ItemCard {
            answer_id: serving.id.clone(),
            k: serving.k,
            contexts: self.contexts(serving.item_id).await?,
            options: serving.options(),
        })
    }

    /// The feedback for an answered serving; `None` while it is unanswered.
    async fn feedback(&self, serving: &Serving, annotator_id: &str) -> Result<Option<Feedback>, StoreError> {
        let row = sqlx::query("SELECT chosen, correct FROM answers WHERE id = $1")
            .bind(&serving.id)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        self.feedback_of(serving, annotator_id, row.try_get(0)?, row.try_get::<i64, _>(1)? == 1).await.map(Some)
    }

    /// The feedback for answering `serving` with `chosen`.
    async fn feedback_of(&self, serving: &Serving, annotator_id: &str, chosen: String, correct: bool) -> Result<Feedback, StoreError> {
        Ok(Feedback {
            k: serving.k,
            chosen,
            correct,
            target: serving.target.clone(),
            contexts: self.contexts(serving.item_id).await?,
            score: self.score(annotator_id).await?,
        })
    }
}
