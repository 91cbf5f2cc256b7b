//! The demo's model data (see [`Preparation`]): after a first start loaded the demo,
//! the default English model scores its items, selects sentences to rate, suggests
//! next words, scores word-definition groups and judges invented-word items, in the
//! background while the server serves (a few minutes on two cores). Each step is
//! struck off the stored list when done; a server stopped midway leaves the rest to
//! the next start, and every step resumes where it stopped.

use std::error::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use gapwise_model::{DefinitionTask, PlayedWord, Preparation, Teaching, PREPARED_LANGUAGE};
use gapwise_scorer::LoadedModel;
use gapwise_store::{Store, StoreError};
use indicatif::ProgressBar;

use super::args::ModelArgs;
use super::models;

/// How often the preparing server says it is still at work (and logs its progress).
const BEAT: Duration = Duration::from_secs(10);
/// A claim not renewed for this long is taken over by a server that waits for it.
const STALE_MS: i64 = 3 * BEAT.as_millis() as i64;

/// The demo's sizes: a first taste of every analysis, not a study.
const DEFINITION_GROUPS: usize = 60;
const NEW_WORD_ITEMS: usize = 40;
const NEXT_WORD_SENTENCES: usize = 50;

/// The model options as the command line's defaults (and its environment) give them.
#[derive(Parser)]
struct Defaults {
    #[command(flatten)]
    model: ModelArgs,
}

/// Lists every step as pending after a first start loaded the demo, when the
/// default English model is there; says how to get it otherwise.
pub(super) async fn plan(store: &Store) -> Result<(), Box<dyn Error>> {
    let model = models::default_model(Some(PREPARED_LANGUAGE));
    if model.is_file() {
        store.first_start().set_steps_to_prepare(Preparation::all_bits()).await?;
    } else {
        tracing::warn!(
            "no default model at {}: the demo has no model scores, sentences to rate or next-word suggestions \
             (scripts/fetch_model.sh fetches it; then run the scoring commands, see docs)",
            model.display()
        );
    }
    Ok(())
}

/// Starts the pending steps in the background, or, while another server is running
/// them, watches it and takes over if it stops reporting. `stop` ends the work after
/// the batch in flight, leaving the step it was on to the next start: the server
/// raises it when it shuts down.
pub(super) async fn resume(store: &Store, stop: Arc<AtomicBool>) -> Result<(), Box<dyn Error>> {
    if store.first_start().steps_to_prepare().await? == 0 {
        return Ok(());
    }
    let store = store.clone();
    tokio::spawn(async move {
        while !stop.load(Ordering::SeqCst) {
            match claim(&store).await {
                Ok(Claim::Claimed { pending, stamp }) => return start(store, pending, stamp, stop),
                Ok(Claim::Done) => return,
                Ok(Claim::Busy) => {}
                Err(e) => return tracing::warn!("the demo's model preparation could not be claimed: {e}"),
            }
            tokio::time::sleep(BEAT).await;
        }
    });
    Ok(())
}

/// Where the preparation stands for a server that wants to run it.
enum Claim {
    /// No step is left.
    Done,
    /// Another server is running them.
    Busy,
    /// This server now runs these steps, and renews its claim with `stamp`.
    Claimed { pending: i64, stamp: i64 },
}

async fn claim(store: &Store) -> Result<Claim, StoreError> {
    if store.first_start().steps_to_prepare().await? == 0 {
        return Ok(Claim::Done);
    }
    let Some(stamp) = store.first_start().claim_demo_models(STALE_MS).await? else { return Ok(Claim::Busy) };
    // read again: the server that held the claim may have finished meanwhile
    match store.first_start().steps_to_prepare().await? {
        0 => {
            store.first_start().set_steps_to_prepare(0).await?;
            Ok(Claim::Done)
        }
        pending => Ok(Claim::Claimed { pending, stamp }),
    }
}

/// Runs `pending` on a thread of its own: the model's arithmetic never holds up the
/// server's requests.
fn start(store: Store, pending: i64, stamp: i64, stop: Arc<AtomicBool>) {
    let work = tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(async move {
            match prepare(&store, pending, stamp, &stop).await {
                Ok(Ended::Done(failed)) if failed.is_empty() => tracing::info!("the demo's model data is ready"),
                Ok(Ended::Done(failed)) => tracing::warn!("the demo's model data is ready without {}", failed.join("; ")),
                Ok(Ended::Stopped) => tracing::info!("the demo's model preparation stopped; the next start goes on with it"),
                Err(e) => tracing::warn!("the demo's model data was not finished: {e}"),
            }
        })
    });
    tokio::spawn(async move {
        if let Err(e) = work.await {
            tracing::error!("the demo's model preparation failed: {e}");
        }
    });
}

/// How a preparation ended.
enum Ended {
    /// Every pending step ran; these failed (each with the command that runs it by hand).
    Done(Vec<String>),
    /// Asked to stop, or the claim was lost: what is left stays pending.
    Stopped,
}

