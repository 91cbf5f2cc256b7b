//! The invented-word game's admin side (WinoDict, 003_e0d4aede4cc7e323.txt): the
//! items with the words they are played with, loaded into the database, and a
//! model's partial-scoring judgements of them.
//!
//! Decisions: every item gets its own invented word (the letter model of WordNet's
//! lemmas, [`SEED`]) and its meaning-shift partner when it is loaded, so people and
//! models meet the same words; k-shot prompts take k solved items fixed per run
//! (the last of the run's order), which are not judged in that setup themselves.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use gapwise_model::PlayedWord;
use gapwise_model::Teaching;
use gapwise_model::{ModelId, NewWordsItem};
use gapwise_prepare::new_words::invented::LetterModel;
use gapwise_prepare::new_words::items::{read_items, shift_partners, KeyedItem};
use gapwise_prepare::wordnet::lemmas;
use gapwise_scorer::new_words::partial::{judge, ContinuationScorer, Judgement};
use gapwise_scorer::ScorerError;
use gapwise_store::{NewWordsItemRecord, NewWordsJudgement, NewWordsSetup, NewWordsVariant, Store};
use rand::seq::SliceRandom;
use rand::SeedableRng;

type Error = crate::error::CliError;

/// The items shipped with Gapwise: 650 WinoGrande sentences (data/new_words/README.md).
pub const ITEMS: &str = include_str!("../../../data/new_words/winogrande.jsonl");

/// Seed of the invented words and of the meaning-shift partners.
pub const SEED: u64 = 3;

/// Items judged per model call (and per stored batch): enough for the model's
/// length-sorted batches to fill up (8 ran at half the speed).
const BATCH: usize = 64;

fn variant(lemma: &str, played: NewWordsItem) -> NewWordsVariant {
    NewWordsVariant { lemma: lemma.to_owned(), sentence: played.sentence, taught: played.definition.unwrap_or_default() }
}

/// The items with their three words: the key word, an invented word of `letters`
/// (drawn with `seed`) and, where one fits, the key word of a meaning-shift partner.
pub fn records(items: &[KeyedItem], letters: &LetterModel, seed: u64) -> Result<Vec<NewWordsItemRecord>, Error> {
    let invented = letters.invent(items.len(), seed);
    if invented.len() < items.len() {
        return Err(format!("the letter model made {} words for {} items", invented.len(), items.len()).into());
    }
    let partners = shift_partners(items, seed);
    Ok(items
        .iter()
        .zip(invented)
        .zip(partners)
        .map(|((item, word), partner)| {
            let mut variants = BTreeMap::from([
                (PlayedWord::Original, variant(&item.lemma, item.original())),
                (PlayedWord::Invented, variant(&word.word, item.with_word(&word.word))),
            ]);
            if let Some(other) = partner.and_then(|p| items.get(p)) {
                variants.insert(PlayedWord::Shifted, variant(&other.lemma, item.shifted_to(other)));
            }
            NewWordsItemRecord {
                id: item.id(),
                options: item.options.clone(),
                answer: item.answer,
                pos: item.pos.code().to_owned(),
                definition: item.definition.clone(),
                source: item.source.clone(),
                variants,
            }
        })
        .collect())
}

/// Loads the items of `text` (JSON lines, as data/new_words/winogrande.jsonl) with
/// words invented by a letter model of the lemmas of the WordNet in `wordnet`;
/// items present already are kept. Returns how many were new.
pub async fn import_new_words(store: &Store, text: &str, wordnet: &Path, seed: u64) -> Result<u64, Error> {
    let items = read_items(text)?;
    let known = lemmas(wordnet)?;
    let letters = LetterModel::train(known.iter().map(String::as_str));
    Ok(store.new_words().import(&records(&items, &letters, seed)?).await?)
}

/// How a judging run is bounded.
pub struct Judging {
    /// The words and teachings to judge in (every pair of them).
    pub words: Vec<PlayedWord>,
    pub teachings: Vec<Teaching>,
    pub shots: usize,
    /// Items per setup: those people answered first, then others (seeded order).
    pub items: usize,
    pub seed: u64,
}

