//! The invented-word game (WinoDict, 003_e0d4aede4cc7e323.txt): its items and the
//! words each is played with, the rounds served to people and their answers, and
//! the judgements of models.
//!
//! The sentences and definition sentences are stored as played (the server renders
//! them once, at import, with the scorer's templates), so people and models read
//! exactly the same text. A player meets an item once, in one condition (word and
//! whether its definition is shown): the conditions take turns per player (see
//! [`gapwise_model::WINO_CONDITIONS`]), starting from one drawn from their id, so each condition
//! gets items of every kind and no condition always comes first. Items a model has
//! judged are served first, so that people and models meet on the same items.

use std::collections::{BTreeMap, HashSet};

use sqlx::Row;

use super::StoreError;
use crate::sql::{bind_measure, insert_rows, now_ms, stored_code, MEASURE_COLUMNS};
use gapwise_model::{NewWordsCard, NewWordsPick, PlayedWord, Timing, Trial};

crate::store::area!(
    /// The invented-word game's rows: items, rounds, answers and model judgements.
    NewWords,
    new_words
);

/// An item with the words it is played with, to import or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewWordsItemRecord {
    pub id: String,
    pub options: [String; 2],
    pub answer: usize,
    /// `noun`, `verb`, `adj` or `adv`.
    pub pos: String,
    /// WordNet's gloss of the key word.
    pub definition: String,
    pub source: String,
    pub variants: BTreeMap<PlayedWord, NewWordsVariant>,
}

/// An item played with one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsVariant {
    pub lemma: String,
    /// The sentence with `_` for the blank.
    pub sentence: String,
    /// The sentence that defines the word.
    pub taught: String,
}

/// How a model was asked: the word, where the definition went (`empty`, `suffix`,
/// `prefix`) and how many solved items came first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NewWordsSetup {
    pub word: PlayedWord,
    pub teaching: String,
    pub shots: u32,
}

/// A model's judgement of an item, to store or as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewWordsJudgement {
    pub model: String,
    pub item_id: String,
    pub setup: NewWordsSetup,
    pub log_likelihoods: [f64; 2],
    pub choice: usize,
    /// Whether the choice is the item's answer (read back; ignored when storing).
    pub correct: bool,
}

/// A round as an answer to it needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsServing {
    /// The right option: 0 or 1.
    pub answer: usize,
    pub options: [String; 2],
    pub served_at: i64,
    /// (the option chosen, whether right), once answered.
    pub answered: Option<(usize, bool)>,
}

/// A person's answer, without who gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWordsAnswer {
    pub item_id: String,
    pub word: PlayedWord,
    pub with_definition: bool,
    pub correct: bool,
}

/// The setup stored in the three columns from `first` on (word, teaching, shots).
fn setup_of(row: &sqlx::any::AnyRow, first: usize) -> Result<NewWordsSetup, StoreError> {
    Ok(NewWordsSetup {
        word: stored_code(row, first, "WinoDict word", PlayedWord::parse)?,
        teaching: row.try_get(first + 1)?,
        shots: u32::try_from(row.try_get::<i64, _>(first + 2)?).unwrap_or(0),
    })
}

fn option_index(value: i64) -> Result<usize, StoreError> {
    usize::try_from(value).ok().filter(|&i| i < 2).ok_or_else(|| StoreError::Invalid(format!("a stored WinoDict option is {value}")))
}