/// Aborts a task when dropped, however the work that spawned it ends (an error, a
/// panic): the claim's renewals end with the preparation.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs the pending steps with the default English model, one after another. A
/// step that fails is struck off all the same (it would fail again) and the others
/// run, except when the database is out of reach or the work was asked to stop: then
/// the step stays pending for the next start. A model that does not load strikes
/// every step off (the pages would otherwise say "being prepared" for good).
async fn prepare(store: &Store, pending: i64, stamp: i64, stop: &Arc<AtomicBool>) -> Result<Ended, Box<dyn Error>> {
    let progress = ProgressBar::hidden();
    let _beat = AbortOnDrop(tokio::spawn(keep_claim(store.clone(), stamp, progress.clone(), stop.clone())));
    // the default English model, whatever GAPWISE_MODEL names for the scoring commands
    let mut args = Defaults::try_parse_from(["gapwise"])?.model;
    args.model = None;
    let (loaded, model_id) = match models::load_quietly(store, args, Some(PREPARED_LANGUAGE)).await {
        Ok(loaded) => loaded,
        Err(e) => {
            store.first_start().set_steps_to_prepare(0).await?;
            return Err(format!("the default model did not load: {e} (scripts/fetch_model.sh; then the scoring commands by hand)").into());
        }
    };
    tracing::info!(model = model_id, convention = %loaded.convention, "the default model is loaded");
    let (mut left, mut failed) = (pending, Vec::new());
    for step in Preparation::ALL.into_iter().filter(|step| pending & step.bit() != 0) {
        if stop.load(Ordering::SeqCst) {
            return Ok(Ended::Stopped);
        }
        progress.reset();
        progress.set_length(0);
        progress.set_message(step.code());
        tracing::info!(step = step.code(), model = model_id, "preparing the demo's model data");
        let outcome = run(store, &loaded, &model_id, step, &progress, stop).await;
        if stop.load(Ordering::SeqCst) {
            return Ok(Ended::Stopped);
        }
        if let Err(e) = outcome {
            if e.downcast_ref::<StoreError>().is_some_and(StoreError::is_unavailable) {
                return Err(format!("{}: {e} (the next start goes on with it)", step.code()).into());
            }
            failed.push(format!("{}: {e} (`gapwise {}` runs it)", step.code(), by_hand(step)));
        }
        left &= !step.bit();
        store.first_start().set_steps_to_prepare(left).await?;
    }
    Ok(Ended::Done(failed))
}

/// The command that runs `step` by hand.
fn by_hand(step: Preparation) -> &'static str {
    match step {
        Preparation::Scores => "score --language en",
        Preparation::Rating => "select-contexts --language en",
        Preparation::NextWords => "score-guess --language en",
        Preparation::Definitions => "score-define",
        Preparation::NewWords => "score-new-words",
    }
}

/// One step with the loaded model.
async fn run(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &str,
    step: Preparation,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(), Box<dyn Error>> {
    match step {
        Preparation::Scores => {
            models::items(store, loaded, model_id, Some(PREPARED_LANGUAGE), 64, stop, progress).await?;
        }
        Preparation::Rating => {
            let selection = crate::rate::Selection::default();
            crate::rate::select_contexts(store, loaded.scorer.clone(), model_id, PREPARED_LANGUAGE, selection, progress).await?;
        }
        Preparation::NextWords => {
            let how = crate::guess::Guessing { language: PREPARED_LANGUAGE.to_owned(), sentences: NEXT_WORD_SENTENCES, seed: 1 };
            let facts = models::WordFactSources { wordfreq: None, vectors: None, neighbours: 10 };
            models::next_words(store, loaded, model_id, &how, facts, stop, progress).await?;
        }
        Preparation::Definitions => {
            let how = crate::define::Scoring {
                tasks: DefinitionTask::ALL.to_vec(),
                max_size: gapwise_model::DEFAULT_DEFINITION_CAP,
                groups: DEFINITION_GROUPS,
                seed: 1,
            };
            models::definitions(store, loaded, model_id, &how, stop, progress).await?;
        }
        Preparation::NewWords => {
            let how = crate::new_words::Judging {
                words: PlayedWord::ALL.to_vec(),
                teachings: Teaching::ALL.to_vec(),
                shots: 0,
                items: NEW_WORD_ITEMS,
                seed: 1,
            };
            models::new_words(store, loaded, model_id, &how, stop, progress).await?;
        }
    }
    Ok(())
}

/// Renews the claim and logs the step's progress every [`BEAT`] until aborted; a
/// claim another server took over raises `stop`.
async fn keep_claim(store: Store, mut stamp: i64, progress: ProgressBar, stop: Arc<AtomicBool>) {
    loop {
        tokio::time::sleep(BEAT).await;
        match store.first_start().renew_demo_models(stamp).await {
            Ok(Some(renewed)) => stamp = renewed,
            Ok(None) => {
                tracing::warn!("the demo's model preparation lost its claim to another server: stopping");
                stop.store(true, Ordering::SeqCst);
                return;
            }
            Err(e) => tracing::warn!("the demo's model preparation could not renew its claim: {e}"),
        }
        tracing::info!(step = %progress.message(), done = progress.position(), of = progress.length().unwrap_or(0), "preparing the demo's model data");
    }
}
