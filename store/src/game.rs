//! The substitution game: serving items, taking answers, giving feedback.
//!
//! The state of a player lives in the database, not in the browser: the session
//! points at its current serving, which is either unanswered (show the item) or
//! answered (show the feedback until the player moves on). Pages with and without
//! JavaScript therefore render the same thing.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rand::Rng;
use sqlx::Row;

use super::game_writes::{AnswerRow, Pending, ServingRow, Write};
use super::item_choice::Source;
use super::{now_ms, Session, Store, StoreError};

use gapwise_model::{
    answer_points, level_of, level_threshold, unlock_level, Achievement, Context, Feedback, ItemCard, PlayState, Progress, Round, Score,
    ALLOWED_K, DAILY_GOAL, DAY_MS, PAIR_PLAYED_POINTS, PAIR_UNSOLVED_AT_5_POINTS,
};

/// Client-measured times outside (0, 1 h] are not trusted: the server time is used,
/// and the reported one is kept apart (`answers.client_ms_reported`) and flagged.
pub(crate) const MAX_CLIENT_MS: i64 = 3_600_000;

/// What an item shows: its contexts, and its pair's words.
#[derive(Debug)]
pub(crate) struct ItemFacts {
    /// A game item ("choice"), as opposed to a Likert rating's.
    pub choice: bool,
    pub lang: String,
    pub target: String,
    pub distractor: String,
    /// In order, split around the blank.
    pub contexts: Vec<Context>,
}

/// A serving of a game item: its row, and the item.
struct Serving {
    row: Arc<ServingRow>,
    item: Arc<ItemFacts>,
}

/// An answer handed to the writer, and its serving.
struct SentAnswer {
    serving: Serving,
    chosen: String,
    correct: bool,
    write: Pending<bool>,
}

/// A serving and the answer given to it.
struct Answered {
    serving: Serving,
    chosen: String,
    correct: bool,
    /// Stored by this request (not a retry's first answer).
    fresh: bool,
}

impl Answered {
    /// The feedback for this answer, with the player's `score` after it.
    fn feedback(self, score: Score) -> Feedback {
        let Answered { serving, chosen, correct, .. } = self;
        Feedback { k: serving.row.k, chosen, correct, contexts: serving.item.contexts.clone(), target: serving.item.target.clone(), score }
    }

    /// The player's score after this answer, from their score before the request.
    fn score_after(&self, before: Score) -> Score {
        match self.fresh {
            true => Score { answered: before.answered + 1, correct: before.correct + i64::from(self.correct) },
            false => before,
        }
    }
}

impl Serving {
    /// What the player is shown to answer.
    fn card(&self) -> ItemCard {
        ItemCard { answer_id: self.row.id.clone(), k: self.row.k, contexts: self.item.contexts.clone(), options: self.options() }
    }

