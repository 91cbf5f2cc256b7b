//! The anonymised export: one row per answer, with what a researcher needs to redo
//! the paper's analyses and nothing that identifies a person. People appear only as
//! export IDs (random, stable across exports, unrelated to database ids and to the
//! public pseudonyms); no names, e-mails, IP addresses, creation times or locations.
//!
//! Rows are read from the database as a stream and handed to a sink one at a time, so
//! memory does not grow with the number of answers (item contexts and model scores
//! are looked up in maps whose size grows with the number of items).

use std::collections::HashMap;

use futures_util::TryStreamExt;
use sqlx::Row;

use super::filter::filter_sql;
use super::secrets::keyed_code;
use crate::error::StoreError;
use gapwise_model::{AnswerFilter, Input, ItemId, Trial};

crate::store::area!(
    /// What researchers take away: the export and every mode's responses.
    Research,
    research
);

/// Length of an export ID: 12 letters, ~68 bits.
const EXPORT_ID_LEN: usize = 12;

/// One context of an exported item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportContext {
    /// The sentence with its target occurrence replaced by [`BLANK`].
    pub text: String,
    pub source: String,
    pub genre: String,
}

/// How the blank is written in exported contexts.
pub const BLANK: &str = "___";

/// One answer, as exported.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRow {
    pub item_id: ItemId,
    pub language: String,
    pub k: i64,
    pub target: String,
    pub distractor: String,
    pub strategy: String,
    /// Export ID of the person who proposed the pair, if any.
    pub creator: Option<String>,
    pub annotator: String,
    pub chosen: String,
    pub correct: bool,
    /// Time measured in the browser, when it sent one (milliseconds).
    pub client_ms: Option<i64>,
    /// The browser's time when it could not be true (zero, negative, over an hour).
    pub client_ms_reported: Option<i64>,
    /// Time from serving to answer, measured by the server (milliseconds).
    pub server_ms: i64,
    /// What the browser saw of the trial (input, hidden page, clock, frame).
    pub trial: Trial,
    /// The two words in the order they were shown, `first|second`.
    pub option_order: String,
    /// Whether the item is gold (its answer verified by an admin).
    pub gold: bool,
    /// The answering player's quality flags (`model::FlaggedPlayer::reasons`), `;`-joined.
    pub player_flags: Option<String>,
    pub contexts: Vec<ExportContext>,
    /// Eq. 2 score of the item for each model asked for, in that order.
    pub model_scores: Vec<Option<f64>>,
}

/// The Eq. 2 scores of some models, by item.
pub(super) struct ModelScores {
    by_item: HashMap<ItemId, Vec<Option<f64>>>,
    models: usize,
}

impl ModelScores {
    /// The item's score for each model, in the order the models were asked for.
    pub(super) fn of(&self, item_id: ItemId) -> Vec<Option<f64>> {
        self.by_item.get(&item_id).cloned().unwrap_or_else(|| vec![None; self.models])
    }
}

/// Players' export ids (see [`Research::export_ids`]).
struct ExportIds {
    key: Vec<u8>,
    stored: HashMap<String, String>,
}

impl ExportIds {
    fn of(&self, annotator: &str) -> String {
        self.stored.get(annotator).cloned().unwrap_or_else(|| keyed_code(&self.key, annotator, EXPORT_ID_LEN))
    }
}

