//! What admins see and change besides moderation: table sizes, item building, the
//! word pairs (retire, activate, export), each change audited.

use sqlx::Row;

use super::audit::record;
use crate::error::StoreError;
use crate::items::ITEMS_PER_K;
use gapwise_model::{
    AdminOverview, CorpusPart, ItemId, ItemRow, Language, PairId, PairItems, PairRow, FAST_ANSWER_FLOOR_MS, MAX_PAIR_PAGE, PAIRS_PER_PAGE,
};

crate::store::area!(
    /// What admins see and set: the overview, pairs and their items, answers per item, gold items, flagged players.
    Admin,
    admin
);

/// Tables whose sizes the admin page shows.
const COUNTED: [&str; 7] = ["sentences", "word_pairs", "items", "annotators", "answers", "rate_ratings", "pair_suggestions"];
/// Audit entries (and feedback messages) the admin page shows.
const AUDIT_SHOWN: i64 = 50;

impl Admin<'_> {
    /// Table sizes, the suggestions queue and the latest audit entries.
    pub async fn overview(self) -> Result<AdminOverview, StoreError> {
        let mut counts = Vec::with_capacity(COUNTED.len());
        for table in COUNTED {
            counts.push((table.to_owned(), self.count_rows(table).await?));
        }
        Ok(AdminOverview {
            counts,
            corpora: self.corpus_parts().await?,
            pending: self.suggestions().queue().await?,
            audit: self.staff().audit_log(AUDIT_SHOWN).await?,
            feedback: self.rights().latest_feedback(AUDIT_SHOWN).await?,
            too_fast: self.too_fast_answers().await?,
            flagged: self.flagged_players().await?,
            answers_per_item: self.answers_per_item().await?,
            gold_items: sqlx::query_scalar("SELECT COUNT(*) FROM items WHERE gold = 1").fetch_one(self.pool()).await?,
            studies: self.crowd().studies().await?,
        })
    }

    /// Answers under [`FAST_ANSWER_FLOOR_MS`], and how many players gave them.
    async fn too_fast_answers(self) -> Result<(i64, i64), StoreError> {
        let r = sqlx::query("SELECT COUNT(*), COUNT(DISTINCT annotator_id) FROM answers WHERE COALESCE(client_ms, server_ms) < $1")
            .bind(FAST_ANSWER_FLOOR_MS)
            .fetch_one(self.pool())
            .await?;
        Ok((r.try_get(0)?, r.try_get(1)?))
    }

    /// Sentences per language, source and genre.
    async fn corpus_parts(self) -> Result<Vec<CorpusPart>, StoreError> {
        let rows =
            sqlx::query("SELECT lang, source, genre, COUNT(*) FROM sentences GROUP BY lang, source, genre ORDER BY lang, source, genre")
                .fetch_all(self.pool())
                .await?;
        rows.iter()
            .map(|r| Ok(CorpusPart { language: r.try_get(0)?, source: r.try_get(1)?, genre: r.try_get(2)?, sentences: r.try_get(3)? }))
            .collect()
    }

    /// `pair` with every item built for it (contexts, k, kind) and what they
    /// collected; `None` for an unknown pair.
    pub async fn pair_items(self, pair: PairId) -> Result<Option<PairItems>, StoreError> {
        let pair_id = pair;
        let Some(pair) =
            sqlx::query("SELECT lang, target, distractor FROM word_pairs WHERE id = $1").bind(pair_id).fetch_optional(self.pool()).await?
        else {
            return Ok(None);
        };
        let rows = sqlx::query(
            "SELECT i.id, i.k, i.kind, \
                    (SELECT COUNT(*) FROM answers a WHERE a.item_id = i.id) + (SELECT COUNT(*) FROM rate_ratings l WHERE l.item_id = i.id), \
                    (SELECT CAST(COALESCE(SUM(a.correct), 0) AS BIGINT) FROM answers a WHERE a.item_id = i.id), i.gold \
             FROM items i WHERE i.pair_id = $1 ORDER BY i.kind, i.k, i.id",
        )
        .bind(pair_id)
        .fetch_all(self.pool())
        .await?;
        let mut items = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: ItemId = r.try_get(0)?;
            items.push(ItemRow {
                id,
                k: super::game::to_k(r.try_get(1)?)?,
                kind: r.try_get(2)?,
                contexts: self.game().contexts(id).await?,
                answers: r.try_get(3)?,
                correct: r.try_get(4)?,
                gold: r.try_get::<i64, _>(5)? == 1,
            });
        }
        Ok(Some(PairItems { language: pair.try_get(0)?, target: pair.try_get(1)?, distractor: pair.try_get(2)?, items }))
    }

    /// Builds [`ITEMS_PER_K`] items per k for every active pair without any (see
    /// [`Material::build_items`]) and records who did it.
    pub async fn build_items_as(self, staff: &str) -> Result<crate::items::BuildReport, StoreError> {
        let report = self.material().build_items(ITEMS_PER_K).await?;
        let detail = format!(
            "{} items for {} pairs ({} pairs without a fitting sentence)",
            report.items, report.pairs, report.pairs_without_contexts
        );
        self.staff().audit(staff, "build items", &detail).await?;
        Ok(report)
    }
}

