//! The demo's model data (see [`gapwise_model::plan`]): after a first start loaded
//! the demo, the default models (SmolLM2 for English, Gemma 3 for Spanish, French,
//! Italian and Russian) select sentences to rate, suggest next words, score the main
//! game's items in every language, and score word-definition groups and judge
//! invented-word items in English, in the background while the server serves: first
//! what makes each mode playable in each language (a few pairs to rate, a few
//! sentences with suggestions), then the rest. Each task is struck off the stored
//! list when done; a server stopped midway leaves the rest to the next start, and
//! every task resumes where it stopped. Beside it, [`super::supply`] keeps the
//! next-word and cloze games supplied as players use their sentences up.

use crate::error::CliError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use gapwise_model::{plan as preparation_plan, DefinitionTask, Mode, ModelId, Part, Pending, PlayedWord, Task, Teaching};
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
/// Sentences with the model's next-word suggestions: one to start (Gemma takes 15-30 s
/// a sentence on two cores), then 50 in all.
const NEXT_WORD_SENTENCES: [usize; 2] = [1, 50];
/// Pairs whose rating sentences the first part selects (the rest: every other pair).
const FIRST_RATING_PAIRS: usize = 2;
/// Sentences the model ranks per pair to select those to rate (the command's
/// default is 10,000: the demo's two cores take a smaller sample).
const RATING_SAMPLE: usize = 40;

/// The model options as the command line's defaults (and its environment) give them.
#[derive(Parser)]
struct Defaults {
    #[command(flatten)]
    model: ModelArgs,
}

/// The model options of the command line's defaults (and its environment), for the
/// default model of a language whatever GAPWISE_MODEL names for the scoring commands.
pub(super) fn default_args() -> Result<ModelArgs, CliError> {
    let mut args = Defaults::try_parse_from(["gapwise"])?.model;
    args.model = None;
    Ok(args)
}

/// Lists every task as pending after a first start loaded the demo, those of the
/// languages whose default model is there; says once for each missing model how to
/// get it and what it would have made.
pub(super) async fn plan(store: &Store) -> Result<(), CliError> {
    let mut pending = Pending::default();
    let mut missing: Vec<(std::path::PathBuf, Vec<String>)> = Vec::new();
    for (at, task) in preparation_plan().iter().enumerate() {
        let model = models::default_model(Some(task.language));
        if model.is_file() {
            pending = pending.with(at);
        } else {
            let made = format!("{} {} (`gapwise {}`)", task.language, task.mode.code(), by_hand(task));
            match missing.iter_mut().find(|(file, _)| *file == model) {
                Some((_, tasks)) => tasks.push(made),
                None => missing.push((model, vec![made])),
            }
        }
    }
    for (model, tasks) in missing {
        tracing::warn!(
            "no default model at {}: the demo has no {} (scripts/fetch_model.sh fetches it; then the commands named)",
            model.display(),
            tasks.join(", ")
        );
    }
    if !pending.is_empty() {
        store.first_start().plan_preparation(pending.0).await?;
    }
    Ok(())
}

