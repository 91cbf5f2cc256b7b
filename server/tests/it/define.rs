//! The word-definition game (W2D, D2W) over HTTP on SQLite and PostgreSQL, on a
//! slice of the real WordNet 3.0 (the groups of beckon.v.01 and
//! a_cappella_singing.n.01, as the import command stores them): rounds, picks until
//! the right one, the difficulty cap, refusals, a model's scores, the report's
//! P@1 and RS for people and model on the same groups, and erasure.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use common::{call, started, App};
use gapwise_model::{distinct_candidates, GroupMember};
use gapwise_model::{AnswerFilter, DefinitionTask};
use gapwise_prepare::wordnet::WordNet;
use gapwise_scorer::define::{DefinitionScorer, Pos};
use gapwise_scorer::ScorerError;
use gapwise_store::testing::each_backend;
use gapwise_store::{NewSynset, Store};
use reqwest::{Client, StatusCode};
use serde_json::Value;

const TARGETS: [&str; 2] = ["beckon.v.01", "a_cappella_singing.n.01"];

/// Imports the two groups: their members, the members' hypernyms and the links.
async fn import_slice(store: &Store) {
    let dir = std::env::var_os("GAPWISE_WORDNET").map_or_else(|| PathBuf::from("/usr/share/wordnet"), PathBuf::from);
    let wn = WordNet::read(&dir).unwrap_or_else(|e| panic!("WordNet 3.0 is needed (apt install wordnet-base): {e}"));
    let depths = wn.depths();
    let mut keep = std::collections::BTreeSet::new();
    let mut groups = Vec::new();
    for name in TARGETS {
        let t = wn.find(name).expect(name);
        let members = wn.group(t);
        groups.push((name.to_owned(), members.len()));
        for m in members {
            keep.insert(m);
            keep.extend(wn.synsets[m].hypernyms.iter().copied());
        }
    }
    let synsets: Vec<NewSynset> = keep
        .iter()
        .map(|&i| {
            let s = &wn.synsets[i];
            NewSynset {
                id: s.name.clone(),
                pos: s.pos.letter().into(),
                word: s.word.clone(),
                definition: s.definition.clone(),
                depth: depths[i],
                zipf: None,
            }
        })
        .collect();
    let links: Vec<(String, String)> = keep
        .iter()
        .flat_map(|&i| wn.synsets[i].hypernyms.iter().filter(|h| keep.contains(h)).map(move |&h| (i, h)))
        .map(|(c, p)| (wn.synsets[c].name.clone(), wn.synsets[p].name.clone()))
        .collect();
    store.define().import_wordnet(&synsets, &links, &groups, &|_| {}).await.expect("import");
}

async fn spawn(store: &Store) -> App {
    import_slice(store).await;
    common::serve(store).await
}

/// Plays a round by picking the options in the order shown until the right one;
/// returns the serving id, the prompt, the options and the number of picks.
async fn play_round(c: &Client, app: &App, task: &str) -> Option<(String, String, Vec<String>, usize)> {
    let (status, card) = call(c, app, "define-round", &[("task", task), ("cap", "20")]).await;
    assert_eq!(status, StatusCode::OK, "{card}");
    if card.is_null() {
        return None;
    }
    let serving = card["serving_id"].as_str().expect("serving").to_owned();
    let options: Vec<String> = card["options"].as_array().expect("options").iter().map(|o| o.as_str().expect("text").to_owned()).collect();
    for (i, _) in options.iter().enumerate() {
        let position = i.to_string();
        let (status, pick) = call(c, app, "define-pick", &[("serving_id", &serving), ("position", &position), ("client_ms", "1200")]).await;
        assert_eq!(status, StatusCode::OK, "{pick}");
        assert_eq!(pick["attempts"], i + 1, "{pick}");
        // the same pick again changes nothing
        assert_eq!(call(c, app, "define-pick", &[("serving_id", &serving), ("position", &position)]).await.1, pick);
        if pick["correct"] == true {
            // the word and its definition are told once found
            let prompt = card["prompt"].as_str().expect("prompt");
            let (word, definition) = if task == "w2d" { (prompt, options[i].as_str()) } else { (options[i].as_str(), prompt) };
            assert_eq!(pick["solution"]["word"], word, "{pick}");
            assert_eq!(pick["solution"]["definition"], definition, "{pick}");
            // with the page's task and cap, a pick brings the round to show next
            let after = call(c, app, "define-pick", &[("serving_id", &serving), ("position", "0"), ("task", task), ("cap", "20")]).await.1;
            assert_eq!(after["attempts"], i + 1, "nothing counts after the right pick: {after}");
            assert_eq!(after["next"], call(c, app, "define-round", &[("task", task), ("cap", "20")]).await.1, "{after}");
            // which says how the round just found went (a page without script shows it)
            if !after["next"].is_null() {
                let last = &after["next"]["last"];
                assert_eq!((&last["attempts"], &last["solution"]), (&pick["attempts"], &pick["solution"]), "{after}");
            }
            return Some((serving, card["prompt"].as_str().expect("prompt").to_owned(), options, i + 1));
        }
    }
    panic!("no option of {card} was right");
}

