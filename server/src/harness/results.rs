//! `gapwise import-scores`: scores made elsewhere, stored under a model id with the
//! receipt of how they were made, exactly where `gapwise score` and the other scoring
//! commands store theirs (so the model joins the leaderboard, the report and the
//! export). Two inputs:
//! - lm-evaluation-harness's `--log_samples` output for tasks `gapwise export-task`
//!   wrote (`samples_<task>_<time>.jsonl` beside `results_<time>.json`, whose
//!   configuration, harness version, backend, model arguments and precision make
//!   the receipt);
//! - a plain file of per-request log-probabilities (what minicons or any script
//!   writes): JSON Lines `{"id": ID, "log_probs": [..]}` (or `"log_prob": x`), or CSV
//!   with the columns `id,choice,log_prob`; its receipt is the convention given.
//!
//! Refused, by name and before anything is stored: an id that names no request of
//! this database, a document of another database, a task with documents missing (how
//! many), a request given twice, a number of log-probabilities other than the
//! request's, a convention other than the one already stored under the model id,
//! `--convention` for an lm-eval run (its receipt is read from the run), and values
//! other than those already stored for the same requests (unless `--replace`, which
//! removes the model's stored values of the run's requests first, and nothing else). A repeat of an import with
//! the same values stores nothing. Tasks of a run that are not Gapwise's are named
//! and left alone.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use gapwise_model::{DefinitionTask, ModelId, PlayedWord, Teaching};
use gapwise_store::{ContextScore, ModelInfo, NewWordsJudgement, NewWordsSetup, Prediction, ScoreKeys, Store};
use serde_json::Value;

use super::tasks::{docs, languages, task_name, Selection, GLUED};
use super::{Request, TaskMode};

type Error = crate::error::CliError;

/// What scored the requests, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// The model's name as the tool gave it.
    pub model: String,
    /// Where the scores came from (a tool and what it ran).
    pub source: String,
    /// How they were made, every choice named (stored as the model's convention).
    pub convention: String,
}

/// One request's log-probabilities: one per choice or input, in order.
type Scores = BTreeMap<Request, Vec<f64>>;

/// What an import stored.
#[derive(Debug)]
pub struct Imported {
    pub model_id: ModelId,
    /// Requests stored, per mode.
    pub requests: BTreeMap<TaskMode, usize>,
    /// The run's tasks that are not Gapwise's, left alone.
    pub other_tasks: Vec<String>,
    /// Whether the model's scores of these modes were replaced (`--replace`).
    pub replaced: bool,
}

/// What an lm-eval run holds: its scores, the databases its documents name, its
/// receipt, and its tasks that are not Gapwise's.
struct LmEvalRun {
    scores: Scores,
    databases: BTreeSet<String>,
    receipt: Receipt,
    other_tasks: Vec<String>,
}

/// How many log-probabilities a request of `mode` has.
fn expected(mode: TaskMode) -> usize {
    match mode {
        TaskMode::Substitution | TaskMode::NewWords => 2,
        TaskMode::Define | TaskMode::Guess => 1,
    }
}

/// A number as lm-eval writes it (a number, or its text).
fn number(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str()?.parse().ok())
}

/// Adds `id`'s `log_probs` to `scores`, refusing what the module says; the mode of
/// its request.
fn add(scores: &mut Scores, id: &str, log_probs: Vec<f64>, at: &str) -> Result<TaskMode, Error> {
    let request =
        Request::parse(id).ok_or_else(|| format!("{at}: {id:?} names no Gapwise request (ids are written by gapwise export-task)"))?;
    let mode = request.mode();
    let want = expected(mode);
    if log_probs.len() != want || log_probs.iter().any(|l| !l.is_finite()) {
        return Err(format!("{at}: {id} needs {want} finite log-probabilities, not {log_probs:?}").into());
    }
    if scores.insert(request, log_probs).is_some() {
        return Err(format!("{at}: {id} is given twice").into());
    }
    Ok(mode)
}

