//! The substitution game: serving items, taking answers, giving feedback.
//!
//! The state of a player lives in the database, not in the browser: the session
//! points at its current serving, which is either unanswered (show the item) or
//! answered (show the feedback until the player moves on). Pages with and without
//! JavaScript therefore render the same thing.

use std::sync::Arc;

use rand::Rng;

use gapwise_model::{
    unlock_level, ChallengeId, Feedback, ItemCard, Language, PlayState, PlayerId, Reported, Round, Score, ServingId, Timing, K,
};
use gapwise_store::{now_ms, AnswerRow, ItemFacts, PastAnswer, Pending, ServingRow, Session, StoreError, Write};

use super::item_choice::Source;
use crate::engine::Engine;
use crate::error::EngineError;

/// A serving of a game item: its row, and the item.
pub(crate) struct Serving {
    row: Arc<ServingRow>,
    item: Arc<ItemFacts>,
}

/// Where a session is: its serving answered (what the player sees until they move
/// on), or still open.
pub(crate) enum Current {
    Answered(PlayState),
    Open(Serving),
}

/// An answer handed to the writer, and its serving.
struct SentAnswer {
    serving: Serving,
    chosen: String,
    correct: bool,
    /// When it was given (its row's `created_at`).
    at: i64,
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
        Feedback {
            k: serving.row.k,
            lang: serving.item.lang,
            chosen,
            correct,
            contexts: serving.item.contexts.clone(),
            target: serving.item.target.clone(),
            score,
        }
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
        ItemCard {
            answer_id: self.row.id.clone(),
            k: self.row.k,
            lang: self.item.lang,
            contexts: self.item.contexts.clone(),
            options: self.options(),
        }
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

crate::engine::part!(
    /// The main game: what a player is shown, their answers, moving on, their progress.
    Game,
    game
);

impl Game<'_> {
    /// What the game page shows: a crowd participant's study, a challenge's items,
    /// or else the open game with `k` sentences in `lang` once the player's level
    /// unlocked that k ([`unlock_level`]).
    pub async fn play(
        self,
        session: &Session,
        k: K,
        language: Language,
        challenge: Option<&ChallengeId>,
    ) -> Result<PlayState, EngineError> {
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
        let needed = unlock_level(k);
        // every player has level 1: the progress (the costliest query of a round) is
        // worked out only when the k asks for more
        if needed > 1 && self.progress(&session.player.id).await?.level < needed {
            return Ok(PlayState::Locked { k, level: needed, pseudonym: session.player.pseudonym.clone() });
        }
        self.play_state_from(session, k, language, Source::Open).await
    }

    /// What the player should see now for `k` sentences per item in language `lang`;
    /// serves a new item when there is nothing to show.
    pub async fn play_state(self, session: &Session, k: K, language: Language) -> Result<PlayState, EngineError> {
        self.sweep_abandoned().await?;
        self.play_state_from(session, k, language, Source::Open).await
    }

    /// Stores the player's choice (0 or 1: the position of the button) for the serving
    /// `serving`. Idempotent: a retry with the same serving stores nothing new and
    /// returns the feedback of the first answer.
    pub async fn answer(self, session: &Session, serving: &ServingId, choice: usize, reported: Reported) -> Result<Feedback, EngineError> {
        let answered = self.record_answer(session, serving, choice, reported).await?;
        let score = answered.score_after(session.score);
        Ok(answered.feedback(score))
    }

