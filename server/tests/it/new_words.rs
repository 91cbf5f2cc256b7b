//! The invented-word game (WinoDict) over HTTP on SQLite and PostgreSQL, on twelve
//! of the shipped items with words invented from the real WordNet 3.0: items served
//! in turns of condition, answers (once each), refusals, a model's judgements in
//! every setup (resumed, not repeated), the report's accuracy of people and model on
//! the same items, and erasure.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use common::{call, started};
use gapwise_model::Teaching;
use gapwise_model::{AnswerFilter, PlayedWord, WINO_CONDITIONS};
use gapwise_scorer::new_words::partial::ContinuationScorer;
use gapwise_scorer::ScorerError;
use gapwise_store::testing::each_backend;
use gapwise_store::{NewWordsItemRecord, Store};
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// Six adjectives and six nouns of the shipped items, all in their base form, so that
/// each has a meaning-shift partner among them.
fn twelve_items() -> String {
    let mut taken: HashMap<&str, usize> = HashMap::new();
    let mut lines = Vec::new();
    for line in gapwise_server::runs::score_new_words::ITEMS.lines() {
        let item: Value = serde_json::from_str(line).expect("json");
        let pos = if item["pos"] == "adj" {
            "adj"
        } else if item["pos"] == "noun" {
            "noun"
        } else {
            continue;
        };
        let lemma_is_new = !lines.iter().any(|l: &String| serde_json::from_str::<Value>(l).expect("json")["lemma"] == item["lemma"]);
        let n = taken.entry(pos).or_default();
        if item["form"] == "base" && *n < 6 && lemma_is_new {
            *n += 1;
            lines.push(line.to_owned());
        }
    }
    assert_eq!(lines.len(), 12);
    lines.join("\n")
}

/// A stand-in model: the continuation is likelier after the shorter prefix.
struct ShorterPrefix;

impl ContinuationScorer for ShorterPrefix {
    fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        Ok(pairs.iter().map(|(prefix, continuation)| vec![-(prefix.len() as f32), -(continuation.len() as f32) / 10.0]).collect())
    }
}

/// A stand-in model that cannot read an item whose prefix holds `word` (as a tokenizer
/// that joins the option and the text after it in one piece), and prefers the
/// shorter prefix otherwise.
struct Refuses(String);

impl ContinuationScorer for Refuses {
    fn continuation_log_probs(&self, pairs: &[(&str, &str)]) -> Result<Vec<Vec<f32>>, ScorerError> {
        match pairs.iter().find(|(prefix, _)| prefix.contains(self.0.as_str())) {
            Some((prefix, _)) => Err(ScorerError::Input(format!("a piece holds the end of {prefix:?}"))),
            None => ShorterPrefix.continuation_log_probs(pairs),
        }
    }
}

/// Whether an item's original sentence, filled with either option, holds `word`
/// before its blank's end (the prefix [`Refuses`] cannot read).
fn only_prefix_holds(item: &NewWordsItemRecord, word: &str) -> bool {
    let sentence = &item.variants[&PlayedWord::Original].sentence;
    let before = sentence.split('_').next().unwrap_or_default();
    item.options.iter().any(|o| format!("{before}{o}").contains(word))
}

