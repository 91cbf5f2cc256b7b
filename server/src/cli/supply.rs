//! Keeps the next-word and cloze games supplied while the server runs: both play
//! sentences a model predicted (the cloze game shows the model's words after the
//! answer), and a player who plays through them would be told the language has no
//! sentence left. Every [`LOOK`], one server (claimed as the preparation is) counts
//! per language the predicted sentences nobody has been served yet; while one is
//! below [`AHEAD`], the default model of the language with the fewest predicts
//! [`TOP_UP`] more of those nobody has had, and the count starts again.
//! A language starts being kept once the preparation's first next-word step gave it
//! its first sentence; the supply runs beside the preparation's later steps (which
//! score the main game's items for an hour on two cores), not after them.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use gapwise_model::{Language, ModelId};
use gapwise_scorer::LoadedModel;
use gapwise_store::Store;
use indicatif::ProgressBar;

use super::models;
use crate::error::CliError;

/// Predicted sentences nobody has been served, per language, below which more are predicted.
const AHEAD: i64 = 3;
/// Sentences predicted at a time for the language that runs lowest (one: a Gemma
/// sentence takes 15-70 s on two cores, and another language may run dry meanwhile).
const TOP_UP: usize = 1;
/// How often the supply is counted.
const LOOK: Duration = Duration::from_secs(10);
/// A claim not renewed for this long is taken over: longer than a top-up of one
/// language (a sentence takes Gemma 15-30 s on two cores).
const STALE_MS: i64 = 180_000;

/// The default models loaded so far, by file.
type Loaded = HashMap<PathBuf, Result<(LoadedModel, ModelId), String>>;

/// Starts keeping the games supplied until `stop` is raised: the counting runs as a
/// task of the server's, each top-up on a thread of its own (the model's arithmetic
/// never holds up requests).
pub(super) fn keep(store: Store, stop: Arc<AtomicBool>) {
    tokio::spawn(supply(store, stop));
}

/// The loop of [`keep`]: claims the supply (or waits while another server holds
/// it), then predicts a sentence for the language with the fewest ahead, again and
/// again while one is below [`AHEAD`].
async fn supply(store: Store, stop: Arc<AtomicBool>) {
    let mut loaded = Loaded::new();
    let mut spent: HashSet<Language> = HashSet::new();
    let mut stamp = None;
    while !stop.load(Ordering::SeqCst) {
        let first_start = store.first_start();
        let claimed = match stamp {
            Some(s) => first_start.renew_supply(s).await,
            None => first_start.claim_supply(STALE_MS).await,
        };
        stamp = claimed.unwrap_or_else(|e| {
            tracing::warn!("the next-word games' supply could not be claimed: {e}");
            None
        });
        let neediest = match stamp {
            Some(_) => neediest(&store, &spent).await.unwrap_or_else(|e| {
                tracing::warn!("the next-word games' supply could not be counted: {e}");
                None
            }),
            None => None,
        };
        let Some(language) = neediest else {
            tokio::time::sleep(LOOK).await;
            continue;
        };
        let (store, stop) = (store.clone(), stop.clone());
        let work = tokio::task::spawn_blocking(move || {
            let done = tokio::runtime::Handle::current().block_on(top_up(&store, language, &mut loaded, &stop));
            (loaded, done)
        });
        let done;
        (loaded, done) = match work.await {
            Ok(finished) => finished,
            Err(e) => return tracing::error!("keeping the next-word games supplied failed: {e}"),
        };
        match done {
            Ok(0) => {
                tracing::info!(language = language.code(), "every sentence of the language is predicted: its supply stops");
                spent.insert(language);
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(language = language.code(), "the next-word games' supply stops for the language: {e}");
                spent.insert(language);
            }
        }
    }
}

/// The language with the fewest predicted sentences nobody has had, when that is
/// below [`AHEAD`]; only languages with a default model, a first predicted sentence
/// (the preparation's first next-word step) or sentences to predict again (see
/// `gapwise_store::Repaired`), and sentences left to predict. When none is below,
/// a language with sentences its default model is to predict again.
async fn neediest(store: &Store, spent: &HashSet<Language>) -> Result<Option<Language>, CliError> {
    let mut lowest: Option<(i64, Language)> = None;
    let mut remake = None;
    for language in Language::ALL.into_iter().filter(|l| !spent.contains(l) && models::default_model(Some(*l)).is_file()) {
        let (predicted, ahead) = store.guess().sentences_ahead(language).await?;
        let pending = store.guess().remakes_pending(&models::default_model_id(Some(language))?, language).await?;
        if (predicted > 0 || pending > 0) && ahead < AHEAD && lowest.is_none_or(|(least, _)| ahead < least) {
            lowest = Some((ahead, language));
        }
        remake = remake.or((pending > 0).then_some(language));
    }
    Ok(lowest.map(|(_, language)| language).or(remake))
}

/// Predicts [`TOP_UP`] sentences of `language` nobody has had: how many it predicted.
async fn top_up(store: &Store, language: Language, loaded: &mut Loaded, stop: &AtomicBool) -> Result<usize, CliError> {
    let file = models::default_model(Some(language));
    if !loaded.contains_key(&file) {
        let model = models::load_quietly(store, super::demo_models::default_args()?, Some(language)).await.map_err(|e| e.to_string());
        loaded.insert(file.clone(), model);
    }
    let (model, model_id) = match loaded.get(&file) {
        Some(Ok(m)) => m,
        Some(Err(e)) => return Err(format!("the default model did not load: {e}").into()),
        None => return Err("the default model was not loaded".into()),
    };
    let how = crate::runs::score_guess::Guessing { language, sentences: TOP_UP, seed: 1, for_games: true };
    let facts = models::WordFactSources { wordfreq: None, vectors: None, neighbours: 10 };
    let (done, _) = models::next_words(store, model, model_id, &how, facts, stop, &ProgressBar::hidden()).await?;
    tracing::info!(language = language.code(), predicted = done, "the next-word games' supply topped up");
    Ok(done)
}