/// The lm-eval run in `path` (its results file, or a folder holding one run's output).
fn read_lm_eval(path: &Path) -> Result<LmEvalRun, Error> {
    let results = match path.is_dir() {
        true => {
            let mut found = Vec::new();
            collect(path, &mut |p| {
                if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("results_") && n.ends_with(".json")) {
                    found.push(p.to_owned());
                }
            })?;
            match found.as_slice() {
                [one] => one.clone(),
                [] => {
                    return Err(format!(
                        "{}: no lm-eval results_*.json in it (run lm_eval with --output_path and --log_samples)",
                        path.display()
                    )
                    .into())
                }
                many => {
                    let names: Vec<String> = many.iter().map(|p| p.display().to_string()).collect();
                    return Err(
                        format!("{} holds several lm-eval runs: name one results file ({})", path.display(), names.join(", ")).into()
                    );
                }
            }
        }
        false => path.to_owned(),
    };
    let text = std::fs::read_to_string(&results).map_err(|e| format!("{}: {e}", results.display()))?;
    let run: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", results.display()))?;
    let stamp =
        results.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix("results_")?.strip_suffix(".json")).unwrap_or_default();
    let folder = results.parent().unwrap_or(Path::new("."));
    let mut scores = Scores::new();
    let mut databases = BTreeSet::new();
    let mut starts = BTreeSet::new();
    let mut other_tasks = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))? {
        let file = entry?.path();
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let Some(task) = name.strip_prefix("samples_").and_then(|n| n.strip_suffix(&format!("_{stamp}.jsonl"))) else { continue };
        if !task.starts_with("gapwise_") {
            other_tasks.push(task.to_owned());
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = format!("{} line {}", file.display(), n + 1);
            let sample: Value = serde_json::from_str(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
            let doc = |field: &str| sample.pointer(&format!("/doc/{field}")).and_then(Value::as_str);
            let id = doc("id").ok_or_else(|| format!("{at}: the document has no Gapwise id (not a task of gapwise export-task)"))?;
            databases.insert(doc("database").unwrap_or_default().to_owned());
            let log_probs = sample
                .get("filtered_resps")
                .and_then(Value::as_array)
                .map(|r| r.iter().map(|x| number(x.get(0).unwrap_or(x))).collect::<Option<Vec<f64>>>())
                .ok_or_else(|| format!("{at}: no filtered_resps"))?
                .ok_or_else(|| format!("{at}: a response that is not a log-probability"))?;
            // every document carries its export's start text (substitution's read the
            // harness's prefix token all the same), so runs of parts of one export agree
            starts.insert(doc("start_text").unwrap_or_default().to_owned());
            add(&mut scores, id, log_probs, &at)?;
        }
    }
    other_tasks.sort();
    if files == 0 {
        let others = match other_tasks.as_slice() {
            [] => String::new(),
            tasks => format!(" (its tasks are not Gapwise's: {})", tasks.join(", ")),
        };
        return Err(format!(
            "{}: no samples_gapwise_*_{stamp}.jsonl beside it (run lm_eval with --log_samples){others}",
            results.display()
        )
        .into());
    }
    if starts.len() > 1 {
        return Err(format!(
            "{}: tasks exported with different start texts ({starts:?}): import them one run at a time",
            results.display()
        )
        .into());
    }
    let receipt = receipt(&run, starts.first().map_or("", String::as_str));
    Ok(LmEvalRun { scores, databases, receipt, other_tasks })
}

/// The receipt of an lm-eval run from its results file, its contexts after `start`.
fn receipt(run: &Value, start: &str) -> Receipt {
    let config = &run["config"];
    let args = match &config["model_args"] {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
            .collect::<Vec<_>>()
            .join(","),
        other => other.as_str().unwrap_or_default().to_owned(),
    };
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    let backend = text(&config["model"]);
    let model = run["model_name"].as_str().map(str::to_owned).unwrap_or_else(|| args.clone());
    let contexts = match start {
        "" => "a continuation after its context as the tokenizer reads it".to_owned(),
        start => format!("a continuation after {start:?} and its context"),
    };
    let precision =
        config["model_dtype"].as_str().map_or_else(|| "precision not recorded by the harness".to_owned(), |d| format!("precision {d}"));
    let convention = format!(
        "lm-evaluation-harness {} ({backend} backend, {args}; {precision}): loglikelihood requests; a sentence after {}; {contexts}; \
         words: the pieces' sum up to the word's end, no word-start correction; D2W: the whole word",
        text(&run["lm_eval_version"]),
        prefix_token(run),
    );
    Receipt { model, source: format!("lm-eval {backend}: {args}"), convention }
}