impl NewWords<'_> {
    /// Imports items with their variants in one transaction; items present already
    /// (same id) are kept as they are. Returns how many items were new.
    pub async fn import(self, items: &[NewWordsItemRecord]) -> Result<u64, StoreError> {
        let mut tx = self.pool().begin().await?;
        let new = insert_rows(
            &mut tx,
            "INSERT INTO new_words_items (id, option_a, option_b, answer, pos, definition, source) VALUES {} ON CONFLICT (id) DO NOTHING",
            7,
            items,
            |q, i| {
                q.bind(i.id.clone())
                    .bind(i.options[0].clone())
                    .bind(i.options[1].clone())
                    .bind(i64::from(i.answer == 1))
                    .bind(i.pos.clone())
                    .bind(i.definition.clone())
                    .bind(i.source.clone())
            },
            &|_| {},
        )
        .await?;
        let variants: Vec<(&str, PlayedWord, &NewWordsVariant)> =
            items.iter().flat_map(|i| i.variants.iter().map(move |(w, v)| (i.id.as_str(), *w, v))).collect();
        insert_rows(
            &mut tx,
            "INSERT INTO new_words_variants (item_id, word, lemma, sentence, taught) VALUES {} ON CONFLICT (item_id, word) DO NOTHING",
            5,
            &variants,
            |q, (id, word, v)| {
                q.bind((*id).to_owned()).bind(word.code()).bind(v.lemma.clone()).bind(v.sentence.clone()).bind(v.taught.clone())
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(new)
    }

    /// Every item with its variants, in id order, with whether anyone answered it.
    pub async fn items(self) -> Result<Vec<(NewWordsItemRecord, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT i.id, i.option_a, i.option_b, i.answer, i.pos, i.definition, i.source, \
                    CASE WHEN EXISTS (SELECT 1 FROM new_words_servings s WHERE s.item_id = i.id AND s.choice IS NOT NULL) THEN 1 ELSE 0 END \
             FROM new_words_items i ORDER BY i.id",
        )
        .fetch_all(self.pool())
        .await?;
        let variants = sqlx::query("SELECT item_id, word, lemma, sentence, taught FROM new_words_variants").fetch_all(self.pool()).await?;
        let mut by_item: BTreeMap<String, BTreeMap<PlayedWord, NewWordsVariant>> = BTreeMap::new();
        for v in &variants {
            by_item.entry(v.try_get(0)?).or_default().insert(
                stored_code(v, 1, "WinoDict word", PlayedWord::parse)?,
                NewWordsVariant { lemma: v.try_get(2)?, sentence: v.try_get(3)?, taught: v.try_get(4)? },
            );
        }
        rows.iter()
            .map(|r| {
                let id: String = r.try_get(0)?;
                let item = NewWordsItemRecord {
                    variants: by_item.remove(&id).unwrap_or_default(),
                    id,
                    options: [r.try_get(1)?, r.try_get(2)?],
                    answer: option_index(r.try_get(3)?)?,
                    pos: r.try_get(4)?,
                    definition: r.try_get(5)?,
                    source: r.try_get(6)?,
                };
                Ok((item, r.try_get::<i64, _>(7)? == 1))
            })
            .collect()
    }

    /// How many items annotator `id` has met.
    pub async fn met(self, id: &str) -> Result<usize, StoreError> {
        let met: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM new_words_servings WHERE annotator_id = $1").bind(id).fetch_one(self.pool()).await?;
        Ok(usize::try_from(met).unwrap_or(0))
    }

    /// An item played with `word` that annotator `id` has not met: one a model has
    /// judged when there is, else any, drawn at random.
    pub async fn unmet_item(self, id: &str, word: PlayedWord) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT i.id FROM new_words_items i \
             WHERE EXISTS (SELECT 1 FROM new_words_variants v WHERE v.item_id = i.id AND v.word = $2) \
             AND NOT EXISTS (SELECT 1 FROM new_words_servings s WHERE s.annotator_id = $1 AND s.item_id = i.id) \
             ORDER BY CASE WHEN EXISTS (SELECT 1 FROM new_words_judgements j WHERE j.item_id = i.id) THEN 0 ELSE 1 END, random() LIMIT 1",
        )
        .bind(id)
        .bind(word.code())
        .fetch_optional(self.pool())
        .await?)
    }

    /// Stores item `item` served to annotator `id` with `word`, its definition shown
    /// or not; nothing when they have it already (a second tab drawing it at the same moment).
    pub async fn insert_serving(self, id: &str, item: &str, word: PlayedWord, with_definition: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO new_words_servings (id, annotator_id, item_id, word, with_definition, served_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (annotator_id, item_id) DO NOTHING",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(id)
        .bind(item)
        .bind(word.code())
        .bind(i64::from(with_definition))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The item annotator `id` was served first and has not answered.
    pub async fn open_serving(self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM new_words_servings WHERE annotator_id = $1 AND choice IS NULL ORDER BY served_at, id LIMIT 1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// The card of round `serving` of annotator `id`, with their latest answer since `since` (ms).
    pub async fn card(self, id: &str, serving: &str, since: i64) -> Result<NewWordsCard, StoreError> {
        let row = sqlx::query(
            "SELECT v.sentence, v.taught, s.with_definition, i.option_a, i.option_b FROM new_words_servings s \
             JOIN new_words_items i ON i.id = s.item_id JOIN new_words_variants v ON v.item_id = s.item_id AND v.word = s.word WHERE s.id = $1",
        )
        .bind(serving)
        .fetch_one(self.pool())
        .await?;
        let tally = sqlx::query(
            "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM new_words_servings WHERE annotator_id = $1 AND choice IS NOT NULL",
        )
        .bind(id)
        .fetch_one(self.pool())
        .await?;
        Ok(NewWordsCard {
            serving_id: serving.to_owned(),
            sentence: row.try_get(0)?,
            definition: if row.try_get::<i64, _>(2)? == 1 { Some(row.try_get(1)?) } else { None },
            options: [row.try_get(3)?, row.try_get(4)?],
            answered: tally.try_get(0)?,
            right: tally.try_get(1)?,
            last: self.last_pick(id, since).await?,
        })
    }

    /// Annotator `id`'s last answer, if it was given since `since` (ms).
    async fn last_pick(self, id: &str, since: i64) -> Result<Option<NewWordsPick>, StoreError> {
        let row = sqlx::query(
            "SELECT s.correct, i.answer, i.option_a, i.option_b FROM new_words_servings s JOIN new_words_items i ON i.id = s.item_id \
             WHERE s.annotator_id = $1 AND s.choice IS NOT NULL AND s.served_at + s.server_ms >= $2 \
             ORDER BY s.served_at + s.server_ms DESC LIMIT 1",
        )
        .bind(id)
        .bind(since)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let options: [String; 2] = [r.try_get(2)?, r.try_get(3)?];
            let [first, second] = options;
            let answer = if option_index(r.try_get(1)?)? == 0 { first } else { second };
            Ok(NewWordsPick { correct: r.try_get::<i64, _>(0)? == 1, answer })
        })
        .transpose()
    }

    /// Round `serving` of annotator `id`; `None` when it is not theirs.
    pub async fn serving(self, id: &str, serving: &str) -> Result<Option<NewWordsServing>, StoreError> {
        let row = sqlx::query(
            "SELECT i.answer, i.option_a, i.option_b, s.served_at, s.choice, s.correct FROM new_words_servings s \
             JOIN new_words_items i ON i.id = s.item_id WHERE s.id = $1 AND s.annotator_id = $2",
        )
        .bind(serving)
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let answered = match (r.try_get::<Option<i64>, _>(4)?, r.try_get::<Option<i64>, _>(5)?) {
                (Some(choice), Some(correct)) => Some((option_index(choice)?, correct == 1)),
                _ => None,
            };
            Ok(NewWordsServing {
                answer: option_index(r.try_get(0)?)?,
                options: [r.try_get(1)?, r.try_get(2)?],
                served_at: r.try_get(3)?,
                answered,
            })
        })
        .transpose()
    }

    /// Stores the answer to round `serving`: option `choice`, right or not; false
    /// when it was answered already (a second tab's answer came first).
    pub async fn record_choice(
        self,
        serving: &str,
        (choice, correct): (usize, bool),
        timing: Timing,
        trial: Trial,
    ) -> Result<bool, StoreError> {
        // the measure's seven columns, $1 to $7, in the order bind_measure binds them
        let measure: Vec<String> = MEASURE_COLUMNS.split(", ").zip(1..).map(|(column, n)| format!("{column} = ${n}")).collect();
        let sql =
            format!("UPDATE new_words_servings SET {}, choice = $8, correct = $9 WHERE id = $10 AND choice IS NULL", measure.join(", "));
        let query = bind_measure(sqlx::query(&sql), timing, trial);
        let done =
            query.bind(i64::try_from(choice).unwrap_or(i64::MAX)).bind(i64::from(correct)).bind(serving).execute(self.pool()).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Every answer people gave, without who gave it, in the order served.
    pub async fn answers(self) -> Result<Vec<NewWordsAnswer>, StoreError> {
        let rows = sqlx::query(
            "SELECT item_id, word, with_definition, correct FROM new_words_servings WHERE choice IS NOT NULL ORDER BY served_at",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(NewWordsAnswer {
                    item_id: r.try_get(0)?,
                    word: stored_code(r, 1, "WinoDict word", PlayedWord::parse)?,
                    with_definition: r.try_get::<i64, _>(2)? == 1,
                    correct: r.try_get::<i64, _>(3)? == 1,
                })
            })
            .collect()
    }

    /// The setups `model` has judged each item in.
    pub async fn judged(self, model: &str) -> Result<HashSet<(String, NewWordsSetup)>, StoreError> {
        let rows = sqlx::query("SELECT item_id, word, teaching, shots FROM new_words_judgements WHERE model_id = $1")
            .bind(model)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, setup_of(r, 1)?))).collect()
    }

    /// Stores judgements (one transaction); a judgement made again replaces the old.
    pub async fn save_judgements(self, judgements: &[NewWordsJudgement]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        insert_rows(
            &mut tx,
            "INSERT INTO new_words_judgements (model_id, item_id, word, teaching, shots, log_likelihood_a, log_likelihood_b, choice) VALUES {} \
             ON CONFLICT (model_id, item_id, word, teaching, shots) DO UPDATE SET \
             log_likelihood_a = excluded.log_likelihood_a, log_likelihood_b = excluded.log_likelihood_b, choice = excluded.choice",
            8,
            judgements,
            |q, j| {
                q.bind(j.model.clone())
                    .bind(j.item_id.clone())
                    .bind(j.setup.word.code())
                    .bind(j.setup.teaching.clone())
                    .bind(i64::from(j.setup.shots))
                    .bind(j.log_likelihoods[0])
                    .bind(j.log_likelihoods[1])
                    .bind(i64::from(j.choice == 1))
            },
            &|_| {},
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every stored judgement, with whether it was right.
    pub async fn judgements(self) -> Result<Vec<NewWordsJudgement>, StoreError> {
        let rows = sqlx::query(
            "SELECT j.model_id, j.item_id, j.word, j.teaching, j.shots, j.log_likelihood_a, j.log_likelihood_b, j.choice, i.answer \
             FROM new_words_judgements j JOIN new_words_items i ON i.id = j.item_id ORDER BY j.model_id, j.item_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let choice = option_index(r.try_get(7)?)?;
                Ok(NewWordsJudgement {
                    model: r.try_get(0)?,
                    item_id: r.try_get(1)?,
                    setup: setup_of(r, 2)?,
                    log_likelihoods: [r.try_get(5)?, r.try_get(6)?],
                    choice,
                    correct: choice == option_index(r.try_get(8)?)?,
                })
            })
            .collect()
    }
}