    /// [`Game::answer`], then what [`Game::play`] gives for `k`, `lang` and
    /// `challenge` once the player moved on: one request a round for a client that
    /// shows the feedback with the next item ready. The next item becomes the
    /// session's current serving; when there is none, the session leaves the answer.
    pub async fn answer_and_play(
        self,
        session: &Session,
        answer: (&ServingId, usize, Reported),
        k: K,
        language: Language,
        challenge: Option<&ChallengeId>,
    ) -> Result<Round, EngineError> {
        let (serving, choice, reported) = answer;
        let sent = self.send_answer(session, serving, choice, reported).await?;
        let moved_on = Session { serving: None, ..session.clone() };
        // Unless the next item depends on the answers stored (a crowd study's, a
        // challenge's, or a k that needs a level), it is chosen and served while the
        // answer is committed: on SQLite both writes then go in one batch.
        let (answered, next) = if !session.in_crowd && challenge.is_none() && unlock_level(k) == 1 {
            let next = self.play(&moved_on, k, language, challenge).await;
            (self.stored(sent).await?, next?)
        } else {
            let answered = self.stored(sent).await?;
            // a crowd study ends on the answer that reaches its target
            let moved_on = Session { score: answered.score_after(session.score), ..moved_on };
            (answered, self.play(&moved_on, k, language, challenge).await?)
        };
        let score = answered.score_after(session.score);
        let next = next.with_score(score);
        if !matches!(next, PlayState::Item { .. }) {
            self.next_item(session).await?;
        }
        Ok(Round { feedback: answered.feedback(score), next })
    }

    /// Moves the player past the feedback of an answered item.
    pub async fn next_item(self, session: &Session) -> Result<(), EngineError> {
        let (session, player) = (session.token_hash.clone(), session.player.id.clone());
        Ok(self.store.write(Write::MoveOn { session, player }).await.map(drop)?)
    }
}

impl Engine {
    /// [`Game::play_state`] with the next item from `source`. An unanswered serving
    /// is shown again when it fits: same k and language, and in a challenge one of
    /// its items.
    pub(crate) async fn play_state_from(
        &self,
        session: &Session,
        k: K,
        language: Language,
        source: Source<'_>,
    ) -> Result<PlayState, EngineError> {
        let pseudonym = session.player.pseudonym.clone();
        match self.current(session).await? {
            Some(Current::Answered(feedback)) => return Ok(feedback),
            Some(Current::Open(serving)) if serving.row.k == k && serving.item.lang == language && self.fits(&serving, source).await? => {
                let card = serving.card();
                return Ok(PlayState::Item { card, score: session.score, pseudonym });
            }
            _ => {}
        }
        let score = session.score;
        match self.serve_new(session, k, language, source).await? {
            Some(serving) => {
                let card = serving.card();
                Ok(PlayState::Item { card, score, pseudonym })
            }
            None => Ok(PlayState::Exhausted { k, score, pseudonym }),
        }
    }

    /// The serving the session is at: answered (its feedback, until the player moves
    /// on), or still open.
    pub(crate) async fn current(&self, session: &Session) -> Result<Option<Current>, EngineError> {
        let Some(id) = &session.serving else { return Ok(None) };
        let Some(serving) = self.serving(id, &session.player.id).await? else { return Ok(None) };
        Ok(Some(match self.store.game().answer_given(&serving.row.id).await? {
            Some((chosen, correct)) => {
                let feedback = Answered { serving, chosen, correct, fresh: false }.feedback(session.score);
                Current::Answered(PlayState::Feedback { feedback, pseudonym: session.player.pseudonym.clone() })
            }
            None => Current::Open(serving),
        }))
    }

    /// Stores an answer (see [`Game::answer`]); for a retry, the first answer.
    async fn record_answer(
        &self,
        session: &Session,
        serving: &ServingId,
        choice: usize,
        reported: Reported,
    ) -> Result<Answered, EngineError> {
        let sent = self.send_answer(session, serving, choice, reported).await?;
        self.stored(sent).await
    }