/// The token the harness read before a sentence, as its results file names the
/// tokenizer's: lm-eval's prefix token is the BOS where the tokenizer has one, else
/// its end-of-text token.
fn prefix_token(run: &Value) -> String {
    let named = |field: &str| {
        let token = run.get(field)?;
        let text = token.get(0).and_then(Value::as_str)?;
        let id = token.get(1).map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned));
        Some(format!("{text:?}{}", id.map_or_else(String::new, |id| format!(" (id {id})"))))
    };
    match (named("tokenizer_bos_token"), named("tokenizer_eos_token")) {
        (Some(bos), _) => format!("the harness's prefix token, the tokenizer's BOS {bos}"),
        (None, Some(eos)) => format!("the harness's prefix token, the tokenizer's EOS {eos} (it has no BOS)"),
        (None, None) => "the harness's prefix token (the tokenizer's BOS, else EOS; the results do not name it)".to_owned(),
    }
}

/// Calls `f` on every file under `dir`.
fn collect(dir: &Path, f: &mut dyn FnMut(&Path)) -> Result<(), Error> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, f)?;
        } else {
            f(&path);
        }
    }
    Ok(())
}

/// A plain file's scores (see the module).
fn read_plain(path: &Path) -> Result<Scores, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut scores = Scores::new();
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
        let mut rows: BTreeMap<String, BTreeMap<usize, f64>> = BTreeMap::new();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader.headers()?.iter().map(str::to_owned).collect();
        if header != ["id", "choice", "log_prob"] {
            return Err(format!("{}: the columns must be id,choice,log_prob, not {}", path.display(), header.join(",")).into());
        }
        for (n, row) in reader.records().enumerate() {
            let row = row?;
            let at = format!("{} line {}", path.display(), n + 2);
            let (id, choice, lp) = (row.get(0).unwrap_or_default(), row.get(1).unwrap_or_default(), row.get(2).unwrap_or_default());
            let choice: usize = choice.parse().map_err(|_| format!("{at}: choice {choice:?} is not 0, 1, ..."))?;
            let lp: f64 = lp.parse().map_err(|_| format!("{at}: log_prob {lp:?} is not a number"))?;
            if rows.entry(id.to_owned()).or_default().insert(choice, lp).is_some() {
                return Err(format!("{at}: {id} choice {choice} is given twice").into());
            }
        }
        for (id, choices) in rows {
            let at = format!("{}: {id}", path.display());
            if choices.keys().copied().ne(0..choices.len()) {
                return Err(format!("{at}: its choices must run 0, 1, ... without a gap").into());
            }
            add(&mut scores, &id, choices.into_values().collect(), &at)?;
        }
    } else {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = format!("{} line {}", path.display(), n + 1);
            let row: Value = serde_json::from_str(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
            let id = row.get("id").and_then(Value::as_str).ok_or_else(|| format!("{at}: no \"id\""))?;
            let log_probs = match (row.get("log_probs"), row.get("log_prob")) {
                (Some(Value::Array(values)), _) => values.iter().map(number).collect::<Option<Vec<f64>>>(),
                (_, Some(value)) => number(value).map(|x| vec![x]),
                _ => None,
            }
            .ok_or_else(|| format!("{at}: no \"log_probs\" list or \"log_prob\" number"))?;
            add(&mut scores, id, log_probs, &at)?;
        }
    }
    Ok(scores)
}

/// What must be scored whole: a next-word sentence (the unit `score-guess` scores,
/// so that a task exported with `--sentences` or a file of some sentences is whole
/// where it says it is), else the task (mode and language).
fn unit(request: &Request, task: String) -> String {
    match request {
        Request::Guess { sentence, .. } => format!("{task}, sentence {sentence}"),
        _ => task,
    }
}

