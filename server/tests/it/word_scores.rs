//! `gapwise score-guess` and `gapwise score-new-words` on a database, with a model of
//! every tokenizer layout of scorer/fixtures/conventions: what they store (each word's
//! log-probability both ways, or why it has none; each option's partial-scoring
//! log-likelihood) equals what minicons and lm-evaluation-harness gave for the same
//! text (reference.json, made by scorer/fixtures/make_conventions_reference.py),
//! within 1e-4, and each model is stored with a convention that names the rule.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use gapwise_model::PlayedWord;
use gapwise_store::testing::sqlite;
use gapwise_store::{NewWordsItemRecord, NewWordsVariant};
use serde::Deserialize;
use sqlx::Row;

use crate::common::cli as run;

const TOLERANCE: f64 = 1e-4;

#[derive(Deserialize)]
struct Reference {
    layouts: BTreeMap<String, Layout>,
    shared: HashMap<String, Shared>,
}

#[derive(Deserialize)]
struct Shared {
    from: String,
    files: Vec<String>,
}

#[derive(Deserialize)]
struct Layout {
    sentences: Vec<Sentence>,
    continuations: Vec<Continuation>,
}

#[derive(Deserialize)]
struct Sentence {
    lang: String,
    text: String,
    words: Vec<Word>,
}

#[derive(Deserialize)]
struct Word {
    word: String,
    log_prob: Option<f64>,
    corrected: Option<f64>,
}

#[derive(Deserialize)]
struct Continuation {
    item: String,
    option: String,
    log_prob: f64,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scorer/fixtures/conventions")
}

/// The model directory of `name` with the files it shares with another.
fn model_dir(reference: &Reference, name: &str, into: &Path) -> PathBuf {
    let dir = into.join(name);
    std::fs::create_dir_all(&dir).expect("dir");
    let copy = |from: &Path, file: &str| std::fs::copy(from.join(file), dir.join(file)).expect("copy");
    for entry in std::fs::read_dir(fixtures().join(name)).expect("fixture dir") {
        copy(&fixtures().join(name), &entry.expect("entry").file_name().to_string_lossy());
    }
    if let Some(shared) = reference.shared.get(name) {
        for file in &shared.files {
            copy(&fixtures().join(&shared.from), file);
        }
    }
    dir
}

fn gapwise(url: &str, args: &[&str]) {
    let (ok, text) = run(url, args);
    assert!(ok, "gapwise {}: {text}", args.join(" "));
}

