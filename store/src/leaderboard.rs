//! The public leaderboard: players by pseudonym, and the scored models as players
//! too, so that people see whether they beat them.

use sqlx::Row;

use crate::error::StoreError;
use crate::game::Game;
use crate::sql::now_ms;
use gapwise_model::{Contender, Period, Standing};

/// Fewest answers a player needs to stand on the leaderboard (a rate over a handful
/// of answers says little).
pub const MIN_ANSWERS_TO_RANK: i64 = 10;
/// How many players are shown.
const PLAYERS_SHOWN: i64 = 20;

impl Game<'_> {
    /// The best players (by success rate, then by answers) and every scored model,
    /// best first, over the answers of `period`. A model "answers" each choice item
    /// that people answered in the period and that it has scored; it is right when
    /// its Eq. 2 score is above zero.
    pub async fn leaderboard(self, period: Period) -> Result<Vec<Standing>, StoreError> {
        let since = period.start_ms(now_ms());
        let players = sqlx::query(
            "SELECT n.pseudonym, COUNT(*), CAST(SUM(a.correct) AS BIGINT) FROM answers a JOIN annotators n ON n.id = a.annotator_id \
             WHERE a.created_at >= $3 GROUP BY n.id, n.pseudonym HAVING COUNT(*) >= $1 \
             ORDER BY CAST(SUM(a.correct) AS DOUBLE PRECISION) / COUNT(*) DESC, COUNT(*) DESC, n.pseudonym LIMIT $2",
        )
        .bind(MIN_ANSWERS_TO_RANK)
        .bind(PLAYERS_SHOWN)
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        let models = sqlx::query(
            "SELECT s.model_id, COUNT(*), CAST(SUM(CASE WHEN s.score > 0 THEN 1 ELSE 0 END) AS BIGINT) \
             FROM item_scores s JOIN items i ON i.id = s.item_id AND i.kind = 'choice' \
             WHERE EXISTS (SELECT 1 FROM answers a WHERE a.item_id = s.item_id AND a.created_at >= $1) GROUP BY s.model_id",
        )
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        let mut standings = Vec::with_capacity(players.len() + models.len());
        for (rows, contender) in [(players, Contender::Player as fn(String) -> Contender), (models, Contender::Model)] {
            for r in rows {
                standings.push(Standing { who: contender(r.try_get(0)?), answered: r.try_get(1)?, correct: r.try_get(2)? });
            }
        }
        standings.sort_by(|a, b| b.rate().total_cmp(&a.rate()).then(b.answered.cmp(&a.answered)));
        Ok(standings)
    }
}
