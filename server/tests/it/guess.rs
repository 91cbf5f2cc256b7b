//! The next-word game over HTTP on SQLite and PostgreSQL: a sentence guessed word
//! by word (typed, then picked from a model's suggestions), refusals, a stand-in
//! model that always says "the", word facts with vector neighbours, the report's
//! accuracy, soft match, T1 and perplexity for people and model on the same
//! positions, and erasure.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use std::sync::atomic::AtomicBool;

use common::{call, started, App};
use gapwise_model::positions;
use gapwise_model::AnswerFilter;
use gapwise_scorer::guess::{NextPieceModel, PieceKind, WordLogProb, WordReading};
use gapwise_scorer::ScorerError;
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::Store;
use reqwest::{Client, StatusCode};
use serde_json::Value;

async fn spawn(store: &Store) -> App {
    seed_small(store).await;
    common::serve(store).await
}

/// The words of the sentence a round shows, from the database.
async fn words_of(store: &Store, serving: &str) -> Vec<String> {
    let text: String = sqlx::query_scalar("SELECT s.text FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id WHERE v.id = $1")
        .bind(serving)
        .fetch_one(store.pool())
        .await
        .expect("sentence");
    positions(&text).into_iter().map(|(_, w)| w).collect()
}

/// A stand-in model that always predicts "the", with probability 1/2 for any word's
/// pieces and 1/4 for the word itself, and no probability for a sentence's second
/// word (as if a piece joined it to the first).
struct AlwaysThe;