    /// Hands the answer to the writer, which commits it with its next batch on SQLite.
    async fn send_answer(
        &self,
        session: &Session,
        serving: &ServingId,
        choice: usize,
        reported: Reported,
    ) -> Result<SentAnswer, EngineError> {
        let player = &session.player.id;
        let serving = self
            .serving(serving, player)
            .await?
            .ok_or_else(|| EngineError::NotServed(format!("answer id {:?} does not belong to an item served to you", serving.as_str())))?;
        let options = serving.options();
        let chosen = options.get(choice).ok_or_else(|| EngineError::Invalid(format!("choice must be 0 or 1, not {choice}")))?.clone();
        let now = now_ms();
        let timing = Timing::of(serving.row.served_at, now, reported.client_ms);
        let correct = chosen == serving.item.target;
        let row = AnswerRow {
            id: serving.row.id.clone(),
            player: player.clone(),
            item: serving.row.item,
            k: serving.row.k,
            chosen: chosen.clone(),
            correct,
            client_ms: timing.client_ms,
            server_ms: timing.server_ms,
            option_order: options.join("|"),
            created_at: now,
            client_ms_reported: timing.client_ms_reported,
            trial: reported.trial,
        };
        let write = self.store.send(Write::Answer(row)).await;
        Ok(SentAnswer { serving, chosen, correct, at: now, write })
    }

    /// The answer once its write is committed: this one, or for a retry the first.
    async fn stored(&self, sent: SentAnswer) -> Result<Answered, EngineError> {
        let SentAnswer { serving, chosen, correct, at, write } = sent;
        if write.result().await? {
            self.served.remove(&serving.row.id);
            let ServingRow { id, player, k, .. } = &*serving.row;
            self.fold_stored(player, PastAnswer { id: id.clone(), k: *k, correct, created_at: at, lang: serving.item.lang });
            return Ok(Answered { serving, chosen, correct, fresh: true });
        }
        let id = &serving.row.id;
        let (chosen, correct) =
            self.store.game().answer_given(id).await?.ok_or_else(|| StoreError::NotFound(format!("answer {:?} vanished", id.as_str())))?;
        Ok(Answered { serving, chosen, correct, fresh: false })
    }

    /// Picks the next item with `k` contexts from `source` (see [`Source`]) that this
    /// player has never been served, records the serving with a random option
    /// order, and makes it the session's current serving. `None` when none is left.
    async fn serve_new(&self, session: &Session, k: K, language: Language, source: Source<'_>) -> Result<Option<Serving>, EngineError> {
        let player = &session.player.id;
        // Two requests of one player may race for the same item: the unique
        // (player, item) constraint lets one win, and the other picks again.
        for _ in 0..5 {
            let item = self.choose_item(player, k, language, source).await?;
            let Some(item) = item else { return Ok(None) };
            let row = Arc::new(ServingRow {
                // time-ordered: a new serving's (and its answer's) key goes at the end
                // of the key's index, on the page the last one went to, instead of on
                // a random page that a commit then writes out whole
                id: ServingId::new(uuid::Uuid::now_v7().to_string()),
                player: player.clone(),
                item,
                k,
                target_first: rand::thread_rng().gen_bool(0.5),
                served_at: now_ms(),
            });
            if self.store.write(Write::Serve { serving: row.clone(), session: session.token_hash.clone() }).await? {
                if !matches!(source, Source::Challenge(_)) {
                    self.holds.add_holder(k, language, item);
                }
                let facts = self.item(item).await?;
                self.count_served(player, item, facts.pair);
                self.served.put(row.id.clone(), row.clone());
                return Ok(Some(Serving { row, item: facts }));
            }
            // served meanwhile, by another request or process: read the view again
            self.players.remove(player);
        }
        Err(StoreError::busy().into())
    }

    /// Whether a serving belongs where the next item comes from.
    async fn fits(&self, serving: &Serving, source: Source<'_>) -> Result<bool, EngineError> {
        match source {
            Source::Open | Source::Informed => Ok(true),
            Source::Challenge(id) => Ok(self.store.game().challenge_has_item(id, serving.row.item).await?),
        }
    }

    /// The serving `id` of a game item to `player`, if there is one.
    async fn serving(&self, id: &ServingId, player: &PlayerId) -> Result<Option<Serving>, EngineError> {
        let row = match self.served.get(id) {
            Some(known) => Some(known),
            None => self.store.game().serving_row(id, player).await?.map(Arc::new),
        };
        let Some(row) = row.filter(|r| &r.player == player) else { return Ok(None) };
        let item = self.item(row.item).await?;
        Ok(item.choice.then_some(Serving { row, item }))
    }
}