    fn options(&self) -> [String; 2] {
        let ItemFacts { target, distractor, .. } = &*self.item;
        if self.row.target_first {
            [target.clone(), distractor.clone()]
        } else {
            [distractor.clone(), target.clone()]
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
        // the items of idle crowd assignments go to others
        self.sweep_abandoned().await?;
        if session.in_crowd {
            if let Some(state) = self.play_assignment(session).await? {
                return Ok(state);
            }
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
        self.play_state_from(session, k, lang, Source::Open).await
    }

    /// What the player should see now for `k` sentences per item in language `lang`;
    /// serves a new item when there is nothing to show.
    pub async fn play_state(&self, session: &Session, k: u8, lang: &str) -> Result<PlayState, StoreError> {
        self.sweep_abandoned().await?;
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
                if let Some((chosen, correct)) = self.answer_given(&serving.row.id).await? {
                    let feedback = Answered { serving, chosen, correct, fresh: false }.feedback(session.score);
                    return Ok(PlayState::Feedback { feedback, pseudonym });
                }
                if serving.row.k == k && serving.item.lang == lang && self.fits(&serving, source).await? {
                    let card = serving.card();
                    return Ok(PlayState::Item { card, score: session.score, pseudonym });
                }
            }
        }
        let score = session.score;
        match self.serve_new(session, k, lang, source).await? {
            Some(serving) => {
                let card = serving.card();
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
        let answered = self.record_answer(session, answer_id, choice, client_ms).await?;
        let score = answered.score_after(session.score);
        Ok(answered.feedback(score))
    }

    /// [`Store::answer`], then what [`Store::play`] gives for `k`, `lang` and
    /// `challenge` once the player moved on: one request a round for a client that
    /// shows the feedback with the next item ready. The next item becomes the
    /// session's current serving; when there is none, the session leaves the answer.
    pub async fn answer_and_play(
        &self,
        session: &Session,
        answer: (&str, usize, Option<i64>),
        k: u8,
        lang: &str,
        challenge: Option<&str>,
    ) -> Result<Round, StoreError> {
        let (answer_id, choice, client_ms) = answer;
        check_k(k)?;
        let sent = self.send_answer(session, answer_id, choice, client_ms).await?;
        let moved_on = Session { current_serving_id: None, ..session.clone() };
        // Unless the next item depends on the answers stored (a crowd study's, a
        // challenge's, or a k that needs a level), it is chosen and served while the
        // answer is committed: on SQLite both writes then go in one batch.
        let (answered, next) = if !session.in_crowd && challenge.is_none() && unlock_level(k) == 1 {
            let next = self.play(&moved_on, k, lang, challenge).await;
            (self.stored(sent).await?, next?)
        } else {
            let answered = self.stored(sent).await?;
            (answered, self.play(&moved_on, k, lang, challenge).await?)
        };
        let score = answered.score_after(session.score);
        let next = next.with_score(score);
        if !matches!(next, PlayState::Item { .. }) {
            self.next_item(session).await?;
        }
        Ok(Round { feedback: answered.feedback(score), next })
    }

    /// Stores an answer (see [`Store::answer`]); for a retry, the first answer.
    async fn record_answer(&self, session: &Session, answer_id: &str, choice: usize, client_ms: Option<i64>) -> Result<Answered, StoreError> {
        let sent = self.send_answer(session, answer_id, choice, client_ms).await?;
        self.stored(sent).await
    }

    /// Hands the answer to the writer, which commits it with its next batch on SQLite.
    async fn send_answer(&self, session: &Session, answer_id: &str, choice: usize, client_ms: Option<i64>) -> Result<SentAnswer, StoreError> {
        let annotator = &session.annotator.id;
        let serving = self.serving(answer_id, annotator).await?.ok_or_else(|| {
            StoreError::NotFound(format!(
                "answer id {answer_id:?} does not belong to an item served to you"
            ))
        })?;
        let options = serving.options();
        let chosen = options
            .get(choice)
            .ok_or_else(|| StoreError::Invalid(format!("choice must be 0 or 1, not {choice}")))?
            .clone();
        let now = now_ms();
        let (client_ms, reported) = match client_ms {
            Some(ms) if !(1..=MAX_CLIENT_MS).contains(&ms) => (None, Some(ms)),
            trusted => (trusted, None),
        };
        let correct = chosen == serving.item.target;
        let row = AnswerRow {
            id: serving.row.id.clone(),
            annotator_id: annotator.clone(),
            item_id: serving.row.item_id,
            k: serving.row.k,
            chosen: chosen.clone(),
            correct,
            client_ms,
            server_ms: (now - serving.row.served_at).max(0),
            option_order: options.join("|"),
            created_at: now,
            client_ms_reported: reported,
        };
        let write = self.writes.send(Write::Answer(row)).await;
        Ok(SentAnswer { serving, chosen, correct, write })
    }

    /// The answer once its write is committed: this one, or for a retry the first.
    async fn stored(&self, sent: SentAnswer) -> Result<Answered, StoreError> {
        let SentAnswer { serving, chosen, correct, write } = sent;
        if write.result().await? {
            self.served.remove(serving.row.id.as_str());
            return Ok(Answered { serving, chosen, correct, fresh: true });
        }
        let id = &serving.row.id;
        let (chosen, correct) = self.answer_given(id).await?.ok_or_else(|| StoreError::NotFound(format!("answer {id:?} vanished")))?;
        Ok(Answered { serving, chosen, correct, fresh: false })
    }

    /// Moves the player past the feedback of an answered item.
    pub async fn next_item(&self, session: &Session) -> Result<(), StoreError> {
        self.writes.write(Write::MoveOn { session: session.token_hash.clone() }).await.map(drop)
    }

    /// Answers given and answers right, over all of the annotator's play.
    pub async fn score(&self, annotator_id: &str) -> Result<Score, StoreError> {
        let row = sqlx::query(
            "SELECT answered, answered_right FROM annotators WHERE id = $1",
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
            let row = Arc::new(ServingRow {
                // time-ordered: a new serving's (and its answer's) key goes at the end
                // of the key's index, on the page the last one went to, instead of on
                // a random page that a commit then writes out whole
                id: uuid::Uuid::now_v7().to_string(),
                annotator_id: annotator.clone(),
                item_id,
                k,
                target_first: rand::thread_rng().gen_bool(0.5),
                served_at: now_ms(),
            });
            if self.writes.write(Write::Serve { serving: row.clone(), session: session.token_hash.clone() }).await? {
                if matches!(source, Source::Open) {
                    self.holds.add_holder(k, lang, item_id);
                }
                self.count_served(annotator, item_id);
                self.served.put(row.id.clone(), row.clone());
                let item = self.item(item_id).await?;
                return Ok(Some(Serving { row, item }));
            }
            // served meanwhile, by another request or process: read the view again
            self.players.remove(annotator.as_str());
        }
        Err(super::error::busy())
    }

    /// Whether a serving belongs where the next item comes from.
    async fn fits(&self, serving: &Serving, source: Source<'_>) -> Result<bool, StoreError> {
        match source {
            Source::Open => Ok(true),
            Source::Challenge(id) => {
                let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenge_items WHERE challenge_id = $1 AND item_id = $2")
                    .bind(id)
                    .bind(serving.row.item_id)
                    .fetch_one(self.pool())
                    .await?;
                Ok(n > 0)
            }
        }
    }

    /// The serving `id` of a game item to `annotator_id`, if there is one.
    async fn serving(&self, id: &str, annotator_id: &str) -> Result<Option<Serving>, StoreError> {
        let row = match self.served.get(id) {
            Some(known) => Some(known),
            None => {
                let row: Option<(i64, i64, i64, i64)> = sqlx::query_as(
                    "SELECT item_id, k, target_first, served_at FROM servings WHERE id = $1 AND annotator_id = $2",
                )
                .bind(id)
                .bind(annotator_id)
                .fetch_optional(self.pool())
                .await?;
                row.map(|(item_id, k, target_first, served_at)| {
                    Ok::<_, StoreError>(Arc::new(ServingRow {
                        id: id.to_owned(),
                        annotator_id: annotator_id.to_owned(),
                        item_id,
                        k: to_k(k)?,
                        target_first: target_first == 1,
                        served_at,
                    }))
                })
                .transpose()?
            }
        };
        let Some(row) = row.filter(|r| r.annotator_id == annotator_id) else { return Ok(None) };
        let item = self.item(row.item_id).await?;
        Ok(item.choice.then_some(Serving { row, item }))
    }

    /// An item's facts, kept in memory once read.
    pub(crate) async fn item(&self, item_id: i64) -> Result<Arc<ItemFacts>, StoreError> {
        if let Some(known) = self.items.get(&item_id) {
            return Ok(known);
        }
        let row = sqlx::query(
            "SELECT i.kind, p.lang, p.target, p.distractor FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE i.id = $1",
        )
        .bind(item_id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("no item {item_id}")))?;
        let contexts = sqlx::query(
            "SELECT t.text, c.blank_start, c.blank_end FROM item_contexts c \
             JOIN sentences t ON t.id = c.sentence_id WHERE c.item_id = $1 ORDER BY c.position",
        )
        .bind(item_id)
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|r| {
            let text: String = r.try_get(0)?;
            let start = usize::try_from(r.try_get::<i64, _>(1)?).ok();
            let end = usize::try_from(r.try_get::<i64, _>(2)?).ok();
            match (start.and_then(|s| text.get(..s)), end.and_then(|e| text.get(e..))) {
                (Some(before), Some(after)) => Ok(Context { before: before.into(), after: after.into() }),
                _ => Err(StoreError::Invalid(format!("item {item_id} has a blank outside its sentence"))),
            }
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let item = Arc::new(ItemFacts {
            choice: row.try_get::<String, _>(0)? == "choice",
            lang: row.try_get(1)?,
            target: row.try_get(2)?,
            distractor: row.try_get(3)?,
            contexts,
        });
        self.items.put(item_id, item.clone());
        Ok(item)
    }

    /// The item's contexts in order, split around the blank.
    pub(crate) async fn contexts(&self, item_id: i64) -> Result<Vec<Context>, StoreError> {
        Ok(self.item(item_id).await?.contexts.clone())
    }

    /// The word chosen for a serving and whether it was right; `None` while unanswered.
    async fn answer_given(&self, serving_id: &str) -> Result<Option<(String, bool)>, StoreError> {
        let row = sqlx::query("SELECT chosen, correct FROM answers WHERE id = $1")
            .bind(serving_id)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get::<i64, _>(1)? == 1))).transpose()
    }
}