impl NextPieceModel for AlwaysThe {
    fn piece_kinds(&self) -> &[PieceKind] {
        &[PieceKind::Other, PieceKind::WordStart]
    }
    fn decode_word(&self, _: &[u32]) -> Result<String, ScorerError> {
        Ok("the".into())
    }
    fn next_log_probs(&self, prefixes: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, ScorerError> {
        Ok(prefixes.iter().map(|_| vec![f32::NEG_INFINITY, 0.0]).collect())
    }
    fn read_words(&self, text: &str, words: &[(usize, usize)]) -> Result<Vec<WordReading>, ScorerError> {
        Ok(words
            .iter()
            .enumerate()
            .map(|(i, &(a, _))| WordReading {
                prefix: vec![0; 1 + text[..a].split_whitespace().count()],
                log_prob: if i == 0 {
                    Err("joined to the word before".into())
                } else {
                    Ok(WordLogProb { pieces: 0.5f64.ln(), corrected: 0.25f64.ln() })
                },
            })
            .collect())
    }
}

/// Guesses a whole sentence: right at even positions (in capitals), wrong at odd
/// ones: the first wrong guess of the game a near miss (the word with a "y" added,
/// which the test's word vectors put next to it), "zebra" after. Returns (word,
/// guess) per position.
async fn play_sentence(c: &Client, app: &App, store: &Store, mode: &str, near_miss: &mut Option<String>) -> Vec<(String, String)> {
    let (status, card) = call(c, app, "guess-round", &[("mode", mode), ("language", "en")]).await;
    assert_eq!(status, StatusCode::OK, "{card}");
    let serving = card["serving_id"].as_str().expect("serving").to_owned();
    let words = words_of(store, &serving).await;
    assert_eq!(card["positions"], words.len());
    let mut played = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let (_, card) = call(c, app, "guess-round", &[("mode", mode), ("language", "en")]).await;
        assert_eq!(card["position"], i + 1, "{card}");
        // the round says how the guess before went (a page without script shows it)
        if let Some(before) = i.checked_sub(1) {
            assert_eq!(card["last"]["word"], words[before].as_str(), "{card}");
            assert_eq!(card["last"]["sentence_done"], false, "{card}");
        }
        let position = (i + 1).to_string();
        let (guess, rank) = match (mode, i % 2) {
            ("choose", _) => ("the".to_owned(), Some("1")),
            (_, 0) => (word.to_uppercase(), None),
            _ if near_miss.is_none() => {
                *near_miss = Some(word.clone());
                (format!("{word}y"), None)
            }
            _ => ("zebra".to_owned(), None),
        };
        let mut form = vec![("serving_id", serving.as_str()), ("position", position.as_str()), ("client_ms", "1500")];
        match rank {
            Some(rank) => form.push(("rank", rank)),
            None => form.push(("guess", guess.as_str())),
        }
        let (status, result) = call(c, app, "guess", &form).await;
        assert_eq!(status, StatusCode::OK, "{result}");
        assert_eq!(result["word"], word.as_str());
        assert_eq!(result["correct"], guess.to_lowercase() == word.to_lowercase(), "{result}");
        assert_eq!(result["sentence_done"], i + 1 == words.len());
        assert_eq!(call(c, app, "guess", &form).await.1, result, "a repeated guess answers as before");
        // with the page's mode, a guess brings the round to show next (within the
        // sentence here: after its last word the next one would be served)
        if i + 1 < words.len() {
            form.extend([("mode", mode), ("language", "en")]);
            let with_next = call(c, app, "guess", &form).await.1;
            assert_eq!(with_next["next"], call(c, app, "guess-round", &[("mode", mode), ("language", "en")]).await.1, "{with_next}");
        }
        played.push((word.clone(), guess));
    }
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sentences_guessed_word_by_word_and_the_report() {
    for db in each_backend().await {
        let store = &db.store;
        let app = spawn(store).await;
        let (me, other) = (started(&app).await, started(&app).await);

        // refusals
        assert_eq!(call(&me, &app, "guess-round", &[("mode", "shout")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(call(&Client::new(), &app, "guess-round", &[("mode", "type")]).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&me, &app, "guess-round", &[("mode", "choose")]).await.1, Value::Null, "no model has predicted a sentence yet");
        let (_, card) = call(&other, &app, "guess-round", &[("mode", "type")]).await;
        let theirs = card["serving_id"].as_str().expect("serving").to_owned();
        assert_eq!(call(&me, &app, "guess", &[("serving_id", &theirs), ("position", "1"), ("guess", "x")]).await.0, StatusCode::NOT_FOUND);
        for (position, guess) in [("2", "x"), ("1", " "), ("1", &"x".repeat(61))] {
            let (status, body) = call(&other, &app, "guess", &[("serving_id", &theirs), ("position", position), ("guess", guess)]).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{position} {guess:?}: {body}");
        }
        assert_eq!(
            call(&other, &app, "guess", &[("serving_id", &theirs), ("position", "1"), ("rank", "1")]).await.0,
            StatusCode::UNPROCESSABLE_ENTITY
        );

        // two sentences typed
        let mut near_miss = None;
        let mut typed = play_sentence(&me, &app, store, "type", &mut near_miss).await;
        typed.extend(play_sentence(&me, &app, store, "type", &mut near_miss).await);
        let near_miss = near_miss.expect("a wrong guess was played");

        // a model that always says "the" predicts the sentences people played first
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("always-the"), "test", "-", ""))
            .await
            .expect("model");
        let predict = |sentences: usize, for_games: bool| {
            let how = gapwise_server::runs::score_guess::Guessing { language: gapwise_model::Language::En, sentences, seed: 1, for_games };
            async move {
                let model = gapwise_model::ModelId::new("always-the");
                let (stop, progress) = (AtomicBool::new(false), indicatif::ProgressBar::hidden());
                gapwise_server::runs::score_guess::predict_sentences(store, &AlwaysThe, &model, &how, &stop, &progress)
                    .await
                    .expect("predict")
            }
        };
        assert_eq!(predict(3, false).await, 3);
        // and, as the demo's supply does, sentences the games may serve (none of an item's, none had)
        assert_eq!(predict(2, true).await, 2);
        // word facts: every word its own direction, the near miss next to its word
        let words: std::collections::BTreeSet<String> = typed.iter().map(|(w, _)| w.to_lowercase()).collect();
        let dim = words.len() + 1;
        let axis =
            |i: usize, x: f64| (0..dim).map(|d| if d == i { x.to_string() } else { "0.01".into() }).collect::<Vec<String>>().join(" ");
        let mut lines: Vec<String> = words.iter().enumerate().map(|(i, w)| format!("{w} {}", axis(i, 1.0))).collect();
        let at = words.iter().position(|w| *w == near_miss.to_lowercase()).expect("the near-missed word");
        lines.push(format!("{}y {}", near_miss.to_lowercase(), axis(at, 0.9)));
        let dir = tempfile::tempdir().expect("dir");
        let vectors = dir.path().join("vectors.txt");
        std::fs::write(&vectors, lines.join("\n")).expect("vectors");
        let vectors = gapwise_scorer::baseline::StaticVectors::from_path(&vectors).expect("load");
        let described = gapwise_server::runs::score_guess::add_word_facts(store, gapwise_model::Language::En, None, Some(&vectors), 1)
            .await
            .expect("facts");
        assert!(described >= words.len(), "{described}");

        // the easier mode: the model's suggestions, picked by rank
        let (_, card) = call(&me, &app, "guess-round", &[("mode", "choose")]).await;
        assert_eq!(card["suggestions"], serde_json::json!(["the"]), "{card}");
        assert_eq!(card["finished"], 2, "{card}");
        // a round opened in the other mode and left before its first guess is
        // forgotten: the easier mode serves its own sentence, with suggestions
        let (_, fresh) = call(&other, &app, "guess-round", &[("mode", "choose")]).await;
        assert_eq!((fresh["mode"].as_str(), fresh["suggestions"].as_array().map(Vec::len)), (Some("Choose"), Some(1)), "{fresh}");
        assert_ne!(fresh["serving_id"].as_str(), Some(theirs.as_str()), "the round left before its first guess is forgotten");
        // a round begun (one guess) in the other mode is finished first (a third
        // player's, who then leaves: the report below counts the first two's guesses)
        let third = started(&app).await;
        let (_, typing) = call(&third, &app, "guess-round", &[("mode", "type")]).await;
        let begun = typing["serving_id"].as_str().expect("serving").to_owned();
        assert_eq!(call(&third, &app, "guess", &[("serving_id", &begun), ("position", "1"), ("guess", "x")]).await.0, StatusCode::OK);
        let (_, partial) = call(&third, &app, "guess-round", &[("mode", "choose")]).await;
        assert_eq!((partial["mode"].as_str(), partial["serving_id"].as_str()), (Some("Type"), Some(begun.as_str())), "{partial}");
        let res = third.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection());
        let picked = play_sentence(&me, &app, store, "choose", &mut Some(String::new())).await;
        let ranks: Vec<Option<i64>> =
            sqlx::query_scalar("SELECT rank FROM guess_answers WHERE rank IS NOT NULL").fetch_all(store.pool()).await.expect("ranks");
        assert_eq!(ranks.len(), picked.len());

        // the report: people and the model side by side on the same positions
        let report =
            gapwise_research::report::build_report(store, &[], &AnswerFilter::default(), &Default::default()).await.expect("report");
        let table = report.tables.iter().find(|t| t.file == "next_word_accuracy").expect("next-word table");
        let row = |player: &str| table.rows.iter().find(|r| r[1] == player).unwrap_or_else(|| panic!("{player}: {:?}", table.rows)).clone();
        let people: Vec<&(String, String)> = typed.iter().chain(&picked).collect();
        let n = people.len() as f64;
        let right = people.iter().filter(|(w, g)| w.to_lowercase() == g.to_lowercase()).count() as f64;
        let soft = people.iter().filter(|(w, g)| w.to_lowercase() == g.to_lowercase() || *g == format!("{near_miss}y")).count() as f64;
        let the = people.iter().filter(|(w, _)| w.to_lowercase() == "the").count() as f64;
        let p = row("people");
        assert_eq!(p[2], people.len().to_string());
        assert_eq!(p[3], format!("{:.3}", 100.0 * right / n), "{p:?}");
        assert_eq!(p[5], format!("{:.3}", 100.0 * soft / n), "{p:?}");
        let m = row("always-the, people's positions");
        assert_eq!(m[2], people.len().to_string());
        assert_eq!(m[3], format!("{:.3}", 100.0 * the / n), "{m:?}");
        assert_eq!(m[6], if the > 0.0 { "1" } else { "0" }, "T1: one type at most");
        assert_eq!(m[8], "4.000", "perplexity of the words' own p = 1/4 everywhere");
        assert_eq!(m[9], "2.000", "perplexity of the pieces' p = 1/2 everywhere");
        let unscored: usize = m[10].parse().expect("a count");
        assert!(unscored > 0 && unscored < people.len(), "the second words have no log-probability: {m:?}");
        assert_eq!(p[10], "n/a", "people have no log-probabilities");
        let stored: Vec<Option<String>> = sqlx::query_scalar("SELECT word_unscored FROM guess_predictions WHERE position = 1")
            .fetch_all(store.pool())
            .await
            .expect("rows");
        assert!(!stored.is_empty() && stored.iter().all(|w| w.as_deref() == Some("joined to the word before")), "{stored:?}");
        assert!(report.tables.iter().any(|t| t.file == "next_word_coverage" && !t.rows.is_empty()));
        // item response theory of the guesses: every position guessed is an item
        assert_eq!(common::irt_answers(&report, "guess"), (people.len(), true));

        // the guesses are the player's data, and go with them
        let data = common::my_data(&me, &app).await;
        assert_eq!(data["word_guesses"], people.len(), "{data}");
        let res = me.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection());
        assert_eq!(store.count_rows("guess_answers").await.expect("guesses"), 0, "the other player guessed nothing");
        assert_eq!(store.count_rows("guess_servings").await.expect("servings"), 1, "the other player's sentence stays");
    }
}