impl Admin<'_> {
    /// One page of the word pairs of a language, newest first, with how much they
    /// have been played; `page` counts from 0 to [`MAX_PAIR_PAGE`].
    pub async fn pair_rows(self, language: Language, page: i64) -> Result<Vec<PairRow>, StoreError> {
        if !(0..=MAX_PAIR_PAGE).contains(&page) {
            return Err(StoreError::Invalid(format!("a page of pairs is 0 to {MAX_PAIR_PAGE}, not {page}")));
        }
        let rows = sqlx::query(
            "SELECT p.id, p.target, p.distractor, p.strategy, p.status, \
                    (SELECT COUNT(*) FROM items i WHERE i.pair_id = p.id), \
                    (SELECT COUNT(*) FROM answers a JOIN items i ON i.id = a.item_id WHERE i.pair_id = p.id), \
                    (SELECT CAST(COALESCE(SUM(a.correct), 0) AS BIGINT) FROM answers a JOIN items i ON i.id = a.item_id WHERE i.pair_id = p.id) \
             FROM word_pairs p WHERE p.lang = $1 ORDER BY p.id DESC LIMIT $2 OFFSET $3",
        )
        .bind(language)
        .bind(i64::from(PAIRS_PER_PAGE))
        .bind(page * i64::from(PAIRS_PER_PAGE))
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PairRow {
                    id: r.try_get(0)?,
                    target: r.try_get(1)?,
                    distractor: r.try_get(2)?,
                    strategy: r.try_get(3)?,
                    active: r.try_get::<String, _>(4)? == "active",
                    items: r.try_get(5)?,
                    answers: r.try_get(6)?,
                    correct: r.try_get(7)?,
                })
            })
            .collect()
    }

    /// Retires a pair (its items are no longer served) or makes it active again.
    pub async fn set_pair_active(self, staff: &str, pair_id: PairId, active: bool) -> Result<(), StoreError> {
        let status = if active { "active" } else { "retired" };
        let mut tx = self.pool().begin().await?;
        let row = sqlx::query("UPDATE word_pairs SET status = $1 WHERE id = $2 RETURNING lang, target, distractor")
            .bind(status)
            .bind(pair_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("no pair {pair_id}")))?;
        let (lang, target, distractor): (String, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        record(
            &mut tx,
            staff,
            if active { "activate pair" } else { "retire pair" },
            &format!("pair {pair_id} {target} / {distractor} ({lang})"),
        )
        .await?;
        tx.commit().await?;
        self.changes.pool_changed();
        Ok(())
    }

    /// Every pair of a language (all languages when `None`) as an import file: TSV
    /// with the columns `import pairs` reads, so pairs move between databases.
    pub async fn export_pairs(self, language: Option<Language>) -> Result<String, StoreError> {
        let rows = sqlx::query("SELECT lang, target, distractor, strategy FROM word_pairs WHERE ($1 = '' OR lang = $1) ORDER BY lang, id")
            .bind(language.map_or("", Language::code))
            .fetch_all(self.pool())
            .await?;
        let mut tsv = String::from("lang\ttarget\tdistractor\tstrategy\n");
        for r in rows {
            let fields: [String; 4] = [r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?];
            tsv.push_str(&fields.join("\t"));
            tsv.push('\n');
        }
        Ok(tsv)
    }
}