/// Checks `scores` against the requests the database has: every id known, every
/// unit ([`unit`]) whole.
async fn check(store: &Store, scores: &Scores) -> Result<(), Error> {
    let modes: BTreeSet<TaskMode> = scores.keys().map(Request::mode).collect();
    let mut known: HashMap<Request, String> = HashMap::new();
    for mode in modes {
        for language in languages(mode, None)? {
            for doc in docs(store, mode, language, "", Selection::default()).await? {
                let unit = unit(&doc.request, task_name(mode, language));
                known.insert(doc.request, unit);
            }
        }
    }
    let unknown: Vec<String> = scores.keys().filter(|r| !known.contains_key(r)).map(ToString::to_string).collect();
    if let Some(first) = unknown.first() {
        return Err(
            format!("{} ids name nothing in this database (the first: {first}); were they written from another?", unknown.len()).into()
        );
    }
    let tasks: BTreeSet<&String> = scores.keys().filter_map(|r| known.get(r)).collect();
    for task in tasks {
        let missing: Vec<&Request> = known.iter().filter(|(r, t)| *t == task && !scores.contains_key(r)).map(|(r, _)| r).collect();
        if let Some(first) = missing.first() {
            return Err(format!(
                "{task}: {} of its documents are missing (one: {first}); score the whole task (lm_eval without --limit), or \
                 export it again (the database must not change between the export and the import)",
                missing.len()
            )
            .into());
        }
    }
    Ok(())
}

/// How an import is asked for: under which model id, with which convention (a plain
/// file's), and whether the model's stored scores of the run's modes are replaced.
pub struct ImportOptions {
    pub model_id: Option<String>,
    pub convention: Option<String>,
    pub replace: bool,
}

/// Imports the scores at `path` (see the module).
pub async fn import(store: &Store, path: &Path, options: ImportOptions) -> Result<Imported, Error> {
    let ImportOptions { model_id, convention, replace } = options;
    let plain = path.is_file() && !path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("results_"));
    let (scores, receipt, other_tasks) = if plain {
        let convention =
            convention.ok_or_else(|| format!("{}: a plain file needs --convention (what made the scores, and how)", path.display()))?;
        let model = model_id.clone().ok_or_else(|| format!("{}: a plain file needs --model-id", path.display()))?;
        (read_plain(path)?, Receipt { model, source: format!("file {}", path.display()), convention }, Vec::new())
    } else {
        if convention.is_some() {
            return Err(format!(
                "{}: --convention is for plain files; an lm-eval run's receipt is read from its results file",
                path.display()
            )
            .into());
        }
        let run = read_lm_eval(path)?;
        let ours = store.research().fingerprint().await?;
        if let Some(other) = run.databases.iter().find(|d| **d != ours) {
            return Err(format!("{}: the tasks were written from another database ({other}; this one is {ours})", path.display()).into());
        }
        (run.scores, run.receipt, run.other_tasks)
    };
    if scores.is_empty() {
        return Err(format!("{}: no scores in it", path.display()).into());
    }
    check(store, &scores).await?;
    let model_id = ModelId::new(model_id.unwrap_or_else(|| {
        let name = PathBuf::from(&receipt.model);
        name.file_name().map_or_else(|| receipt.model.clone(), |n| n.to_string_lossy().into_owned())
    }));
    // the way the scores were made first (refused when it is not the model's), then
    // the values (a new model id has none to differ from)
    store.scores().register_model(&ModelInfo::new(&model_id, "causal", &receipt.source, &receipt.convention)).await?;
    let stored = stored_values(store, &model_id).await?;
    let differing: Vec<(&Request, &Vec<f64>, &Vec<f64>)> =
        scores.iter().filter_map(|(r, given)| stored.get(r).filter(|old| !same(old, given)).map(|old| (r, old, given))).collect();
    if let (Some((first, old, given)), false) = (differing.first(), replace) {
        return Err(format!(
            "{} of these requests are stored under {model_id} with other values (one: {first}: stored {old:?}, given {given:?}); \
             import under another --model-id, or add --replace to replace {model_id}'s values of these requests",
            differing.len()
        )
        .into());
    }
    if replace {
        store.stored_scores().remove(&model_id, &keys(&scores)).await?;
    }
    let mut imported = Imported { model_id: model_id.clone(), requests: BTreeMap::new(), other_tasks, replaced: replace };
    store_scores(store, &model_id, &scores).await?;
    for request in scores.keys() {
        *imported.requests.entry(request.mode()).or_default() += 1;
    }
    Ok(imported)
}

