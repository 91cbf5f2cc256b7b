//! The main game's reads: a serving, an item's facts, the answer given to a
//! serving, a challenge's next item, what a player was served and who their friends
//! are, how many hold each open item, and a player's history for their progress.
//! The rules that use them are the game engine's (`gapwise-engine`).

use sqlx::Row;
use std::collections::HashSet;

use super::game_writes::ServingRow;
use crate::error::StoreError;
use gapwise_model::{ChallengeId, Context, ItemId, Language, PairId, PlayerId, ServingId, K};

crate::store::area!(
    /// The main game's reads: servings, items' facts, players' answers and scores, the leaderboard.
    Game,
    game
);

/// What an item shows: its contexts, and its pair's words.
#[derive(Debug)]
pub struct ItemFacts {
    /// A game item ("choice"), as opposed to a Likert rating's.
    pub choice: bool,
    /// Its word pair.
    pub pair: PairId,
    pub lang: Language,
    pub target: String,
    pub distractor: String,
    /// In order, split around the blank.
    pub contexts: Vec<Context>,
}

/// An active choice item and how many hold it: its answers, and its servings not
/// yet answered that are younger than the reservation, leaving out those of crowd
/// assignments that were returned or abandoned.
#[derive(Debug)]
pub struct HoldCount {
    pub id: ItemId,
    pub k: K,
    pub lang: Language,
    pub gold: bool,
    /// Who proposed its pair.
    pub creator: Option<PlayerId>,
    pub held: i64,
    pub pair: PairId,
}

/// What the choice of a player's next item needs to know of them.
#[derive(Debug, Default)]
pub struct ServedAndFriends {
    /// Every item served to them, and every item holding a sentence they read
    /// whole in a rating: none of these is served to them.
    pub served: HashSet<ItemId>,
    /// The pairs of their items in the order served, oldest first.
    pub pairs_served: Vec<PairId>,
    /// Their friends' ids.
    pub friends: HashSet<PlayerId>,
}

/// One answer of a player's history, oldest first.
#[derive(Debug)]
pub struct PastAnswer {
    /// Its serving's.
    pub id: ServingId,
    pub k: K,
    pub correct: bool,
    pub created_at: i64,
    pub lang: Language,
}

/// How others played the pairs a player proposed.
#[derive(Debug)]
pub struct PairPlays {
    /// Answers of others to their pairs' items.
    pub played: i64,
    /// Of those, wrong answers with five sentences.
    pub unsolved: i64,
    /// Their pairs in the game.
    pub pairs: i64,
}

/// See [`Game::hold_counts`].
const HOLD_COUNTS: &str = "SELECT i.id, i.k, p.lang, i.gold, p.creator_id, COALESCE(h.n, 0), p.id \
     FROM items i JOIN word_pairs p ON p.id = i.pair_id \
     LEFT JOIN (SELECT s.item_id, COUNT(*) AS n FROM servings s \
                WHERE (s.served_at >= $1 OR EXISTS (SELECT 1 FROM answers a WHERE a.id = s.id)) \
                AND NOT EXISTS (SELECT 1 FROM crowd_assignments c WHERE c.annotator_id = s.annotator_id \
                                AND c.status IN ('returned', 'abandoned')) \
                GROUP BY s.item_id) h ON h.item_id = i.id \
     WHERE i.kind = 'choice' AND p.status = 'active'";

/// A stored k, checked.
pub(crate) fn to_k(raw: i64) -> Result<K, StoreError> {
    u8::try_from(raw).ok().and_then(|k| K::new(k).ok()).ok_or_else(|| StoreError::Corrupt(format!("stored k {raw} is not 1, 3 or 5")))
}

