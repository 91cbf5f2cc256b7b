//! lm-evaluation-harness as a scorer: the real lm-eval 0.4.13, run over the tasks
//! `gapwise export-task` wrote from server/fixtures/lm_eval/gapwise.db with a tiny
//! stand-in on the Hugging Face backend (server/fixtures/make_lm_eval_run.py; its
//! `--log_samples` output is the fixture), imported with `gapwise import-scores`,
//! stores the same scores as `gapwise score`, `score-guess` and `score-new-words` with
//! the same stand-in, within 1e-4, and the same winner for every item; the imported
//! model is on the leaderboard, in the report and in the export; the same numbers as
//! plain JSON Lines and CSV import alike; and what must be refused is, by name, with
//! nothing stored.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sqlx::Row;

use crate::common::cli;

const TOLERANCE: f64 = 1e-4;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lm_eval")
}

fn stand_in() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scorer/fixtures/conventions/gpt2").display().to_string()
}

/// A copy of the fixture's database (the one the tasks were written from), its URL.
fn database(dir: &Path) -> String {
    let db = dir.join("gapwise.db");
    std::fs::copy(fixtures().join("gapwise.db"), &db).expect("copy the database");
    format!("sqlite://{}", db.display())
}

fn ok(url: &str, args: &[&str]) -> String {
    let (ok, said) = cli(url, args);
    assert!(ok, "gapwise {}: {said}", args.join(" "));
    said
}

/// Refused as bad input (exit code 2), saying `why`.
fn refused(url: &str, args: &[&str], why: &str) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gapwise")).args(args).env("DATABASE_URL", url).output().expect("run");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.code() == Some(2) && said.contains(why), "gapwise {} should exit 2 with {why:?}: {said}", args.join(" "));
}

async fn pool(url: &str) -> sqlx::SqlitePool {
    sqlx::SqlitePool::connect(url).await.expect("open")
}

/// A model's stored context scores by (pair, sentence).
async fn contexts(url: &str, model: &str) -> BTreeMap<(i64, i64), (f64, f64)> {
    let rows = sqlx::query("SELECT pair_id, sentence_id, target_logprob, distractor_logprob FROM context_scores WHERE model_id = ?")
        .bind(model)
        .fetch_all(&pool(url).await)
        .await
        .expect("context scores");
    rows.iter().map(|r| ((r.get(0), r.get(1)), (r.get(2), r.get(3)))).collect()
}

async fn item_scores(url: &str, model: &str) -> BTreeMap<i64, f64> {
    let rows = sqlx::query("SELECT item_id, score FROM item_scores WHERE model_id = ?")
        .bind(model)
        .fetch_all(&pool(url).await)
        .await
        .expect("items");
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// A model's word log-probabilities (pieces) by (sentence, position), where it has one.
async fn words(url: &str, model: &str) -> BTreeMap<(i64, i64), Option<f64>> {
    let rows = sqlx::query("SELECT sentence_id, position, word_log_prob FROM guess_predictions WHERE model_id = ?")
        .bind(model)
        .fetch_all(&pool(url).await)
        .await
        .expect("predictions");
    rows.iter().map(|r| ((r.get(0), r.get(1)), r.get(2))).collect()
}

async fn judgements(url: &str, model: &str) -> BTreeMap<(String, String, String), (f64, f64)> {
    let rows = sqlx::query(
        "SELECT item_id, word, teaching, log_likelihood_a, log_likelihood_b FROM new_words_judgements WHERE model_id = ? AND shots = 0",
    )
    .bind(model)
    .fetch_all(&pool(url).await)
    .await
    .expect("judgements");
    rows.iter().map(|r| ((r.get(0), r.get(1), r.get(2)), (r.get(3), r.get(4)))).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE
}

/// The lm-eval run's samples as plain rows: (id, log-probabilities).
fn samples() -> Vec<(String, Vec<f64>)> {
    let mut rows = Vec::new();
    for entry in std::fs::read_dir(fixtures().join("out")).expect("out") {
        let path = entry.expect("entry").path();
        if !path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("samples_")) {
            continue;
        }
        for line in std::fs::read_to_string(&path).expect("samples").lines() {
            let sample: Value = serde_json::from_str(line).expect("JSON");
            let values = sample["filtered_resps"].as_array().expect("resps");
            let lps = values.iter().map(|v| v[0].as_str().map_or_else(|| v[0].as_f64(), |s| s.parse().ok()).expect("number")).collect();
            rows.push((sample["doc"]["id"].as_str().expect("id").to_owned(), lps));
        }
    }
    rows
}

