//! The commands that run a model: finding and registering it, and each mode's
//! scoring run with its progress bar.

use crate::error::CliError;
use gapwise_model::{Language, ModelId};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gapwise_scorer::LoadedModel;
use gapwise_store::Store;
use indicatif::ProgressBar;

use super::args::ModelArgs;

/// Where scripts/fetch_model.sh caches the default model of a language: the
/// multilingual Gemma 3 for es, fr, it and ru, the English SmolLM2 otherwise.
pub(super) fn default_model(language: Option<Language>) -> PathBuf {
    let file = match language {
        Some(Language::Es | Language::Fr | Language::It | Language::Ru) => "gemma-3-270m-q4_k_m.gguf",
        _ => "SmolLM2-135M-Instruct.Q4_1.gguf",
    };
    models_dir().join(file)
}

/// The id the scores of [`default_model`] go under when it is loaded with the
/// default arguments ([`load_quietly`]): its file's name.
pub(super) fn default_model_id(language: Option<Language>) -> Result<ModelId, CliError> {
    Ok(ModelId::new(file_name(&default_model(language))?))
}

/// The name a model at `path` is known by: its file or directory name.
fn file_name(path: &std::path::Path) -> Result<String, CliError> {
    Ok(path.file_stem().map(|s| s.to_string_lossy().into_owned()).ok_or("the model path has no file name")?)
}

/// Where scripts/fetch_model.sh caches models and data: ~/.cache/gapwise/models
/// (GAPWISE_MODEL_DIR overrides it, as in the script).
pub(super) fn models_dir() -> PathBuf {
    match std::env::var_os("GAPWISE_MODEL_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".cache/gapwise/models"),
    }
}

pub(super) async fn score_definitions(store: &Store, args: ModelArgs, how: &crate::runs::score_define::Scoring) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, Some(Language::En)).await?;
    let run = Run::new(&model_id, "{pos}/{len} groups, {per_sec}")?;
    let done = definitions(store, &loaded, &model_id, how, &run.stop, &run.progress).await?;
    drop(run);
    println!("{model_id}: {done} groups scored");
    Ok(())
}

/// Scores word-definition groups with a loaded model; how many were scored.
pub(super) async fn definitions(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &ModelId,
    how: &crate::runs::score_define::Scoring,
    stop: &AtomicBool,
    progress: &ProgressBar,
) -> Result<usize, CliError> {
    let scorer =
        loaded.definitions.as_ref().ok_or_else(|| format!("{model_id}: an n-gram baseline cannot play the word-definition tasks"))?;
    crate::runs::score_define::score_definitions(store, scorer.as_ref(), model_id, how, stop, progress).await
}

pub(super) async fn score_new_words(store: &Store, args: ModelArgs, how: &crate::runs::score_new_words::Judging) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, Some(Language::En)).await?;
    let run = Run::new(&model_id, "{pos}/{len} judgements, {per_sec}")?;
    let done = new_words(store, &loaded, &model_id, how, &run.stop, &run.progress).await?;
    drop(run);
    println!("{model_id}: {done} invented-word judgements");
    Ok(())
}

/// Judges invented-word items with a loaded model; how many judgements were made.
pub(super) async fn new_words(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &ModelId,
    how: &crate::runs::score_new_words::Judging,
    stop: &AtomicBool,
    progress: &ProgressBar,
) -> Result<usize, CliError> {
    let model =
        loaded.continuations.as_ref().ok_or_else(|| format!("{model_id}: only causal language models judge invented-word items"))?;
    crate::runs::score_new_words::judge_new_words(store, model.as_ref(), model_id, how, stop, progress).await
}

pub(super) async fn score_next_words(
    store: &Store,
    args: ModelArgs,
    how: &crate::runs::score_guess::Guessing,
    facts: WordFactSources,
) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, Some(how.language)).await?;
    let run = Run::new(&model_id, "{pos}/{len} sentences, {per_sec}")?;
    let (done, words) = next_words(store, &loaded, &model_id, how, facts, &run.stop, &run.progress).await?;
    drop(run);
    println!("{model_id}: {done} sentences predicted; {words} new words described");
    Ok(())
}