impl Game<'_> {
    /// The serving `id` of an item to `player`, if there is one.
    pub async fn serving_row(self, id: &ServingId, player: &PlayerId) -> Result<Option<ServingRow>, StoreError> {
        let row: Option<(ItemId, i64, i64, i64)> =
            sqlx::query_as("SELECT item_id, k, target_first, served_at FROM servings WHERE id = $1 AND annotator_id = $2")
                .bind(id)
                .bind(player)
                .fetch_optional(self.pool())
                .await?;
        row.map(|(item, k, target_first, served_at)| {
            Ok(ServingRow { id: id.clone(), player: player.clone(), item, k: to_k(k)?, target_first: target_first == 1, served_at })
        })
        .transpose()
    }

    /// An item's facts.
    pub async fn item_facts(self, item: ItemId) -> Result<ItemFacts, StoreError> {
        let row = sqlx::query(
            "SELECT i.kind, p.lang, p.target, p.distractor, p.id FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE i.id = $1",
        )
        .bind(item)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("no item {item}")))?;
        Ok(ItemFacts {
            choice: row.try_get::<String, _>(0)? == "choice",
            lang: row.try_get(1)?,
            target: row.try_get(2)?,
            distractor: row.try_get(3)?,
            pair: row.try_get(4)?,
            contexts: self.contexts(item).await?,
        })
    }

    /// The item's contexts in order, split around the blank.
    pub async fn contexts(self, item: ItemId) -> Result<Vec<Context>, StoreError> {
        sqlx::query(
            "SELECT t.text, c.blank_start, c.blank_end FROM item_contexts c \
             JOIN sentences t ON t.id = c.sentence_id WHERE c.item_id = $1 ORDER BY c.position",
        )
        .bind(item)
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|r| {
            let text: String = r.try_get(0)?;
            let start = usize::try_from(r.try_get::<i64, _>(1)?).ok();
            let end = usize::try_from(r.try_get::<i64, _>(2)?).ok();
            match (start.and_then(|s| text.get(..s)), end.and_then(|e| text.get(e..))) {
                (Some(before), Some(after)) => Ok(Context { before: before.into(), after: after.into() }),
                _ => Err(StoreError::Corrupt(format!("item {item} has a blank outside its sentence"))),
            }
        })
        .collect()
    }

    /// The word chosen for a serving and whether it was right; `None` while unanswered.
    pub async fn answer_given(self, serving: &ServingId) -> Result<Option<(String, bool)>, StoreError> {
        let row = sqlx::query("SELECT chosen, correct FROM answers WHERE id = $1").bind(serving).fetch_optional(self.pool()).await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get::<i64, _>(1)? == 1))).transpose()
    }

    /// Whether `item` is one of `challenge`'s.
    pub async fn challenge_has_item(self, challenge: &ChallengeId, item: ItemId) -> Result<bool, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenge_items WHERE challenge_id = $1 AND item_id = $2")
            .bind(challenge)
            .bind(item)
            .fetch_one(self.pool())
            .await?;
        Ok(n > 0)
    }

    /// `challenge`'s first item in order that `player` was not served.
    pub async fn next_challenge_item(self, challenge: &ChallengeId, player: &PlayerId) -> Result<Option<ItemId>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT c.item_id FROM challenge_items c WHERE c.challenge_id = $1 \
             AND NOT EXISTS (SELECT 1 FROM servings s WHERE s.annotator_id = $2 AND s.item_id = c.item_id) \
             ORDER BY c.position LIMIT 1",
        )
        .bind(challenge)
        .bind(player)
        .fetch_optional(self.pool())
        .await?)
    }

    /// The items `annotator` was served (and their pairs in the order served), and their friends' ids.
    pub async fn served_and_friends(self, player: &PlayerId) -> Result<ServedAndFriends, StoreError> {
        // one query for all
        // (item, its pair, served at, serving id) or a friend; and the items holding a
        // sentence the player read whole in a rating (a Likert item), never to blank for them
        type Row = (Option<ItemId>, Option<PairId>, Option<i64>, Option<String>, Option<PlayerId>);
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT s.item_id, i.pair_id, s.served_at, s.id, NULL FROM servings s JOIN items i ON i.id = s.item_id WHERE s.annotator_id = $1 \
             UNION ALL SELECT NULL, NULL, NULL, NULL, friend_id FROM friends WHERE annotator_id = $1 \
             UNION ALL SELECT o.item_id, NULL, NULL, NULL, NULL FROM servings s JOIN items r ON r.id = s.item_id AND r.kind = 'likert' \
                       JOIN item_contexts c ON c.item_id = r.id JOIN item_contexts o ON o.sentence_id = c.sentence_id AND o.item_id <> r.id \
                       WHERE s.annotator_id = $1",
        )
        .bind(player)
        .fetch_all(self.pool())
        .await?;
        let mut seen = ServedAndFriends::default();
        let mut recent = Vec::new();
        for (item, pair, at, serving, friend) in rows {
            seen.served.extend(item);
            seen.friends.extend(friend);
            if let (Some(pair), Some(at), Some(serving)) = (pair, at, serving) {
                recent.push((at, serving, pair));
            }
        }
        // servings of one millisecond in the order they were made: their ids are
        // version 7 UUIDs, which one process makes in increasing order
        recent.sort_unstable();
        seen.pairs_served = recent.into_iter().map(|(_, _, pair)| pair).collect();
        Ok(seen)
    }

    /// Every answer to the choice items with `k` contexts in `lang`: (annotator,
    /// item, right), for fitting the items' difficulties.
    pub async fn answers_in_game(self, k: K, language: Language) -> Result<Vec<(PlayerId, ItemId, bool)>, StoreError> {
        let rows: Vec<(PlayerId, ItemId, i64)> = sqlx::query_as(
            "SELECT a.annotator_id, a.item_id, a.correct FROM answers a JOIN items i ON i.id = a.item_id \
             JOIN word_pairs p ON p.id = i.pair_id WHERE i.k = $1 AND p.lang = $2 AND i.kind = 'choice'",
        )
        .bind(i64::from(k))
        .bind(language)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(|(who, item, correct)| (who, item, correct == 1)).collect())
    }

    /// The items `annotator` answered, and whether right.
    pub async fn answers_of(self, player: &PlayerId) -> Result<Vec<(ItemId, bool)>, StoreError> {
        let rows: Vec<(ItemId, i64)> =
            sqlx::query_as("SELECT item_id, correct FROM answers WHERE annotator_id = $1").bind(player).fetch_all(self.pool()).await?;
        Ok(rows.into_iter().map(|(item, correct)| (item, correct == 1)).collect())
    }

    /// Every active choice item with its holders, counting unanswered servings made
    /// at `reserved_since` (ms) or later (see [`HoldCount`]).
    pub async fn hold_counts(self, reserved_since: i64) -> Result<Vec<HoldCount>, StoreError> {
        let rows = sqlx::query(HOLD_COUNTS).bind(reserved_since).fetch_all(self.pool()).await?;
        rows.iter()
            .map(|r| {
                Ok(HoldCount {
                    id: r.try_get(0)?,
                    k: to_k(r.try_get(1)?)?,
                    lang: r.try_get(2)?,
                    gold: r.try_get::<i64, _>(3)? == 1,
                    creator: r.try_get(4)?,
                    held: r.try_get(5)?,
                    pair: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// The answers of `annotator_id` stored at `since` (ms) or later, oldest first
    /// (`i64::MIN` for all).
    pub async fn answers_since(self, player: &PlayerId, since: i64) -> Result<Vec<PastAnswer>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.id, a.k, a.correct, a.created_at, p.lang FROM answers a JOIN items i ON i.id = a.item_id \
             JOIN word_pairs p ON p.id = i.pair_id WHERE a.annotator_id = $1 AND a.created_at >= $2 ORDER BY a.created_at, a.id",
        )
        .bind(player)
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        let answers = rows
            .iter()
            .map(|r| {
                Ok(PastAnswer {
                    id: r.try_get(0)?,
                    k: to_k(r.try_get(1)?)?,
                    correct: r.try_get::<i64, _>(2)? == 1,
                    created_at: r.try_get(3)?,
                    lang: r.try_get(4)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(answers)
    }

    /// How many answers `annotator_id` gave (the count kept on their row) and how
    /// many pairs they proposed, in one query.
    pub async fn player_counts(self, player: &PlayerId) -> Result<(i64, i64), StoreError> {
        let counts: Option<(i64, i64)> =
            sqlx::query_as("SELECT answered, (SELECT COUNT(*) FROM word_pairs WHERE creator_id = $1) FROM annotators WHERE id = $1")
                .bind(player)
                .fetch_optional(self.pool())
                .await?;
        Ok(counts.unwrap_or((0, 0)))
    }

    /// How others played the pairs `annotator_id` proposed.
    /// `pairs` is how many they proposed ([`Game::player_counts`]): with none,
    /// nothing is read.
    pub async fn pair_plays(self, player: &PlayerId, pairs: i64) -> Result<PairPlays, StoreError> {
        if pairs == 0 {
            return Ok(PairPlays { played: 0, unsolved: 0, pairs });
        }
        let row = sqlx::query(
            "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN a.correct = 0 AND a.k = 5 THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM answers a JOIN items i ON i.id = a.item_id JOIN word_pairs p ON p.id = i.pair_id \
             WHERE p.creator_id = $1 AND a.annotator_id <> $1",
        )
        .bind(player)
        .fetch_one(self.pool())
        .await?;
        Ok(PairPlays { played: row.try_get(0)?, unsolved: row.try_get(1)?, pairs })
    }

    /// Answers given and answers right, over all of the annotator's play.
    pub async fn score(self, player: &PlayerId) -> Result<gapwise_model::Score, StoreError> {
        let row = sqlx::query("SELECT answered, answered_right FROM annotators WHERE id = $1").bind(player).fetch_one(self.pool()).await?;
        Ok(gapwise_model::Score { answered: row.try_get(0)?, correct: row.try_get(1)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored value the code cannot read is the database's fault (a server error),
    /// not a bad request.
    #[test]
    fn a_stored_k_out_of_range_is_corrupt_data() {
        assert!(matches!(to_k(3), Ok(k) if k == K::THREE));
        assert!(matches!(to_k(7), Err(StoreError::Corrupt(_))));
    }
}