/// A stand-in model: shorter texts score higher.
struct Shortest;

impl DefinitionScorer for Shortest {
    fn word_to_definition(&self, _: Pos, _: &str, definitions: &[&str]) -> Result<Vec<f64>, ScorerError> {
        Ok(definitions.iter().map(|d| -(d.len() as f64)).collect())
    }
    fn definition_to_word(&self, _: Pos, _: &str, words: &[&str]) -> Result<Vec<f64>, ScorerError> {
        Ok(words.iter().map(|w| -(w.len() as f64)).collect())
    }
}

/// The rank `Shortest` gives the right candidate of `target`'s group (ties against it).
async fn shortest_rank(store: &Store, task: DefinitionTask, target: &str) -> (usize, usize) {
    let members = distinct_candidates(store.define().group_members(target).await.expect("members"), target, task);
    let text = |m: &GroupMember| if task == DefinitionTask::W2d { m.definition.len() } else { m.word.len() };
    let right = members.iter().find(|m| m.id == target).map(text).expect("target");
    (members.len(), 1 + members.iter().filter(|m| m.id != target && text(m) <= right).count())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rounds_picks_scores_and_the_report() {
    for db in each_backend().await {
        let store = &db.store;
        let app = spawn(store).await;
        let (me, other) = (started(&app).await, started(&app).await);

        // the cap: both groups have more than 10 members
        assert_eq!(call(&me, &app, "define-round", &[("task", "w2d"), ("cap", "10")]).await.1, Value::Null);
        // refusals
        assert_eq!(call(&me, &app, "define-round", &[("task", "x2y"), ("cap", "20")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(call(&me, &app, "define-round", &[("task", "w2d"), ("cap", "7")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let anonymous = Client::new();
        assert_eq!(call(&anonymous, &app, "define-round", &[("task", "w2d"), ("cap", "20")]).await.0, StatusCode::UNAUTHORIZED);
        let (_, card) = call(&other, &app, "define-round", &[("task", "d2w"), ("cap", "20")]).await;
        let theirs = card["serving_id"].as_str().expect("serving").to_owned();
        assert_eq!(call(&me, &app, "define-pick", &[("serving_id", &theirs), ("position", "0")]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            call(&other, &app, "define-pick", &[("serving_id", &theirs), ("position", "99")]).await.0,
            StatusCode::UNPROCESSABLE_ENTITY
        );

        // W2D: a word and its sisters' definitions; D2W: a definition and the words
        // (by two players: a group met in one task is not served in the other, whose
        // answer its solution would give away)
        let third = started(&app).await;
        let mut ranks = Vec::new();
        for (task, player) in [("w2d", &me), ("d2w", &third)] {
            let mut seen = Vec::new();
            while let Some((_, prompt, options, picks)) = play_round(player, &app, task).await {
                let members: Vec<GroupMember> = members_shown_for(store, &prompt, task).await;
                let shown: Vec<String> =
                    members.iter().map(|m| if task == "w2d" { m.definition.clone() } else { m.word.clone() }).collect();
                let (mut a, mut b) = (options.clone(), shown);
                a.sort();
                b.sort();
                assert_eq!(a, b, "every member of the group with a text of its own is an option");
                seen.push(prompt);
                ranks.push((task, options.len(), picks));
            }
            assert_eq!(seen.len(), 2, "{task}: both groups, then none");
        }
        for (_, l, k) in &ranks {
            assert!(*k >= 1 && k <= l);
        }
        assert_eq!(call(&me, &app, "define-round", &[("task", "d2w"), ("cap", "20")]).await.1, Value::Null, "met in W2D");

        // a model scores both groups for both tasks
        let how = gapwise_server::runs::score_define::Scoring { tasks: DefinitionTask::ALL.to_vec(), max_size: 20, groups: 10, seed: 1 };
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("shortest"), "test", "-", ""))
            .await
            .expect("model");
        let done = gapwise_server::runs::score_define::score_definitions(
            store,
            &Shortest,
            &gapwise_model::ModelId::new("shortest"),
            &how,
            &AtomicBool::new(false),
            &indicatif::ProgressBar::hidden(),
        )
        .await
        .expect("score");
        assert_eq!(done, 4);

        // the report: people's P@1 and RS from their picks, the model's on the same groups
        let report =
            gapwise_research::report::build_report(store, &[], &AnswerFilter::default(), &Default::default()).await.expect("report");
        let table = report.tables.iter().find(|t| t.file == "definitions_p_at_1_rs").expect("definitions table");
        // item response theory of the rounds: every first pick, fitted per task
        assert_eq!(common::irt_answers(&report, "define"), (ranks.len(), true));
        for task in DefinitionTask::ALL {
            let code = task.code();
            let mine: Vec<(usize, usize)> = ranks.iter().filter(|(t, _, _)| *t == code).map(|(_, l, k)| (*l, *k)).collect();
            let mut model = Vec::new();
            for target in TARGETS {
                model.push((target, shortest_rank(store, task, target).await));
            }
            for (target, pos) in [(TARGETS[0], "verb"), (TARGETS[1], "noun")] {
                let (l, k) = model.iter().find(|(t, _)| *t == target).expect("model").1;
                // the two groups differ in size, which tells the player's rounds apart
                let people: Vec<(usize, usize)> = mine.iter().copied().filter(|(size, _)| *size == l).collect();
                let find = |player: &str| {
                    table
                        .rows
                        .iter()
                        .find(|r| r[0] == code.to_uppercase() && r[1] == pos && r[2] == player)
                        .unwrap_or_else(|| panic!("{code} {pos} {player}: {:?}", table.rows))
                };
                let (pl, pk) = people[0];
                let row = find("people");
                assert_eq!(row[4], format!("{:.3}", if pk == 1 { 100.0 } else { 0.0 }), "{row:?}");
                assert_eq!(row[5], format!("{:.3}", (pl - pk) as f64 / (pl - 1) as f64), "{row:?}");
                let row = find("shortest, people's groups");
                assert_eq!(row[5], format!("{:.3}", (l - k) as f64 / (l - 1) as f64), "{row:?}");
                assert_eq!(find("random, people's groups")[5], "0.500");
            }
        }

        // the picks are the player's data, and go with them
        let data = common::my_data(&me, &app).await;
        let picks = |task: &str| ranks.iter().filter(|(t, _, _)| *t == task).map(|(_, _, k)| k).sum::<usize>();
        assert_eq!(data["define_picks"], picks("w2d"), "{data}");
        let res = me.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection());
        let left = store.count_rows("define_picks").await.expect("picks");
        assert_eq!(usize::try_from(left).expect("count"), picks("d2w"), "the third player's picks stay");
        assert_eq!(store.count_rows("define_servings").await.expect("servings"), 3, "the other players' rounds stay");
    }
}

/// The candidates of the group whose round showed `prompt` (the target's word for W2D,
/// its definition for D2W).
async fn members_shown_for(store: &Store, prompt: &str, task: &str) -> Vec<GroupMember> {
    for target in TARGETS {
        let members = store.define().group_members(target).await.expect("members");
        let me = members.iter().find(|m| m.id == target).expect("target");
        if (task == "w2d" && me.word == prompt) || (task == "d2w" && me.definition == prompt) {
            return distinct_candidates(members, target, DefinitionTask::parse(task).expect("task"));
        }
    }
    panic!("{prompt:?} is not the prompt of either group");
}