fn close(stored: Option<f64>, theirs: Option<f64>) -> bool {
    match (stored, theirs) {
        (Some(a), Some(b)) => (a - b).abs() <= TOLERANCE,
        (None, None) => true,
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn stored_word_scores_and_judgements_equal_the_fields_tools() {
    let text = std::fs::read_to_string(fixtures().join("reference.json")).expect("reference.json");
    let reference: Reference = serde_json::from_str(&text).expect("reference JSON");
    let db = sqlite().await;
    let work = tempfile::tempdir().expect("tmp");

    // the sentences, imported as an admin imports them
    let sentences = &reference.layouts["gpt2"].sentences;
    let tsv = work.path().join("sentences.tsv");
    let rows: String = sentences.iter().map(|s| format!("{}\t{}\tfixture\ttest\n", s.lang, s.text)).collect();
    std::fs::write(&tsv, format!("lang\ttext\tsource\tgenre\n{rows}")).expect("tsv");
    gapwise(&db.url, &["import", "sentences", &tsv.display().to_string()]);
    // the invented-word items, played with their own words
    let mut items: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for c in &reference.layouts["gpt2"].continuations {
        items.entry(c.item.as_str()).or_default().push(c.option.as_str());
    }
    let records: Vec<NewWordsItemRecord> = items
        .iter()
        .enumerate()
        .map(|(i, (sentence, options))| NewWordsItemRecord {
            id: format!("item-{i}"),
            options: [options[0].to_owned(), options[1].to_owned()],
            answer: 0,
            pos: "noun".into(),
            definition: "a test item".into(),
            source: "scorer/fixtures/conventions".into(),
            variants: BTreeMap::from([(
                PlayedWord::Original,
                NewWordsVariant { lemma: options[0].to_owned(), sentence: (*sentence).to_owned(), taught: "-".into() },
            )]),
        })
        .collect();
    db.store.new_words().import(&records).await.expect("items");
    let languages: BTreeSet<&str> = sentences.iter().map(|s| s.lang.as_str()).collect();

    // a model id that holds scores of the rule before (its convention as then stored)
    // takes none of the new rule's: refused, nothing stored
    let before = "causal: sentence log-prob, the sum of its tokens' log-probs after bos <|endoftext|> (auto for gpt2); first token scored";
    db.store
        .scores()
        .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("gpt2-before"), "causal", "gpt2", before))
        .await
        .expect("model");
    let gpt2 = model_dir(&reference, "gpt2", work.path()).display().to_string();
    let (ok, said) = run(&db.url, &["score-guess", "--model", &gpt2, "--model-id", "gpt2-before", "--language", "en"]);
    assert!(!ok && said.contains("--model-id") && said.contains("words on the sentence's own pieces"), "{said}");
    let mixed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM guess_predictions WHERE model_id = 'gpt2-before'")
        .fetch_one(db.store.pool())
        .await
        .expect("count");
    assert_eq!(mixed, 0);

    let mut checked = (0, 0, 0);
    for (name, layout) in &reference.layouts {
        let dir = model_dir(&reference, name, work.path()).display().to_string();
        for lang in &languages {
            gapwise(&db.url, &["score-guess", "--model", &dir, "--model-id", name, "--language", lang, "--sentences", "20"]);
        }
        let stored = sqlx::query(
            "SELECT s.text, p.position, p.word, p.word_log_prob, p.word_log_prob_corrected, p.word_unscored \
             FROM guess_predictions p JOIN sentences s ON s.id = p.sentence_id WHERE p.model_id = $1",
        )
        .bind(name)
        .fetch_all(db.store.pool())
        .await
        .expect("predictions");
        let expected: usize = layout.sentences.iter().map(|s| s.words.len() - 1).sum();
        assert_eq!(stored.len(), expected, "{name}: every position of every sentence");
        for row in &stored {
            let (text, position): (String, i64) = (row.get(0), row.get(1));
            let sentence = layout.sentences.iter().find(|s| s.text == text).expect("a fixture sentence");
            let word = &sentence.words[usize::try_from(position).expect("position")];
            let at = format!("{name}: {:?} in {text:?}", word.word);
            assert_eq!(row.get::<String, _>(2), word.word, "{at}");
            let (pieces, corrected, why): (Option<f64>, Option<f64>, Option<String>) = (row.get(3), row.get(4), row.get(5));
            assert!(close(pieces, word.log_prob), "{at}: stored {pieces:?}, minicons {:?}", word.log_prob);
            assert!(close(corrected, word.corrected), "{at}: stored {corrected:?}, minicons {:?}", word.corrected);
            assert_eq!(why.is_some(), word.log_prob.is_none(), "{at}: a reason exactly where there is no value: {why:?}");
            if why.is_some() {
                checked.1 += 1;
            } else {
                checked.0 += 1;
            }
        }

        if layout.continuations.is_empty() {
            continue; // no start token: lm-eval has no prefix to read the prefix after
        }
        gapwise(&db.url, &["score-new-words", "--model", &dir, "--model-id", name, "--word", "original", "--teaching", "empty"]);
        let judgements: Vec<_> =
            db.store.new_words().judgements().await.expect("judgements").into_iter().filter(|j| j.model.as_str() == name).collect();
        assert_eq!(judgements.len(), records.len(), "{name}");
        for j in judgements {
            let item = records.iter().find(|r| r.id == j.item_id).expect("item");
            for (option, stored) in item.options.iter().zip(j.log_likelihoods) {
                let sentence = &item.variants[&PlayedWord::Original].sentence;
                let c = layout.continuations.iter().find(|c| c.item == *sentence && c.option == *option).expect("reference");
                assert!(
                    (stored - c.log_prob).abs() <= TOLERANCE,
                    "{name}: {option:?} in {sentence:?}: stored {stored}, lm-eval {}",
                    c.log_prob
                );
                checked.2 += 1;
            }
        }
        let info = db.store.scores().models_info(&[gapwise_model::ModelId::new(name.as_str())]).await.expect("model");
        assert!(info[0].convention.contains("words on the sentence's own pieces"), "{name}: {}", info[0].convention);
    }
    println!("{} words scored and {} without a log-probability, {} partial scores, as the references", checked.0, checked.1, checked.2);
    // without a log-probability: "1999" in the eight SentencePiece layouts, whose piece
    // "1999." holds the full stop (a contraction's "'t" is inside its word)
    assert!(checked.0 > 500 && checked.1 >= 8 && checked.2 >= 60, "{checked:?}");
}