/// Where the next-word analyses' word facts come from: wordfreq's frequencies (for
/// English, the copy scripts/fetch_model.sh caches when none is named), word
/// vectors, and how many neighbours are kept per word.
pub(super) struct WordFactSources {
    pub wordfreq: Option<PathBuf>,
    pub vectors: Option<PathBuf>,
    pub neighbours: usize,
}

/// Predicts next words with a loaded model, then describes the words guessed or
/// predicted; how many sentences were predicted and words described.
pub(super) async fn next_words(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &ModelId,
    how: &crate::runs::score_guess::Guessing,
    facts: WordFactSources,
    stop: &AtomicBool,
    progress: &ProgressBar,
) -> Result<(usize, usize), CliError> {
    let model = loaded.next_words.as_ref().ok_or_else(|| format!("{model_id}: only causal language models scored here guess next words (not n-gram baselines; not models behind a server, whose API does not return every next piece's probability)"))?;
    let done = crate::runs::score_guess::predict_sentences(store, model.as_ref(), model_id, how, stop, progress).await?;
    let cached = Some(models_dir().join("large_en.msgpack.gz")).filter(|p| how.language == Language::En && p.is_file());
    let frequencies = facts.wordfreq.or(cached).as_deref().map(gapwise_prepare::wordfreq::WordFrequencies::from_file).transpose()?;
    let vectors = facts.vectors.as_deref().map(gapwise_scorer::baseline::StaticVectors::from_path).transpose()?;
    let words =
        crate::runs::score_guess::add_word_facts(store, how.language, frequencies.as_ref(), vectors.as_ref(), facts.neighbours).await?;
    Ok((done, words))
}

/// A long run of a model: its progress bar, and a flag that Ctrl-C raises (the run
/// stops after the work in flight).
struct Run {
    progress: indicatif::ProgressBar,
    stop: Arc<AtomicBool>,
}

impl Run {
    /// A run of `model_id`; `counts` is what its bar counts (see [`progress_bar`]).
    fn new(model_id: &ModelId, counts: &str) -> Result<Run, CliError> {
        let stop = Arc::new(AtomicBool::new(false));
        let on_signal = stop.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_signal.store(true, Ordering::SeqCst);
                eprintln!("\nstopping after the work in flight; rerun to resume");
            }
        });
        Ok(Run { progress: progress_bar(0, counts, model_id.as_str())?, stop })
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.progress.finish_and_clear();
    }
}

/// Loads the model `args` name as [`load_quietly`] does, and says on standard output
/// the convention its scores follow (for the scoring commands).
pub(super) async fn load_model(
    store: &Store,
    args: ModelArgs,
    language: Option<Language>,
) -> Result<(gapwise_scorer::LoadedModel, ModelId), CliError> {
    let (loaded, model_id) = load_quietly(store, args, language).await?;
    println!("{model_id}: {}", loaded.convention);
    Ok((loaded, model_id))
}

/// Loads the model `args` name (the language's default when none is named),
/// registers it with the convention its scores follow, and returns it with the id
/// they are stored under.
pub(super) async fn load_quietly(
    store: &Store,
    args: ModelArgs,
    language: Option<Language>,
) -> Result<(gapwise_scorer::LoadedModel, ModelId), CliError> {
    let spec = args.model.clone().unwrap_or_else(|| default_model(language).display().to_string());
    let (loaded, model_id) = match crate::remote::Remote::parse(&spec) {
        Some((base, model)) => {
            let timeout = std::time::Duration::from_secs(args.timeout);
            let remote = crate::remote::Remote { base, model, start_text: args.start_text.clone(), parallel: args.parallel, timeout };
            let model_id = ModelId::new(args.model_id.clone().unwrap_or_else(|| remote.model.clone()));
            (remote.connect().await?, model_id)
        }
        None => load_local(&spec, &args)?,
    };
    let info = gapwise_store::ModelInfo::new(&model_id, loaded.kind, &spec, &loaded.convention);
    store.scores().register_model(&info).await?;
    Ok((loaded, model_id))
}