/// The variant of an item whose sentence the card shows.
fn variant_shown<'a>(items: &'a [(NewWordsItemRecord, bool)], sentence: &str) -> (&'a NewWordsItemRecord, PlayedWord) {
    items
        .iter()
        .find_map(|(item, _)| item.variants.iter().find(|(_, v)| v.sentence == sentence).map(|(w, _)| (item, *w)))
        .unwrap_or_else(|| panic!("{sentence:?} is no stored variant"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn items_in_turns_answers_judgements_and_the_report() {
    let wordnet = gapwise_server::runs::score_define::default_wordnet_dir();
    for db in each_backend().await {
        let store: &Store = &db.store;
        let new = gapwise_server::runs::score_new_words::import_new_words(
            store,
            &twelve_items(),
            &wordnet,
            gapwise_server::runs::score_new_words::SEED,
        )
        .await
        .expect("import");
        assert_eq!(new, 12);
        assert_eq!(
            gapwise_server::runs::score_new_words::import_new_words(store, &twelve_items(), &wordnet, 3).await.expect("again"),
            0,
            "present items are kept"
        );
        let items = store.new_words().items().await.expect("items");
        for (item, _) in &items {
            assert_eq!(item.variants.len(), 3, "{item:?}");
            let invented = &item.variants[&PlayedWord::Invented];
            assert!(!item.variants[&PlayedWord::Original].sentence.contains(&invented.lemma), "{item:?}");
            assert!(
                invented.taught.contains(&invented.lemma) && invented.taught.contains(item.definition.trim_end_matches('.')),
                "{invented:?}"
            );
        }
        let app = common::serve(store).await;
        let (me, other) = (started(&app).await, started(&app).await);

        // refusals
        assert_eq!(call(&Client::new(), &app, "new-words-round", &[]).await.0, StatusCode::UNAUTHORIZED);
        let (_, card) = call(&other, &app, "new-words-round", &[]).await;
        let theirs = card["serving_id"].as_str().expect("serving").to_owned();
        assert_eq!(call(&me, &app, "new-words-pick", &[("serving_id", &theirs), ("choice", "0")]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            call(&other, &app, "new-words-pick", &[("serving_id", &theirs), ("choice", "2")]).await.0,
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(call(&other, &app, "new-words-round", &[]).await.1, card, "the open item comes back until it is answered");

        // the player meets every item once, the conditions in turn
        let mut played: Vec<(String, PlayedWord, bool, bool)> = Vec::new();
        loop {
            let (status, card) = call(&me, &app, "new-words-round", &[]).await;
            assert_eq!(status, StatusCode::OK, "{card}");
            if card.is_null() {
                break;
            }
            assert_eq!(card["answered"], played.len(), "{card}");
            // the round says how the answer before went (a page without script shows it)
            match played.last() {
                Some((.., right)) => assert_eq!(card["last"]["correct"], *right, "{card}"),
                None => assert!(card["last"].is_null(), "{card}"),
            }
            let sentence = card["sentence"].as_str().expect("sentence");
            assert_eq!(sentence.matches('_').count(), 1, "{sentence}");
            let (item, word) = variant_shown(&items, sentence);
            let definition = card["definition"].as_str();
            if let Some(d) = definition {
                assert_eq!(d, item.variants[&word].taught);
            }
            assert_eq!(card["options"], serde_json::json!(item.options));
            let serving = card["serving_id"].as_str().expect("serving").to_owned();
            let choice = played.len() % 2;
            let (status, pick) =
                call(&me, &app, "new-words-pick", &[("serving_id", &serving), ("choice", &choice.to_string()), ("client_ms", "2100")])
                    .await;
            assert_eq!(status, StatusCode::OK, "{pick}");
            assert_eq!(pick["correct"], choice == item.answer, "{pick}");
            assert_eq!(pick["answer"], item.options[item.answer]);
            let again = call(&me, &app, "new-words-pick", &[("serving_id", &serving), ("choice", &(1 - choice).to_string())]).await.1;
            assert_eq!(again, pick, "a second answer changes nothing");
            // the answer brought the item to show next
            assert_eq!(pick["next"], call(&me, &app, "new-words-round", &[]).await.1, "{pick}");
            played.push((item.id.clone(), word, definition.is_some(), choice == item.answer));
        }
        assert_eq!(played.len(), 12, "every item, then none");
        let start = WINO_CONDITIONS.iter().position(|&c| c == (played[0].1, played[0].2)).expect("a condition");
        for (n, (_, word, shown, _)) in played.iter().enumerate() {
            assert_eq!((*word, *shown), WINO_CONDITIONS[(start + n) % 6], "item {n}: the conditions take turns");
        }

        // a model judges every item in every setup, one solved item first
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("shorter"), "test", "-", ""))
            .await
            .expect("model");
        let setups = |shots| gapwise_server::runs::score_new_words::Judging {
            words: PlayedWord::ALL.to_vec(),
            teachings: Teaching::ALL.to_vec(),
            shots,
            items: 100,
            seed: 1,
        };
        let (how, zero_shot) = (setups(1), setups(0));
        let (go, quiet, shorter) = (AtomicBool::new(false), indicatif::ProgressBar::hidden(), gapwise_model::ModelId::new("shorter"));
        let judge = |how| gapwise_server::runs::score_new_words::judge_new_words(store, &ShorterPrefix, &shorter, how, &go, &quiet);
        assert_eq!(judge(&how).await.expect("judge"), 11 * 9, "the solved item is not judged itself");
        assert_eq!(judge(&how).await.expect("again"), 0, "a rerun has nothing left");
        assert_eq!(judge(&zero_shot).await.expect("0-shot"), 12 * 9);
        // an item a model cannot read is left out, the rest of its batch judged
        let unreadable = &items[0].0;
        let only = gapwise_server::runs::score_new_words::Judging {
            words: vec![PlayedWord::Original],
            teachings: vec![Teaching::Empty],
            ..setups(0)
        };
        let refuses = Refuses(unreadable.options[0].clone());
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("refuses"), "test", "-", ""))
            .await
            .expect("model");
        let judged = gapwise_server::runs::score_new_words::judge_new_words(
            store,
            &refuses,
            &gapwise_model::ModelId::new("refuses"),
            &only,
            &go,
            &quiet,
        )
        .await
        .expect("judged");
        let left_out = items.iter().filter(|(i, _)| only_prefix_holds(i, &refuses.0)).count();
        assert!(left_out >= 1 && judged == 12 - left_out, "{judged} judged, {left_out} unreadable");
        let judgements = store.new_words().judgements().await.expect("judgements");
        for j in &judgements {
            let item = &items.iter().find(|(i, _)| i.id == j.item_id).expect("item").0;
            assert_eq!(j.choice, usize::from(j.log_likelihoods[1] > j.log_likelihoods[0]));
            assert_eq!(j.correct, j.choice == item.answer);
        }
        // with no context before the sentence, the shorter option's prefix wins
        let plain = judgements.iter().find(|j| j.setup.teaching == "empty" && j.setup.shots == 0).expect("an empty-setup judgement");
        let item = &items.iter().find(|(i, _)| i.id == plain.item_id).expect("item").0;
        if item.options[0].len() != item.options[1].len() {
            assert_eq!(plain.choice, usize::from(item.options[1].len() < item.options[0].len()), "{plain:?}");
        }

        // the report: people per condition, the model on the same items and on all
        let report =
            gapwise_research::report::build_report(store, &[], &AnswerFilter::default(), &Default::default()).await.expect("report");
        let table = report.tables.iter().find(|t| t.file == "new_words_accuracy").expect("accuracy table");
        // item response theory of the items played, per setup
        assert_eq!(common::irt_answers(&report, "new_words"), (played.len(), true));
        for &(word, shown) in &WINO_CONDITIONS {
            let mine: Vec<&(String, PlayedWord, bool, bool)> = played.iter().filter(|p| p.1 == word && p.2 == shown).collect();
            let definition = if shown { "shown" } else { "none" };
            let row = table
                .rows
                .iter()
                .find(|r| r[0] == "people" && r[1] == word.code() && r[2] == definition)
                .unwrap_or_else(|| panic!("{:?}", table.rows));
            assert_eq!(row[4], "2", "{row:?}");
            assert_eq!(row[5], format!("{:.3}", mine.iter().filter(|p| p.3).count() as f64 / 2.0), "{row:?}");
            let teaching = if shown { "suffix" } else { "empty" };
            let model_right = mine
                .iter()
                .filter(|p| {
                    judgements.iter().any(|j| {
                        j.item_id == p.0 && j.setup.word == word && j.setup.teaching == teaching && j.setup.shots == 0 && j.correct
                    })
                })
                .count();
            let row = table
                .rows
                .iter()
                .find(|r| r[0] == "shorter, people's items" && r[1] == word.code() && r[2] == teaching)
                .expect("model row");
            assert_eq!(row[5], format!("{:.3}", model_right as f64 / 2.0), "{row:?}");
        }
        let all = table.rows.iter().filter(|r| r[0] == "shorter, all its items").count();
        assert_eq!(all, 18, "three words, three teachings, 0 and 1 shot");
        let breakdown = report.tables.iter().find(|t| t.file == "new_words_breakdown").expect("breakdown");
        let by_pos: usize = breakdown
            .rows
            .iter()
            .filter(|r| r[0] == "part of speech" && r[2] == "shorter")
            .map(|r| r[3].parse::<usize>().expect("n"))
            .sum();
        assert_eq!(by_pos, 12, "{:?}", breakdown.rows);
        let by_length: usize = breakdown
            .rows
            .iter()
            .filter(|r| r[0] == "definition length" && r[2] == "shorter")
            .map(|r| r[3].parse::<usize>().expect("n"))
            .sum();
        assert_eq!(by_length, 12);

        // the answers are the player's data, and go with them
        let data = common::my_data(&me, &app).await;
        assert_eq!(data["invented_word_answers"], 12, "{data}");
        let res = me.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection());
        assert_eq!(store.count_rows("new_words_servings").await.expect("servings"), 1, "only the other player's open item stays");
        assert!(store.new_words().answers().await.expect("answers").is_empty());
    }
}