/// Starts the pending steps in the background, or, while another server is running
/// them, watches it and takes over if it stops reporting. `stop` ends the work after
/// the batch in flight, leaving the step it was on to the next start: the server
/// raises it when it shuts down.
pub(super) async fn resume(store: &Store, stop: Arc<AtomicBool>) -> Result<(), CliError> {
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

/// Runs the pending tasks in the plan's order, each with its language's default
/// model (loaded once). A task that fails is struck off all the same (it would fail
/// again) and the others run, except when the database is out of reach or the work
/// was asked to stop: then the task stays pending for the next start. A model that
/// does not load strikes off its tasks (the pages would otherwise say "being
/// prepared" for good).
async fn prepare(store: &Store, pending: i64, stamp: i64, stop: &Arc<AtomicBool>) -> Result<Ended, CliError> {
    let progress = ProgressBar::hidden();
    let _beat = AbortOnDrop(tokio::spawn(keep_claim(store.clone(), stamp, progress.clone(), stop.clone())));
    let (mut left, mut failed) = (Pending(pending), Vec::new());
    let mut loaded: HashMap<std::path::PathBuf, Result<(LoadedModel, ModelId), String>> = HashMap::new();
    let start = Pending(pending);
    for (at, task) in preparation_plan().into_iter().enumerate().filter(|&(at, _)| start.has(at)) {
        if stop.load(Ordering::SeqCst) {
            return Ok(Ended::Stopped);
        }
        let file = models::default_model(Some(task.language));
        if !loaded.contains_key(&file) {
            let model = models::load_quietly(store, default_args()?, Some(task.language)).await.map_err(|e| e.to_string());
            if let Ok((model, id)) = &model {
                tracing::info!(model = %id, convention = %model.convention, "a default model is loaded");
            }
            loaded.insert(file.clone(), model);
        }
        let outcome = match loaded.get(&file) {
            Some(Ok((model, model_id))) => {
                progress.reset();
                progress.set_length(0);
                progress.set_message(format!("{} {}", task.mode.code(), task.language));
                tracing::info!(
                    step = task.mode.code(),
                    language = task.language.code(),
                    model = %model_id,
                    "preparing the demo's model data"
                );
                run(store, model, model_id, task, &progress, stop).await
            }
            Some(Err(e)) => Err(format!("the default model did not load: {e} (scripts/fetch_model.sh)").into()),
            None => Err("the default model was not loaded".into()),
        };
        if stop.load(Ordering::SeqCst) {
            return Ok(Ended::Stopped);
        }
        if let Err(e) = outcome {
            if e.is_unavailable() {
                return Err(format!("{} {}: {e} (the next start goes on with it)", task.mode.code(), task.language).into());
            }
            failed.push(format!("{} {}: {e} (`gapwise {}` runs it)", task.mode.code(), task.language, by_hand(&task)));
        }
        left = left.without(at);
        store.first_start().set_steps_to_prepare(left.0).await?;
    }
    Ok(Ended::Done(failed))
}

/// The command that runs `task` by hand.
fn by_hand(task: &Task) -> String {
    let language = task.language;
    match task.mode {
        Mode::Play => format!("score --language {language}"),
        Mode::Rate => format!("select-contexts --language {language}"),
        // the cloze game has no task (`Prepared::Nothing`): the model words it shows
        // are the next-word game's predictions, which this command makes
        Mode::Guess | Mode::Cloze => format!("score-guess --language {language}"),
        Mode::Define => "score-define".to_owned(),
        Mode::NewWords => "score-new-words".to_owned(),
    }
}

/// One task with its language's model.
async fn run(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &ModelId,
    task: Task,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Result<(), CliError> {
    let (language, first) = (task.language, task.part == Part::First);
    match task.mode {
        Mode::Play => {
            models::items(store, loaded, model_id, Some(language), 64, stop, progress).await?;
        }
        Mode::Rate => {
            let pairs = first.then_some(FIRST_RATING_PAIRS);
            let selection = crate::runs::select_contexts::Selection { pairs, sample: RATING_SAMPLE, ..Default::default() };
            crate::runs::select_contexts::select_contexts(store, loaded.scorer.clone(), model_id, language, selection, progress).await?;
        }
        Mode::Guess => {
            let sentences = if first { NEXT_WORD_SENTENCES[0] } else { NEXT_WORD_SENTENCES[1] - NEXT_WORD_SENTENCES[0] };
            let how = crate::runs::score_guess::Guessing { language: language.to_owned(), sentences, seed: 1, for_games: true };
            let facts = models::WordFactSources { wordfreq: None, vectors: None, neighbours: 10 };
            models::next_words(store, loaded, model_id, &how, facts, stop, progress).await?;
        }
        Mode::Define => {
            let how = crate::runs::score_define::Scoring {
                tasks: DefinitionTask::ALL.to_vec(),
                max_size: gapwise_model::DEFAULT_DEFINITION_CAP,
                groups: DEFINITION_GROUPS,
                seed: 1,
            };
            models::definitions(store, loaded, model_id, &how, stop, progress).await?;
        }
        Mode::NewWords => {
            let how = crate::runs::score_new_words::Judging {
                words: PlayedWord::ALL.to_vec(),
                teachings: Teaching::ALL.to_vec(),
                shots: 0,
                items: NEW_WORD_ITEMS,
                seed: 1,
            };
            models::new_words(store, loaded, model_id, &how, stop, progress).await?;
        }
        // the plan has no cloze task: the game plays the corpus as it is, and shows
        // the next-word game's predictions as its model words
        Mode::Cloze => {}
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