/// A model file, directory or Hub id, or a baseline, with the id its scores go under.
fn load_local(spec: &str, args: &ModelArgs) -> Result<(gapwise_scorer::LoadedModel, ModelId), CliError> {
    let path = if args.baseline.is_some() { PathBuf::from(spec) } else { gapwise_scorer::locate(spec)? };
    if !path.exists() {
        return Err(format!("{spec}: no such model (scripts/fetch_model.sh fetches the default ones: smollm2, gemma3)").into());
    }
    let loaded = match &args.baseline {
        Some(kind) => gapwise_scorer::load_baseline(kind, &path, args.add_k)?,
        None => gapwise_scorer::load(&path, &gapwise_scorer::device(&args.device)?, &args.conventions())?,
    };
    // a Hub id is named by its last part; a path by its file or directory name
    let name = if path.as_os_str() == spec { file_name(&path)? } else { spec.rsplit('/').next().unwrap_or(spec).to_owned() };
    let model_id = args.model_id.clone().unwrap_or_else(|| args.default_id(&name, loaded.kind));
    Ok((loaded, ModelId::new(model_id)))
}

/// A progress bar named `name`; `counts` is the indicatif template of what it counts,
/// e.g. `{pos}/{len} pairs, {per_sec}`.
pub(super) fn progress_bar(len: u64, counts: &str, name: &str) -> Result<indicatif::ProgressBar, CliError> {
    let style = indicatif::ProgressStyle::with_template(&format!("{{msg}} [{{bar:40}}] {counts}, ETA {{eta}}"))?;
    let progress = indicatif::ProgressBar::new(len).with_style(style.progress_chars("=> "));
    progress.set_message(name.to_owned());
    Ok(progress)
}

pub(super) async fn giveaway_check(
    store: &Store,
    args: ModelArgs,
    language: Language,
    pairs: usize,
    per_pair: usize,
) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, Some(language)).await?;
    let run = Run::new(&model_id, "{pos}/{len} pairs, {per_sec}")?;
    let check = crate::runs::giveaway_check::check(store, loaded.scorer.as_ref(), language, pairs, per_pair, &run.progress).await?;
    drop(run);
    let from = crate::runs::giveaway_check::FROM_BEFORE;
    println!("{model_id}, {language}: contexts whose target leads by >= {from} nat more with the word before the blank than without it");
    println!("  before the rules: {}", check.before_rules);
    println!("  kept by the rules: {}", check.kept);
    for (reason, share) in &check.dropped {
        println!("  dropped for {}: {share}", reason.code());
    }
    Ok(())
}

pub(super) async fn select_contexts(
    store: &Store,
    args: ModelArgs,
    language: Language,
    selection: crate::runs::select_contexts::Selection,
) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, Some(language)).await?;
    let run = Run::new(&model_id, "{pos}/{len} pairs, {per_sec}")?;
    let report = crate::runs::select_contexts::select_contexts(store, loaded.scorer, &model_id, language, selection, &run.progress).await?;
    drop(run);
    println!(
        "{model_id}: {} pairs, {} Likert items published, {} pairs without a free sentence",
        report.pairs, report.items, report.pairs_without_sentences
    );
    Ok(())
}

pub(super) async fn score(store: &Store, args: ModelArgs, language: Option<Language>, batch: usize) -> Result<(), CliError> {
    let (loaded, model_id) = load_model(store, args, language).await?;
    let run = Run::new(&model_id, "{pos}/{len} contexts, {per_sec}")?;
    let report = items(store, &loaded, &model_id, language, batch, &run.stop, &run.progress).await?;
    drop(run);
    println!(
        "{model_id}: {} contexts scored, {} items got their Eq. 2 score{}",
        report.contexts,
        report.items,
        if report.interrupted { " (interrupted: rerun to resume)" } else { "" }
    );
    Ok(())
}

/// Scores the game's items (of `language`, or all) with a loaded model, `batch`
/// contexts at a time; `progress` counts the contexts left to score.
pub(super) async fn items(
    store: &Store,
    loaded: &LoadedModel,
    model_id: &ModelId,
    language: Option<Language>,
    batch: usize,
    stop: &AtomicBool,
    progress: &ProgressBar,
) -> Result<crate::runs::score::ScoreReport, CliError> {
    let todo = store.scores().count_contexts_to_score(model_id, language).await?;
    progress.set_length(u64::try_from(todo)?);
    crate::runs::score::score_items(store, loaded.scorer.clone(), model_id, language, batch, stop, progress).await
}