/// The stored rows the requests of `scores` replace (a next-word sentence whole: it
/// is stored whole, its unscored words included).
fn keys(scores: &Scores) -> ScoreKeys {
    let mut keys = ScoreKeys::default();
    for request in scores.keys() {
        match request {
            Request::Substitution { pair, sentence } => keys.contexts.push((*pair, *sentence)),
            Request::NewWords { item, word, teaching } => {
                keys.judgements.push((item.clone(), word.code().to_owned(), teaching.code().to_owned()))
            }
            Request::Define { task, target, candidate } => {
                keys.definitions.push((task.code().to_owned(), target.clone(), candidate.clone()))
            }
            Request::Guess { sentence, .. } => keys.sentences.push(*sentence),
        }
    }
    keys.sentences.dedup();
    keys
}

/// Whether two requests' values are the same, as stored (a database's float may
/// round the last bit).
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12 * (1.0 + x.abs()))
}

/// `model`'s stored values, by the request they answer.
async fn stored_values(store: &Store, model: &ModelId) -> Result<Scores, Error> {
    let values = store.stored_scores().values(model).await?;
    let mut scores = Scores::new();
    for (pair, sentence, target, distractor) in values.contexts {
        scores.insert(Request::Substitution { pair, sentence }, vec![target, distractor]);
    }
    for (item, word, teaching, a, b) in values.judgements {
        if let (Some(word), Some(teaching)) = (PlayedWord::parse(&word), Teaching::parse(&teaching)) {
            scores.insert(Request::NewWords { item, word, teaching }, vec![a, b]);
        }
    }
    for (task, target, candidate, score) in values.definitions {
        if let Some(task) = DefinitionTask::parse(&task) {
            scores.insert(Request::Define { task, target, candidate }, vec![score]);
        }
    }
    for (sentence, position, log_prob) in values.words {
        if let (Some(log_prob), Ok(position)) = (log_prob, usize::try_from(position)) {
            scores.insert(Request::Guess { sentence, position }, vec![log_prob]);
        }
    }
    Ok(scores)
}

/// Stores each mode's scores where its scoring command stores them.
async fn store_scores(store: &Store, model: &ModelId, scores: &Scores) -> Result<(), Error> {
    let (mut contexts, mut judgements) = (Vec::new(), Vec::new());
    let mut definitions: BTreeMap<(gapwise_model::DefinitionTask, String), Vec<(String, f64)>> = BTreeMap::new();
    let mut guesses: BTreeMap<i64, BTreeMap<usize, f64>> = BTreeMap::new();
    for (request, lp) in scores {
        // add() let in only as many values as each request has
        match (request, lp.as_slice()) {
            (Request::Substitution { pair, sentence }, &[target, distractor]) => {
                contexts.push(ContextScore { pair: *pair, sentence_id: *sentence, target_logprob: target, distractor_logprob: distractor })
            }
            (Request::NewWords { item, word, teaching }, &[a, b]) => judgements.push(NewWordsJudgement {
                model: model.clone(),
                item_id: item.clone(),
                setup: NewWordsSetup { word: *word, teaching: teaching.code().to_owned(), shots: 0 },
                log_likelihoods: [a, b],
                choice: usize::from(b > a),
                // read back against the item's answer; not stored
                correct: false,
            }),
            (Request::Define { task, target, candidate }, &[x]) => {
                definitions.entry((*task, target.clone())).or_default().push((candidate.clone(), x))
            }
            (Request::Guess { sentence, position }, &[x]) => {
                guesses.entry(*sentence).or_default().insert(*position, x);
            }
            (request, values) => return Err(format!("{request}: {} values", values.len()).into()),
        }
    }
    if !contexts.is_empty() {
        store.scores().save_context_scores(model, &contexts).await?;
        store.scores().update_item_scores(model).await?;
    }
    if !judgements.is_empty() {
        store.new_words().save_judgements(&judgements).await?;
    }
    for ((task, target), scored) in definitions {
        store.define().save_scores(model, task, &target, &scored).await?;
    }
    for (sentence, positions) in guesses {
        // a harness gives no top words and no word-start correction
        let given = positions.into_iter().map(|(p, lp)| (p, Prediction { top: Vec::new(), log_prob: Ok((lp, None)) })).collect();
        store.guess().save_some_predictions(model, sentence, given, GLUED).await?;
    }
    Ok(())
}