impl Research<'_> {
    /// How players are named in exports: the id an earlier export stored for them,
    /// else the keyed hash of their id under the database's export key (see the
    /// migration `export_key`). Reading it writes nothing.
    async fn export_ids(self) -> Result<ExportIds, StoreError> {
        let key: String = sqlx::query_scalar("SELECT key FROM export_key").fetch_one(self.pool()).await?;
        let stored: Vec<(String, String)> =
            sqlx::query_as("SELECT annotator_id, export_id FROM export_pseudonyms").fetch_all(self.pool()).await?;
        Ok(ExportIds { key: key.into_bytes(), stored: stored.into_iter().collect() })
    }

    /// A name of this database that the tasks written from it carry: the keyed hash of
    /// a fixed word under its export key (the same every time, and nothing to link it to).
    pub async fn fingerprint(self) -> Result<String, StoreError> {
        let key: String = sqlx::query_scalar("SELECT key FROM export_key").fetch_one(self.pool()).await?;
        Ok(keyed_code(key.as_bytes(), "the database", 16))
    }

    /// The ids of the models that have item scores.
    pub async fn scored_models(self) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT DISTINCT model_id FROM item_scores ORDER BY model_id").fetch_all(self.pool()).await?)
    }

    /// The models asked for, or, when none were named, every model with scores.
    pub async fn models_or_all(self, requested: Option<Vec<String>>) -> Result<Vec<String>, StoreError> {
        match requested {
            Some(models) => Ok(models),
            None => self.scored_models().await,
        }
    }

    /// Streams the answers `filter` selects, in item order, to `sink`, with the Eq. 2
    /// scores of `models`; returns how many rows went out. A model without scores is
    /// an error.
    pub async fn export_answers<E: From<StoreError>>(
        self,
        models: &[String],
        filter: &AnswerFilter,
        mut sink: impl FnMut(ExportRow) -> Result<(), E>,
    ) -> Result<u64, E> {
        let known = self.scored_models().await?;
        if let Some(unknown) = models.iter().find(|m| !known.contains(m)) {
            let scored = if known.is_empty() {
                "no model has scores yet: `gapwise score` makes them".to_owned()
            } else {
                format!("scored: {}", known.join(", "))
            };
            return Err(StoreError::NotFound(format!("no scores for model {unknown:?} ({scored})")).into());
        }
        let ids = self.export_ids().await?;
        let contexts = self.item_contexts().await?;
        let scores = self.model_scores(models).await?;
        let flags = self.admin().player_flags().await?;
        let filter = filter_sql(filter)?;
        let sql = format!(
            "SELECT a.item_id, p.lang, a.k, p.target, p.distractor, p.strategy, p.creator_id, a.annotator_id, \
                    a.chosen, a.correct, a.client_ms, a.server_ms, a.option_order, i.gold, a.annotator_id, a.client_ms_reported, \
                    a.input_device, a.hidden_changes, a.clock_us, a.frame_us \
             FROM answers a JOIN items i ON i.id = a.item_id JOIN word_pairs p ON p.id = i.pair_id \
             {} ORDER BY a.item_id, a.annotator_id",
            filter.clause
        );
        let mut rows = filter.bind(sqlx::query(&sql)).fetch(self.pool());
        let row_of = |r: &sqlx::any::AnyRow| -> Result<ExportRow, StoreError> {
            let item_id: ItemId = r.try_get(0)?;
            let annotator: String = r.try_get(7)?;
            Ok(ExportRow {
                item_id,
                language: r.try_get(1)?,
                k: r.try_get(2)?,
                target: r.try_get(3)?,
                distractor: r.try_get(4)?,
                strategy: r.try_get(5)?,
                creator: r.try_get::<Option<String>, _>(6)?.map(|c| ids.of(&c)),
                annotator: ids.of(&annotator),
                chosen: r.try_get(8)?,
                correct: r.try_get::<i64, _>(9)? != 0,
                client_ms: r.try_get(10)?,
                client_ms_reported: r.try_get(15)?,
                server_ms: r.try_get(11)?,
                trial: trial_of(r, 16)?,
                option_order: r.try_get(12)?,
                gold: r.try_get::<i64, _>(13)? == 1,
                player_flags: flags.get(&annotator).map(|f| f.reasons.join(";")),
                contexts: contexts.get(&item_id).cloned().unwrap_or_default(),
                model_scores: scores.of(item_id),
            })
        };
        let mut n = 0;
        while let Some(r) = rows.try_next().await.map_err(StoreError::from)? {
            sink(row_of(&r)?)?;
            n += 1;
        }
        Ok(n)
    }

    /// Every item's contexts in order, blank marked.
    async fn item_contexts(self) -> Result<HashMap<ItemId, Vec<ExportContext>>, StoreError> {
        let mut map: HashMap<ItemId, Vec<ExportContext>> = HashMap::new();
        let mut rows = sqlx::query(
            "SELECT c.item_id, s.text, c.blank_start, c.blank_end, s.source, s.genre \
             FROM item_contexts c JOIN sentences s ON s.id = c.sentence_id ORDER BY c.item_id, c.position",
        )
        .fetch(self.pool());
        while let Some(r) = rows.try_next().await? {
            let item_id: ItemId = r.try_get(0)?;
            let text: String = r.try_get(1)?;
            let (start, end): (i64, i64) = (r.try_get(2)?, r.try_get(3)?);
            let blanked = usize::try_from(start)
                .ok()
                .zip(usize::try_from(end).ok())
                .and_then(|(s, e)| Some(format!("{}{BLANK}{}", text.get(..s)?, text.get(e..)?)))
                .ok_or_else(|| StoreError::Corrupt(format!("bad blank offsets in item {item_id}")))?;
            map.entry(item_id).or_default().push(ExportContext { text: blanked, source: r.try_get(4)?, genre: r.try_get(5)? });
        }
        Ok(map)
    }

    /// The Eq. 2 scores of `models` for every item, one query per model.
    pub(crate) async fn model_scores(self, models: &[String]) -> Result<ModelScores, StoreError> {
        let mut by_item: HashMap<ItemId, Vec<Option<f64>>> = HashMap::new();
        for (m, model) in models.iter().enumerate() {
            let mut rows = sqlx::query("SELECT item_id, score FROM item_scores WHERE model_id = $1").bind(model).fetch(self.pool());
            while let Some(r) = rows.try_next().await? {
                if let Some(cell) = by_item.entry(r.try_get(0)?).or_insert_with(|| vec![None; models.len()]).get_mut(m) {
                    *cell = Some(r.try_get(1)?);
                }
            }
        }
        Ok(ModelScores { by_item, models: models.len() })
    }
}

/// The trial stored in the four columns from `first` on (input_device,
/// hidden_changes, clock_us, frame_us).
pub(super) fn trial_of(row: &sqlx::any::AnyRow, first: usize) -> Result<Trial, StoreError> {
    let count = |i: usize| -> Result<Option<u32>, StoreError> {
        let stored: Option<i64> = row.try_get(first + i)?;
        stored.map(|n| u32::try_from(n).map_err(|_| StoreError::Corrupt(format!("a stored trial count is out of range: {n}")))).transpose()
    };
    let input: Option<String> = row.try_get(first)?;
    Ok(Trial { input: input.as_deref().and_then(Input::parse), hidden: count(1)?, clock_us: count(2)?, frame_us: count(3)? })
}