/// A copy of the run's output with `edit` applied to the samples file of `task`.
fn edited_run(into: &Path, task: &str, edit: impl Fn(Vec<String>) -> Vec<String>) -> String {
    edited_run_of(&fixtures().join("out"), into, task, edit)
}

/// A copy of the run in `run` with `edit` applied to the samples file of `task`.
fn edited_run_of(run: &Path, into: &Path, task: &str, edit: impl Fn(Vec<String>) -> Vec<String>) -> String {
    let out = into.join(format!("edited-{task}"));
    std::fs::create_dir_all(&out).expect("dir");
    for entry in std::fs::read_dir(run).expect("out") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("read");
        let text = if name.starts_with(&format!("samples_{task}_")) {
            let lines = edit(text.lines().map(str::to_owned).collect());
            lines.join("\n") + "\n"
        } else {
            text
        };
        std::fs::write(out.join(&name), text).expect("write");
    }
    out.display().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_lm_eval_run_imports_as_the_scores_gapwise_makes() {
    let work = tempfile::tempdir().expect("tmp");
    let url = database(work.path());
    let run = fixtures().join("out").display().to_string();
    let said = ok(&url, &["import-scores", &run, "--model-id", "lm-eval-gpt2"]);
    assert!(said.contains("lm-eval-gpt2") && said.contains("substitution"), "{said}");
    let model: (String, String) = sqlx::query_as("SELECT source, convention FROM models WHERE id = 'lm-eval-gpt2'")
        .fetch_one(&pool(&url).await)
        .await
        .expect("the model's receipt");
    assert!(
        model.1.contains("lm-evaluation-harness 0.4.13") && model.1.contains("hf backend") && model.1.contains("<|endoftext|>"),
        "{model:?}"
    );
    assert!(model.1.contains("float64"), "the precision: {model:?}");

    // the same stand-in, scored here
    let gpt2 = stand_in();
    ok(&url, &["score", "--model", &gpt2, "--model-id", "here"]);
    let (theirs, ours) = (contexts(&url, "lm-eval-gpt2").await, contexts(&url, "here").await);
    assert!(theirs.len() >= 50, "a run of some size: {} contexts", theirs.len());
    assert_eq!(theirs.keys().collect::<Vec<_>>(), ours.keys().collect::<Vec<_>>(), "the same contexts");
    for (key, (t, d)) in &theirs {
        let (ot, od) = ours[key];
        assert!(close(*t, ot) && close(*d, od), "{key:?}: lm-eval ({t}, {d}), gapwise ({ot}, {od})");
    }
    let (theirs, ours) = (item_scores(&url, "lm-eval-gpt2").await, item_scores(&url, "here").await);
    assert_eq!(theirs.len(), ours.len());
    for (item, score) in &theirs {
        assert_eq!(score.signum(), ours[item].signum(), "item {item}: the same winner ({score} vs {})", ours[item]);
        assert!(close(*score, ours[item]), "item {item}");
    }

    // next words: the same pieces' sums where Gapwise gives the word a value
    for lang in ["en", "es", "fr", "it", "ru"] {
        // the sentences the tasks were exported with (--sentences 20)
        ok(&url, &["score-guess", "--model", &gpt2, "--model-id", "here", "--language", lang, "--sentences", "20"]);
    }
    let (theirs, ours) = (words(&url, "lm-eval-gpt2").await, words(&url, "here").await);
    assert_eq!(theirs.keys().collect::<Vec<_>>(), ours.keys().collect::<Vec<_>>(), "the same positions");
    let mut compared = 0;
    let unscored: Vec<String> =
        sqlx::query_scalar("SELECT word_unscored FROM guess_predictions WHERE model_id = 'lm-eval-gpt2' AND word_log_prob IS NULL")
            .fetch_all(&pool(&url).await)
            .await
            .expect("unscored");
    assert!(unscored.iter().all(|why| why.contains("glued to the text before it")), "only glued words unscored: {unscored:?}");
    for (key, theirs) in &theirs {
        let Some(theirs) = theirs else { continue };
        if let Some(ours) = ours.get(key).expect("a position scored here too") {
            assert!(close(*theirs, *ours), "{key:?}: lm-eval {theirs}, gapwise {ours}");
            compared += 1;
        }
    }
    assert!(compared * 10 >= theirs.len() * 9, "most words compared: {compared} of {}", theirs.len());

    // invented words: each option's partial score
    ok(&url, &["score-new-words", "--model", &gpt2, "--model-id", "here", "--shots", "0"]);
    let (theirs, ours) = (judgements(&url, "lm-eval-gpt2").await, judgements(&url, "here").await);
    assert!(!theirs.is_empty());
    assert_eq!(theirs.keys().collect::<Vec<_>>(), ours.keys().collect::<Vec<_>>(), "the same setups");
    for (key, (t0, t1)) in &theirs {
        let (o0, o1) = ours[key];
        assert!(close(*t0, o0) && close(*t1, o1), "{key:?}: lm-eval ({t0}, {t1}), gapwise ({o0}, {o1})");
    }

    // on the leaderboard, in the report and in the export like a model scored here,
    // once people have played
    {
        let store = gapwise_store::Store::open(&url).await.expect("open");
        gapwise_engine::testing::play(&gapwise_engine::Engine::new(store.clone()), 4, 6).await;
        store.close().await;
    }
    let report = work.path().join("report");
    ok(&url, &["report", "--out", &report.display().to_string()]);
    let leaderboard = std::fs::read_to_string(report.join("table5_mcc.csv")).expect("table 5");
    assert!(leaderboard.contains("lm-eval-gpt2") && leaderboard.contains("here"), "{leaderboard}");
    let irt = std::fs::read_to_string(report.join("irt_abilities.csv")).expect("IRT abilities");
    assert!(irt.contains("lm-eval-gpt2"), "{irt}");
    let export = work.path().join("export");
    ok(&url, &["export", "--out", &export.display().to_string(), "--format", "csv"]);
    let card = std::fs::read_to_string(export.join("README.md")).expect("the export's card");
    assert!(card.contains("lm-eval-gpt2") && card.contains("lm-evaluation-harness 0.4.13"), "{card}");
    let answers = std::fs::read_to_string(export.join("answers.csv")).expect("answers");
    assert!(answers.lines().next().is_some_and(|h| h.contains("score_lm-eval-gpt2")), "a column of its scores");

    // the same numbers as plain files import alike
    let rows = samples();
    let jsonl: String = rows.iter().map(|(id, lps)| format!("{}\n", serde_json::json!({"id": id, "log_probs": lps}))).collect();
    let plain = work.path().join("scores.jsonl");
    std::fs::write(&plain, jsonl).expect("jsonl");
    let csv: String = rows.iter().flat_map(|(id, lps)| lps.iter().enumerate().map(move |(i, lp)| format!("{id},{i},{lp}\n"))).collect();
    let plain_csv = work.path().join("scores.csv");
    std::fs::write(&plain_csv, format!("id,choice,log_prob\n{csv}")).expect("csv");
    refused(&url, &["import-scores", &plain.display().to_string(), "--model-id", "plain"], "--convention");
    for (file, id) in [(&plain, "plain-jsonl"), (&plain_csv, "plain-csv")] {
        ok(&url, &["import-scores", &file.display().to_string(), "--model-id", id, "--convention", "lm-eval 0.4.13, by a script"]);
        assert_eq!(contexts(&url, id).await, contexts(&url, "lm-eval-gpt2").await, "{id}");
        assert_eq!(words(&url, id).await, words(&url, "lm-eval-gpt2").await, "{id}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn what_cannot_be_imported_is_refused_by_name_with_nothing_stored() {
    let work = tempfile::tempdir().expect("tmp");
    let url = database(work.path());
    let task = "gapwise_substitution_en";
    // an id that names nothing here
    let unknown = edited_run(work.path(), task, |mut lines| {
        lines[0] = lines[0].replacen("\"substitution/", "\"substitution/9999", 1);
        lines
    });
    refused(&url, &["import-scores", &unknown], "ids name nothing in this database");
    // documents missing
    let missing = edited_run(work.path(), task, |lines| lines[3..].to_vec());
    refused(&url, &["import-scores", &missing], "3 of its documents are missing");
    // a row twice
    let twice = edited_run(work.path(), task, |mut lines| {
        lines.push(lines[0].clone());
        lines
    });
    refused(&url, &["import-scores", &twice], "given twice");
    // tasks of another database
    let other = format!("sqlite://{}", work.path().join("other.db").display());
    ok(
        &other,
        &["import", "sentences", &Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/demo/en_sentences.tsv").display().to_string()],
    );
    refused(&other, &["import-scores", &fixtures().join("out").display().to_string()], "another database");
    // a model id that holds scores of another convention
    ok(&url, &["score", "--model", &stand_in(), "--model-id", "here", "--language", "en"]);
    refused(&url, &["import-scores", &fixtures().join("out").display().to_string(), "--model-id", "here"], "made another way");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM context_scores WHERE model_id <> 'here'")
        .fetch_one(&pool(&url).await)
        .await
        .expect("count");
    assert_eq!(stored, 0, "nothing stored by a refused import");
}

/// docs/src/models/large.md word by word: the printed `lm_eval` command run in two
/// halves over one export (the substitution tasks, then the others beside a task
/// that is not Gapwise's) imports under one model id, as the whole run does; the
/// receipt names the precision and the prefix token read; the printed command is
/// the one that made the fixture's receipt (float64).
#[tokio::test(flavor = "multi_thread")]
async fn a_run_split_in_two_as_the_manual_says_joins_under_one_model() {
    let work = tempfile::tempdir().expect("tmp");
    let url = database(work.path());
    let command = std::fs::read_to_string(fixtures().join("command.txt")).expect("command.txt");
    let printed = command.lines().find(|l| l.starts_with("lm_eval ")).expect("the printed command");
    assert!(printed.contains("pretrained=MODEL,dtype=float64,logits_cache=False"), "{printed}");
    let split = fixtures().join("split");
    let half = |name: &str| split.join(name).display().to_string();
    let said = ok(&url, &["import-scores", &half("substitution"), "--model-id", "split"]);
    assert!(said.contains("substitution") && !said.contains("guess"), "{said}");
    let said = ok(&url, &["import-scores", &half("others"), "--model-id", "split"]);
    assert!(said.contains("not Gapwise's and not imported: other_words"), "{said}");
    ok(&url, &["import-scores", &fixtures().join("out").display().to_string(), "--model-id", "whole"]);
    let (split_contexts, whole_contexts) = (contexts(&url, "split").await, contexts(&url, "whole").await);
    assert_eq!(split_contexts.len(), whole_contexts.len());
    for (key, (t, d)) in &whole_contexts {
        let (st, sd) = split_contexts[key];
        assert!(close(*t, st) && close(*d, sd), "{key:?}");
    }
    let (split_words, whole_words) = (words(&url, "split").await, words(&url, "whole").await);
    assert_eq!(split_words.keys().collect::<Vec<_>>(), whole_words.keys().collect::<Vec<_>>());
    assert_eq!(judgements(&url, "split").await.len(), judgements(&url, "whole").await.len());
    let convention: String =
        sqlx::query_scalar("SELECT convention FROM models WHERE id = 'split'").fetch_one(&pool(&url).await).await.expect("the receipt");
    assert!(convention.contains("precision torch.float64"), "{convention}");
    assert!(convention.contains("the tokenizer's BOS \"<|endoftext|>\" (id 0)"), "{convention}");
}

/// A rerun whose values differ from those stored is refused by name, with nothing
/// changed, and replaces them with --replace; the same values again store nothing
/// new; --convention is for plain files only; --sentences narrows the guess tasks to
/// the sentences score-guess predicts, and an import of such an export checks the run
/// against that selection.
#[tokio::test(flavor = "multi_thread")]
async fn a_rerun_with_other_values_is_refused_or_replaced_and_a_selection_imports() {
    let work = tempfile::tempdir().expect("tmp");
    let url = database(work.path());
    let run = fixtures().join("out").display().to_string();
    ok(&url, &["import-scores", &run, "--model-id", "m"]);
    let before = contexts(&url, "m").await;
    ok(&url, &["import-scores", &run, "--model-id", "m"]);
    assert_eq!(contexts(&url, "m").await, before, "a repeat stores nothing new");
    let shift = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .map(|line| {
                let mut sample: Value = serde_json::from_str(&line).expect("JSON");
                for resp in sample["filtered_resps"].as_array_mut().expect("resps") {
                    let lp: f64 = resp[0].as_str().map_or_else(|| resp[0].as_f64(), |s| s.parse().ok()).expect("number");
                    resp[0] = serde_json::json!(lp + 1.0);
                }
                sample.to_string()
            })
            .collect()
    };
    let shifted = edited_run(work.path(), "gapwise_substitution_en", shift);
    // a rerun of the English substitution task alone
    for entry in std::fs::read_dir(&shifted).expect("run") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        if name.starts_with("samples_") && !name.starts_with("samples_gapwise_substitution_en_") {
            std::fs::remove_file(path).expect("remove");
        }
    }
    let (words_before, items_before) = (words(&url, "m").await, item_scores(&url, "m").await.len());
    refused(&url, &["import-scores", &shifted, "--model-id", "m"], "stored under m with other values");
    assert_eq!(contexts(&url, "m").await, before, "nothing changed by a refused import");
    let said = ok(&url, &["import-scores", &shifted, "--model-id", "m", "--replace"]);
    assert!(said.contains("replacing"), "{said}");
    let after = contexts(&url, "m").await;
    let moved = before.iter().filter(|(k, (t, _))| (after[*k].0 - t - 1.0).abs() < 1e-9).count();
    let kept = before.iter().filter(|(k, v)| after.get(*k) == Some(*v)).count();
    assert!(moved > 0 && moved + kept == before.len() && after.len() == before.len(), "the English contexts moved by 1, the others stayed");
    assert_eq!(words(&url, "m").await, words_before, "the next-word scores, not in the rerun, stayed");
    assert_eq!(item_scores(&url, "m").await.len(), items_before, "every item's score summed again");
    refused(&url, &["import-scores", &run, "--model-id", "m2", "--convention", "mine"], "--convention is for plain files");

    // a selection of the guess tasks: export, a run over exactly its documents, import
    refused(&url, &["export-task", "--mode", "substitution", "--sentences", "1", "x"], "--sentences narrows the guess tasks");
    let tasks = work.path().join("tasks");
    let said = ok(&url, &["export-task", "--mode", "guess", "--language", "en", "--sentences", "2", &tasks.display().to_string()]);
    assert!(said.contains("gapwise_guess_en"), "{said}");
    let values: BTreeMap<String, Vec<f64>> = samples().into_iter().collect();
    let docs = std::fs::read_to_string(tasks.join("gapwise_guess_en.jsonl")).expect("the task's documents");
    let sentences: std::collections::BTreeSet<&str> =
        docs.lines().map(|l| l.split("guess/").nth(1).and_then(|r| r.split('/').next()).expect("an id")).collect();
    assert_eq!(sentences.len(), 2, "two sentences");
    let samples_of_selection: Vec<String> = docs
        .lines()
        .map(|line| {
            let doc: Value = serde_json::from_str(line).expect("a document");
            let lp = values[doc["id"].as_str().expect("id")][0];
            serde_json::json!({"doc": doc, "filtered_resps": [[lp.to_string(), "False"]]}).to_string()
        })
        .collect();
    let selected = edited_run(work.path(), "gapwise_guess_en", |_| samples_of_selection.clone());
    // (the other tasks of the copied run are left out: only this task's samples stay)
    for entry in std::fs::read_dir(&selected).expect("run") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        if name.starts_with("samples_") && !name.starts_with("samples_gapwise_guess_en_") {
            std::fs::remove_file(path).expect("remove");
        }
    }
    let said = ok(&url, &["import-scores", &selected, "--model-id", "selected"]);
    assert!(said.contains(&format!("{} guess", docs.lines().count())), "{said}");
}
