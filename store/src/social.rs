//! Friends and challenges (see `model::social`). A player adds a friend by
//! pseudonym; the friend's proposed pairs then come first in their game. A challenge
//! is ten items neither of the two has been served (fewer when fewer are left), which both then play.

use sqlx::Row;

use crate::error::StoreError;
use crate::sql::now_ms;
use gapwise_model::{Challenge, ChallengeId, ChallengeSide, Friend, ItemId, Language, PlayerId, CHALLENGE_ITEMS, K, MIN_CHALLENGE_ITEMS};
use gapwise_model::{Refusal, RefusalKey};

crate::store::area!(
    /// Friends and challenges.
    Social,
    social
);

/// Most friends a player can have, and challenges a page lists.
const MAX_FRIENDS: i64 = 100;

/// Whether each side of a challenge got one of its items right (none: not answered yet).
type BothResults = (Option<bool>, Option<bool>);

impl Social<'_> {
    /// Adds the player with `pseudonym` as a friend of annotator `me`.
    pub async fn add_friend(self, me: &PlayerId, pseudonym: &str) -> Result<(), StoreError> {
        let friend = self.player_by_pseudonym(pseudonym).await?;
        if &friend == me {
            return Err(StoreError::Refused(Refusal::new(RefusalKey::OwnPseudonym, "that is your own pseudonym")));
        }
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM friends WHERE annotator_id = $1").bind(me).fetch_one(self.pool()).await?;
        if count >= MAX_FRIENDS {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::MaxFriends, format!("you can have up to {MAX_FRIENDS} friends")).arg("max", MAX_FRIENDS),
            ));
        }
        sqlx::query("INSERT INTO friends (annotator_id, friend_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(me)
            .bind(&friend)
            .bind(now_ms())
            .execute(self.pool())
            .await?;
        // their pairs come first from the next item on
        self.changes.friends_changed();
        Ok(())
    }

    /// Takes `pseudonym` off the friends of `me`.
    pub async fn remove_friend(self, me: &PlayerId, pseudonym: &str) -> Result<(), StoreError> {
        let friend = self.player_by_pseudonym(pseudonym).await?;
        sqlx::query("DELETE FROM friends WHERE annotator_id = $1 AND friend_id = $2").bind(me).bind(friend).execute(self.pool()).await?;
        self.changes.friends_changed();
        Ok(())
    }

    /// The friends of `me`, by pseudonym, with how they play.
    pub async fn friends(self, me: &PlayerId) -> Result<Vec<Friend>, StoreError> {
        let rows = sqlx::query(
            "SELECT n.pseudonym, (SELECT COUNT(*) FROM answers a WHERE a.annotator_id = n.id), \
                    (SELECT CAST(COALESCE(SUM(a.correct), 0) AS BIGINT) FROM answers a WHERE a.annotator_id = n.id), \
                    (SELECT COUNT(*) FROM word_pairs p WHERE p.creator_id = n.id AND p.status = 'active') \
             FROM friends f JOIN annotators n ON n.id = f.friend_id WHERE f.annotator_id = $1 ORDER BY n.pseudonym",
        )
        .bind(me)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok(Friend { pseudonym: r.try_get(0)?, answered: r.try_get(1)?, correct: r.try_get(2)?, pairs_in_game: r.try_get(3)? }))
            .collect()
    }

    /// Challenges the friend `pseudonym` to [`CHALLENGE_ITEMS`] items with `k`
    /// contexts in `lang` that neither has been served (fewer when fewer are left, at
    /// least [`MIN_CHALLENGE_ITEMS`]); returns the challenge id.
    pub async fn create_challenge(self, me: &PlayerId, pseudonym: &str, k: K, language: Language) -> Result<ChallengeId, StoreError> {
        let friend = self.player_by_pseudonym(pseudonym).await?;
        let is_friend: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM friends WHERE annotator_id = $1 AND friend_id = $2")
            .bind(me)
            .bind(&friend)
            .fetch_one(self.pool())
            .await?;
        if is_friend == 0 {
            return Err(StoreError::Refused(
                Refusal::new(RefusalKey::NotFriend, format!("add {pseudonym} as a friend first")).arg("name", pseudonym),
            ));
        }
        let items: Vec<ItemId> = sqlx::query_scalar(
            "SELECT i.id FROM items i JOIN word_pairs p ON p.id = i.pair_id AND i.kind = 'choice' \
             WHERE i.k = $1 AND p.lang = $2 AND p.status = 'active' \
             AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.item_id = i.id AND s.annotator_id IN ($3, $4)) \
             ORDER BY RANDOM() LIMIT $5",
        )
        .bind(i64::from(k))
        .bind(language)
        .bind(me)
        .bind(&friend)
        .bind(i64::try_from(CHALLENGE_ITEMS).unwrap_or(10))
        .fetch_all(self.pool())
        .await?;
        if items.len() < MIN_CHALLENGE_ITEMS {
            return Err(StoreError::Refused(
                Refusal::new(
                    RefusalKey::FewChallengeItems,
                    format!(
                        "fewer than {MIN_CHALLENGE_ITEMS} items with {k} sentences are new to you both; try another number of sentences"
                    ),
                )
                .arg("min", MIN_CHALLENGE_ITEMS)
                .arg("k", k),
            ));
        }
        let id = ChallengeId::new(uuid::Uuid::new_v4().to_string());
        let mut tx = self.pool().begin().await?;
        sqlx::query("INSERT INTO challenges (id, creator_id, opponent_id, k, lang, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(&id)
            .bind(me)
            .bind(&friend)
            .bind(i64::from(k))
            .bind(language)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        for (position, item) in items.iter().enumerate() {
            sqlx::query("INSERT INTO challenge_items (challenge_id, position, item_id) VALUES ($1, $2, $3)")
                .bind(&id)
                .bind(i64::try_from(position).unwrap_or(0))
                .bind(item)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// The challenges `me` made or was given, newest first, each compared item by item.
    pub async fn challenges(self, me: &PlayerId) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.id, c.creator_id, c.opponent_id, c.k, c.lang, n.pseudonym FROM challenges c \
             JOIN annotators n ON n.id = CASE WHEN c.creator_id = $1 THEN c.opponent_id ELSE c.creator_id END \
             WHERE c.creator_id = $1 OR c.opponent_id = $1 ORDER BY c.created_at DESC LIMIT $2",
        )
        .bind(me)
        .bind(MAX_FRIENDS)
        .fetch_all(self.pool())
        .await?;
        let mut challenges = Vec::with_capacity(rows.len());
        for r in rows {
            let (id, creator, opponent): (ChallengeId, PlayerId, PlayerId) = (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
            let them_id = if &creator == me { &opponent } else { &creator };
            let results = self.challenge_results(&id, me, them_id).await?;
            let side = |pick: fn(&BothResults) -> Option<bool>| ChallengeSide {
                answered: results.iter().filter_map(pick).count() as i64,
                correct: results.iter().filter_map(pick).filter(|&right| right).count() as i64,
            };
            let (me_side, them_side) = (side(|r| r.0), side(|r| r.1));
            challenges.push(Challenge {
                friend: r.try_get(5)?,
                mine: &creator == me,
                k: super::game::to_k(r.try_get(3)?)?,
                language: r.try_get(4)?,
                items: results.len() as i64,
                me: me_side,
                them: them_side,
                results: results.iter().map(|&(mine, theirs)| (mine, mine.and(theirs))).collect(),
                id,
            });
        }
        Ok(challenges)
    }

    /// The k and language of challenge `id`, which `player` must be part of.
    pub async fn challenge_game(self, id: &ChallengeId, player: &PlayerId) -> Result<(K, Language), StoreError> {
        let row = sqlx::query("SELECT k, lang FROM challenges WHERE id = $1 AND (creator_id = $2 OR opponent_id = $2)")
            .bind(id)
            .bind(player)
            .fetch_optional(self.pool())
            .await?
            .ok_or_else(|| StoreError::Missing(Refusal::new(RefusalKey::NoChallenge, "no such challenge of yours")))?;
        Ok((super::game::to_k(row.try_get(0)?)?, row.try_get(1)?))
    }

    /// Item by item, whether `me` and `them` got it right (`None`: not answered yet).
    async fn challenge_results(self, id: &ChallengeId, me: &PlayerId, them: &PlayerId) -> Result<Vec<BothResults>, StoreError> {
        let rows = sqlx::query(
            "SELECT (SELECT a.correct FROM answers a WHERE a.item_id = c.item_id AND a.annotator_id = $2), \
                    (SELECT a.correct FROM answers a WHERE a.item_id = c.item_id AND a.annotator_id = $3) \
             FROM challenge_items c WHERE c.challenge_id = $1 ORDER BY c.position",
        )
        .bind(id)
        .bind(me)
        .bind(them)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<Option<i64>, _>(0)?.map(|c| c == 1), r.try_get::<Option<i64>, _>(1)?.map(|c| c == 1))))
            .collect()
    }

    /// The annotator id of a pseudonym, in any case (`annotators_pseudonym_lower`
    /// indexes it so).
    async fn player_by_pseudonym(self, pseudonym: &str) -> Result<PlayerId, StoreError> {
        sqlx::query_scalar("SELECT id FROM annotators WHERE LOWER(pseudonym) = $1")
            .bind(pseudonym.trim().to_lowercase())
            .fetch_optional(self.pool())
            .await?
            .ok_or_else(|| {
                StoreError::Missing(
                    Refusal::new(RefusalKey::NoPlayer, format!("no player is called {:?}", pseudonym.trim())).arg("name", pseudonym.trim()),
                )
            })
    }
}