/// The item played with `word`, as the scorer takes it; `None` without that word.
fn played(item: &NewWordsItemRecord, word: PlayedWord) -> Option<NewWordsItem> {
    let v = item.variants.get(&word)?;
    Some(NewWordsItem {
        sentence: v.sentence.clone(),
        options: item.options.clone(),
        answer: item.answer,
        definition: Some(v.taught.clone()),
    })
}

/// Judges items with `model` under `model_id`, batch by batch (each stored as it is
/// done, so an interrupted run keeps its work and a rerun resumes); `progress` is
/// told of each item. Returns how many judgements were made.
pub async fn judge_new_words(
    store: &Store,
    model: &dyn ContinuationScorer,
    model_id: &ModelId,
    how: &Judging,
    stop: &AtomicBool,
    progress: &indicatif::ProgressBar,
) -> Result<usize, Error> {
    let (played_items, mut others): (Vec<_>, Vec<_>) = store.new_words().items().await?.into_iter().partition(|(_, answered)| *answered);
    others.shuffle(&mut rand::rngs::StdRng::seed_from_u64(how.seed));
    let mut order: Vec<NewWordsItemRecord> = played_items.into_iter().chain(others).map(|(item, _)| item).collect();
    let shot_items = order.split_off(order.len().saturating_sub(how.shots));
    order.truncate(how.items);
    let judged = store.new_words().judged(model_id).await?;
    let mut todo = Vec::new();
    for &word in &how.words {
        for &teaching in &how.teachings {
            let setup = NewWordsSetup { word, teaching: teaching.code().to_owned(), shots: u32::try_from(how.shots)? };
            let items: Vec<&NewWordsItemRecord> =
                order.iter().filter(|i| i.variants.contains_key(&word) && !judged.contains(&(i.id.clone(), setup.clone()))).collect();
            let shots: Vec<NewWordsItem> = shot_items.iter().filter_map(|i| played(i, word)).collect();
            todo.push((setup, teaching, items, shots));
        }
    }
    progress.inc_length(todo.iter().map(|t| t.2.len() as u64).sum());
    let mut done = 0;
    for (setup, teaching, items, shots) in todo {
        for batch in items.chunks(BATCH) {
            if stop.load(Ordering::SeqCst) {
                return Ok(done);
            }
            let asked: Vec<NewWordsItem> = batch.iter().filter_map(|i| played(i, setup.word)).collect();
            let judgements: Vec<Option<Judgement>> = match judge(model, &asked, teaching, &shots) {
                Ok(judged) => judged.into_iter().map(Some).collect(),
                // an item the model cannot read (its tokenizer joins the option and the
                // text after it in one piece): the others one by one, that one left out
                Err(ScorerError::Input(_)) => asked
                    .iter()
                    .map(|item| match judge(model, std::slice::from_ref(item), teaching, &shots) {
                        Ok(mut one) => Ok(one.pop()),
                        Err(e @ ScorerError::Input(_)) => {
                            tracing::warn!(model = %model_id, sentence = item.sentence, "an invented-word item left unjudged: {e}");
                            Ok(None)
                        }
                        Err(e) => Err(e),
                    })
                    .collect::<Result<_, _>>()?,
                Err(e) => return Err(e.into()),
            };
            let rows: Vec<NewWordsJudgement> = batch
                .iter()
                .zip(judgements)
                .filter_map(|(item, j)| Some((item, j?)))
                .map(|(item, j)| NewWordsJudgement {
                    model: model_id.to_owned(),
                    item_id: item.id.clone(),
                    setup: setup.clone(),
                    log_likelihoods: j.log_likelihoods,
                    choice: j.choice,
                    correct: j.correct,
                })
                .collect();
            store.new_words().save_judgements(&rows).await?;
            done += rows.len();
            progress.inc(rows.len() as u64);
        }
    }
    Ok(done)
}
