//! The demo's model data (see [`Preparation`]): after a first start loaded the demo,
//! the default English model scores its items, selects sentences to rate, suggests
//! next words, scores word-definition groups and judges invented-word items, in the
//! background while the server serves (a few minutes on two cores). Each step is
//! struck off the stored list when done; a server stopped midway leaves the rest to
//! the next start, and every step resumes where it stopped.

use std::error::Error;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Parser;
use gapwise_model::{DefinitionTask, Preparation, Teaching, WinoWord, PREPARED_LANGUAGE};
use gapwise_scorer::LoadedModel;
use gapwise_store::Store;
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
        store.set_demo_models_pending(Preparation::all_bits()).await?;
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
/// them, watches it and takes over if it stops reporting.
pub(super) async fn resume(store: &Store) -> Result<(), Box<dyn Error>> {
    if store.demo_models_pending().await? == 0 {
        return Ok(());
    }
    let store = store.clone();
    tokio::spawn(async move {
        loop {
            match claim(&store).await {
                Ok(Claim::Claimed(pending)) => return start(store, pending),
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
    /// This server now runs these steps.
    Claimed(i64),
}

async fn claim(store: &Store) -> Result<Claim, gapwise_store::StoreError> {
    let pending = store.demo_models_pending().await?;
    Ok(if pending == 0 {
        Claim::Done
    } else if store.claim_demo_models(STALE_MS).await? {
        Claim::Claimed(pending)
    } else {
        Claim::Busy
    })
}

/// Runs `pending` on a thread of its own: the model's arithmetic never holds up the
/// server's requests.
fn start(store: Store, pending: i64) {
    tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(async move {
            match prepare(&store, pending).await {
                Ok(failed) if failed.is_empty() => tracing::info!("the demo's model data is ready"),
                Ok(failed) => tracing::warn!("the demo's model data is ready without {}", failed.join("; ")),
                Err(e) => tracing::warn!("the demo's model data was not finished: {e} (the next start resumes it)"),
            }
        })
    });
}

/// Runs the pending steps with the default English model, one after another. A
/// step that fails is struck off all the same (it would fail again) and the others
/// run; the failures are returned, each with the command that runs it by hand.
pub async fn prepare(store: &Store, pending: i64) -> Result<Vec<String>, Box<dyn Error>> {
    let args = Defaults::parse_from(["gapwise"]).model;
    let (loaded, model_id) = models::load_model(store, args, Some(PREPARED_LANGUAGE)).await?;
    let progress = ProgressBar::hidden();
    let beat = tokio::spawn(keep_claim(store.clone(), progress.clone()));
    let (mut left, mut failed) = (pending, Vec::new());
    for step in Preparation::ALL.into_iter().filter(|step| pending & step.bit() != 0) {
        progress.reset();
        progress.set_length(0);
        progress.set_message(step.code());
        tracing::info!(step = step.code(), model = model_id, "preparing the demo's model data");
        if let Err(e) = run(store, &loaded, &model_id, step, &progress).await {
            failed.push(format!("{}: {e} (`gapwise {}` runs it)", step.code(), by_hand(step)));
        }
        left &= !step.bit();
        store.set_demo_models_pending(left).await?;
    }
    beat.abort();
    Ok(failed)
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
async fn run(store: &Store, loaded: &LoadedModel, model_id: &str, step: Preparation, progress: &ProgressBar) -> Result<(), Box<dyn Error>> {
    let stop = AtomicBool::new(false);
    match step {
        Preparation::Scores => {
            models::items(store, loaded, model_id, Some(PREPARED_LANGUAGE), 64, &stop, progress).await?;
        }
        Preparation::Rating => {
            let selection = crate::rate::Selection::default();
            crate::rate::select_contexts(store, loaded.scorer.clone(), model_id, PREPARED_LANGUAGE, selection, progress).await?;
        }
        Preparation::NextWords => {
            let how = crate::guess::Guessing { language: PREPARED_LANGUAGE.to_owned(), sentences: NEXT_WORD_SENTENCES, seed: 1 };
            let facts = models::WordFactSources { wordfreq: None, vectors: None, neighbours: 10 };
            models::next_words(store, loaded, model_id, &how, facts, &stop, progress).await?;
        }
        Preparation::Definitions => {
            let how = crate::define::Scoring {
                tasks: DefinitionTask::ALL.to_vec(),
                max_size: gapwise_model::DEFAULT_DEFINITION_CAP,
                groups: DEFINITION_GROUPS,
                seed: 1,
            };
            models::definitions(store, loaded, model_id, &how, &stop, progress).await?;
        }
        Preparation::NewWords => {
            let how = crate::new_words::Judging {
                words: WinoWord::ALL.to_vec(),
                teachings: Teaching::ALL.to_vec(),
                shots: 0,
                items: NEW_WORD_ITEMS,
                seed: 1,
            };
            models::new_words(store, loaded, model_id, &how, &stop, progress).await?;
        }
    }
    Ok(())
}

/// Renews the claim and logs the step's progress every [`BEAT`] until aborted.
async fn keep_claim(store: Store, progress: ProgressBar) {
    loop {
        tokio::time::sleep(BEAT).await;
        if let Err(e) = store.claim_demo_models(0).await {
            tracing::warn!("the demo's model preparation could not renew its claim: {e}");
        }
        tracing::info!(step = %progress.message(), done = progress.position(), of = progress.length().unwrap_or(0), "preparing the demo's model data");
    }
}
