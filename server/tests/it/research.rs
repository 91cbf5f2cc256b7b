//! What researchers get, end to end, on SQLite and PostgreSQL: three players answer,
//! a tiny model scores the items, and the export in CSV, JSON Lines and Parquet (read
//! back with pyarrow, not with the writer) holds every answer with its model score
//! and no personal field; the report holds every table and figure (Table 8 and
//! Fig. 2 from Likert ratings); the model stands on the leaderboard. Over HTTP, only
//! staff (API token or signed in) may export or see the research page.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[allow(dead_code)] // only its server is used here
use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use gapwise_engine::{testing::play, Engine};
use gapwise_model::{AnswerFilter, Contender, Period, Standing};
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_research::export::{export_folder, Format};
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::{Context, ContextScorer};
use gapwise_server::runs::score::score_items;
use gapwise_server::runs::select_contexts::{select_contexts, Selection};
use gapwise_store::testing::{each_backend, seed_likert, seed_small};
use gapwise_store::{Role, Store};
use indicatif::ProgressBar;
use serde_json::Value;
use sqlx::Row;

/// The tiny random Llama of the scorer's fixtures, registered as model "tiny".
async fn tiny_model(store: &Store) -> Arc<CausalLm> {
    let dir = Path::new(&manifest_dir()).join("../scorer/fixtures/hf_llama");
    store
        .scores()
        .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("tiny"), "causal", "fixtures/hf_llama", ""))
        .await
        .expect("model");
    Arc::new(CausalLm::from_hf_dir(&dir, &candle_core::Device::Cpu, &Default::default()).expect("tiny model"))
}

/// Scores every item with the tiny model.
async fn score_with_tiny_model(store: &Store) {
    let model = tiny_model(store).await;
    score_items(store, model, &gapwise_model::ModelId::new("tiny"), None, 16, &AtomicBool::new(false), &ProgressBar::hidden())
        .await
        .expect("score");
}

/// Rows of a Parquet file as JSON objects, read by pyarrow.
fn read_parquet(path: &Path) -> Vec<Value> {
    let python = std::env::var("GAPWISE_TEST_PYTHON").expect("GAPWISE_TEST_PYTHON (a Python with pyarrow) is not set: run scripts/test.sh");
    let out = Command::new(python)
        .args(["-c", "import json, sys, pyarrow.parquet as pq; print(json.dumps(pq.read_table(sys.argv[1]).to_pylist()))"])
        .arg(path)
        .output()
        .expect("run pyarrow");
    assert!(out.status.success(), "pyarrow: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("pyarrow JSON")
}

fn read_csv(path: &Path) -> Vec<Value> {
    let mut reader = csv::Reader::from_path(path).expect("csv");
    let headers = reader.headers().expect("header").clone();
    reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            Value::Object(headers.iter().zip(r.iter()).map(|(h, v)| (h.to_owned(), Value::String(v.to_owned()))).collect())
        })
        .collect()
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).expect("jsonl").lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

/// A field as text, whatever the format wrote it as.
fn text(row: &Value, key: &str) -> String {
    match &row[key] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[tokio::test]
async fn every_answer_is_exported_with_its_score_and_nothing_personal() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        play(&Engine::new(store.clone()), 3, 5).await;
        score_with_tiny_model(store).await;

        // some answers too fast to have read a sentence: flagged, not dropped
        sqlx::query("UPDATE answers SET client_ms = CASE WHEN correct = 1 THEN 250 ELSE 1800 END, server_ms = 2000")
            .execute(store.pool())
            .await
            .expect("times");
        let too_fast =
            sqlx::query("SELECT COUNT(*) FROM answers WHERE correct = 1").fetch_one(store.pool()).await.expect("n").get::<i64, _>(0);
        let overview = store.admin().overview().await.expect("overview");
        assert_eq!(overview.too_fast.0, too_fast);

        // what must be there, and what must not
        let answers = sqlx::query("SELECT a.item_id, a.chosen, a.correct, s.score FROM answers a JOIN item_scores s ON s.item_id = a.item_id AND s.model_id = 'tiny'")
            .fetch_all(store.pool())
            .await
            .expect("answers");
        assert_eq!(answers.len(), 15);
        let expected: BTreeSet<(String, String, bool)> =
            answers.iter().map(|r| (r.get::<i64, _>(0).to_string(), r.get::<String, _>(1), r.get::<i64, _>(2) == 1)).collect();
        let mut personal: Vec<String> = Vec::new();
        for r in sqlx::query("SELECT id, pseudonym, created_at FROM annotators").fetch_all(store.pool()).await.expect("annotators") {
            personal.extend([r.get::<String, _>(0), r.get::<String, _>(1), r.get::<i64, _>(2).to_string()]);
        }
        for r in sqlx::query("SELECT token_hash FROM sessions").fetch_all(store.pool()).await.expect("sessions") {
            personal.push(r.get(0));
        }
        for r in sqlx::query("SELECT id, created_at FROM answers").fetch_all(store.pool()).await.expect("answer ids") {
            personal.extend([r.get::<String, _>(0), r.get::<i64, _>(1).to_string()]);
        }

        let dir = tempfile::tempdir().expect("tmp");
        let mut annotators_seen = Vec::new();
        for format in [Format::Csv, Format::Jsonl, Format::Parquet] {
            let out = dir.path().join(format.extension());
            let (path, n) = export_folder(store, format, &["tiny".to_owned()], &AnswerFilter::default(), &out).await.expect("export");
            assert_eq!(n, 15);
            let rows = match format {
                Format::Csv => read_csv(&path),
                Format::Jsonl => read_jsonl(&path),
                Format::Parquet => read_parquet(&path),
            };
            let got: BTreeSet<(String, String, bool)> =
                rows.iter().map(|r| (text(r, "item_id"), text(r, "chosen"), text(r, "correct") == "true")).collect();
            assert_eq!(got, expected, "{format:?}");
            for r in &rows {
                let score: f64 = text(r, "score_tiny").parse().expect("a score in every row");
                let want = answers.iter().find(|a| a.get::<i64, _>(0).to_string() == text(r, "item_id")).map(|a| a.get::<f64, _>(3));
                assert!((Some(score) == want) || want.is_some_and(|w| (w - score).abs() < 1e-9), "{format:?} score");
                assert!(text(r, "context_1").contains(gapwise_store::BLANK), "{format:?}: blank marked");
                assert_eq!(text(r, "annotator").len(), 12);
                let flag = if text(r, "correct") == "true" { "too_fast" } else { "" };
                assert_eq!(text(r, "flag"), flag, "{format:?}: flag of a {} ms answer", text(r, "client_ms"));
            }
            let dump = serde_json::to_string(&rows).expect("dump");
            for secret in &personal {
                assert!(!dump.contains(secret.as_str()), "{format:?} export contains {secret:?}");
            }
            for column in ["created_at", "pseudonym", "email", "ip", "password"] {
                assert!(rows[0].get(column).is_none(), "{format:?} has a {column} column");
            }
            let card = std::fs::read_to_string(out.join("README.md")).expect("card");
            assert!(card.contains("CC BY-SA 4.0") && card.contains("| `score_tiny` |"), "{card}");
            assert!(
                card.contains("`word_log_prob_corrected`") && card.contains("Pimentel & Meister"),
                "both word probabilities named: {card}"
            );
            assert!(out.join("LICENSE").is_file());
            annotators_seen.push(rows.iter().map(|r| text(r, "annotator")).collect::<BTreeSet<_>>());
        }
        assert_eq!(annotators_seen[0].len(), 3);
        assert!(annotators_seen.windows(2).all(|w| w[0] == w[1]), "export IDs are stable across exports");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_staff_may_export_or_see_the_research_page() {
    for db in each_backend().await {
        let store = db.store.clone();
        seed_small(&store).await;
        let player = play(&Engine::new(store.clone()), 1, 2).await.remove(0);
        let player_token = store.players().create_session(&player.player.id).await.expect("player session");
        store.staff().create("ada", Role::Researcher, "a long passphrase").await.expect("researcher");
        let token = store.staff().create_api_token("ada", "test", gapwise_store::DEFAULT_TOKEN_DAYS).await.expect("token");
        assert!(store.staff().create("ada", Role::Admin, "another passphrase").await.is_err(), "names are unique");
        let base = common::serve(&store).await.base;

        let c = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        let get = |path: &str, auth: Option<String>, cookie: Option<String>| {
            let mut req = c.get(format!("{base}{path}"));
            if let Some(a) = auth {
                req = req.header("Authorization", a);
            }
            if let Some(cookie) = cookie {
                req = req.header("Cookie", cookie);
            }
            req.send()
        };
        let player_cookie = Some(format!("{}={player_token}", gapwise_app::ssr::SESSION_COOKIE));
        for path in ["/api/export/csv", "/api/export/parquet", "/api/export/card", "/research", "/research?language=en"] {
            assert_eq!(get(path, None, None).await.expect("anonymous").status(), 401, "{path} anonymous");
            assert_eq!(get(path, None, player_cookie.clone()).await.expect("player").status(), 403, "{path} player");
            assert_eq!(get(path, Some("Bearer nope".into()), None).await.expect("bad token").status(), 401, "{path} bad token");
        }
        // a plain handler's error names its code in a header, for clients to act on
        let refused = get("/api/export/csv", Some("Bearer nope".into()), None).await.expect("bad token");
        assert_eq!(refused.headers().get("gapwise-error").and_then(|v| v.to_str().ok()), Some("unauthorized"));
        let report = c.post(format!("{base}/api/research-report")).header("Accept", "application/json");
        assert_eq!(report.send().await.expect("report").status(), 401, "the report's server function is guarded too");
        // a refusal shows only the refusal, in the words of the page asked for
        let main = |page: String| page.split_once("<main").map_or(String::new(), |(_, main)| main.to_owned());
        let refused = |path: &'static str, cookie: Option<String>| {
            let get = &get;
            async move { main(get(path, None, cookie).await.expect("page").text().await.expect("html")) }
        };
        for (path, cookie, words) in [
            ("/research", None, "sign in as a researcher or an admin to see research data"),
            ("/research", player_cookie.clone(), "players cannot see research data"),
            ("/admin", None, "sign in as an admin to use the admin pages"),
            ("/admin", player_cookie.clone(), "players cannot use the admin pages"),
        ] {
            let page = refused(path, cookie).await;
            assert!(page.contains(words), "{path}: {page}");
            for staff_only in ["Sign out", "staff-bar", "<form method=\"get\"", "Download these answers"] {
                assert!(!page.contains(staff_only), "{path} shows {staff_only:?} to someone it refuses: {page}");
            }
        }

        // scripts: the API token
        let bearer = Some(format!("Bearer {token}"));
        let res = get("/api/export/csv", bearer.clone(), None).await.expect("researcher");
        assert_eq!(res.status(), 200);
        let body = res.text().await.expect("csv");
        assert!(body.starts_with("item_id,language,k,"), "{body}");
        assert_eq!(body.lines().count(), 3, "header and two answers");
        assert_eq!(get("/api/export/xlsx", bearer.clone(), None).await.expect("format").status(), 404);
        assert_eq!(get("/api/export/csv?models=nope", bearer.clone(), None).await.expect("model").status(), 404);
        assert_eq!(get("/api/export/csv?k=2", bearer.clone(), None).await.expect("k").status(), 422);
        assert_eq!(get("/api/export/csv?from=yesterday", bearer.clone(), None).await.expect("date").status(), 422);
        let card = get("/api/export/card", bearer, None).await.expect("card").text().await.expect("card text");
        assert!(card.contains("CC BY-SA 4.0"), "{card}");

        // people: the sign-in page's cookie
        let wrong = c.post(format!("{base}/api/staff-login")).form(&[("name", "ada"), ("password", "wrong guess")]);
        assert_eq!(wrong.send().await.expect("sign in").status(), 401);
        let res = c
            .post(format!("{base}/api/staff-login"))
            .header("Accept", "text/html")
            .form(&[("name", "ada"), ("password", "a long passphrase")])
            .send()
            .await
            .expect("sign in");
        assert_eq!(res.status(), 302);
        let set_cookie = res.headers()["set-cookie"].to_str().expect("cookie").to_owned();
        assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"), "{set_cookie}");
        let staff_cookie = set_cookie.split(';').next().map(str::to_owned);
        let page = get("/research?k=1", None, staff_cookie.clone()).await.expect("page");
        assert_eq!(page.status(), 200);
        assert!(page.text().await.expect("html").contains("Download these answers"));
        let k1 = get("/api/export/jsonl?k=1", None, staff_cookie.clone()).await.expect("filtered").text().await.expect("jsonl");
        let expected_k1: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM answers WHERE k = 1").fetch_one(store.pool()).await.expect("k1");
        assert_eq!(k1.lines().count() as i64, expected_k1);
        assert!(k1.lines().all(|l| l.contains("\"k\":1,")), "{k1}");
        let report = c
            .post(format!("{base}/api/research-report"))
            .header("Accept", "application/json")
            .header("Cookie", staff_cookie.clone().unwrap_or_default())
            .send()
            .await
            .expect("report");
        assert_eq!(report.status(), 200);
        let report: Value = report.json().await.expect("report JSON");
        // the models and their conventions, the substitution game's six tables and its
        // agreement, response times and IRT (items, abilities), the Likert agreement, the
        // word-definition game's three, the next-word game's two, the invented-word game's two,
        // the cloze game's one, and the IRT of those four modes (items, abilities)
        assert!(report["tables"].as_array().is_some_and(|t| t.len() == 22), "{report}");
        assert_eq!(report["tables"][0]["header"], serde_json::json!(["model", "kind", "convention"]), "{report}");
        assert!(report["summary"].as_str().is_some_and(|s| s.starts_with("2 answers")), "{report}");
        let out = c.post(format!("{base}/api/staff-logout")).header("Accept", "text/html");
        assert_eq!(out.header("Cookie", staff_cookie.clone().unwrap_or_default()).send().await.expect("sign out").status(), 302);
        assert_eq!(get("/research", None, staff_cookie).await.expect("after sign-out").status(), 401);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn scored_models_stand_on_the_leaderboard() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        play(&Engine::new(store.clone()), 2, 10).await;
        play(&Engine::new(store.clone()), 1, 4).await;
        score_with_tiny_model(store).await;
        let standings = store.game().leaderboard(Period::AllTime).await.expect("leaderboard");
        assert_eq!(store.game().leaderboard(Period::Week).await.expect("this week"), standings, "every answer is from now");
        let players = standings.iter().filter(|s| matches!(s.who, Contender::Player(_))).count();
        assert_eq!(players, 2, "only players with 10 answers or more are ranked");
        let model = standings.iter().find(|s| s.who == Contender::Model("tiny".into())).expect("the model stands");
        let (played, right): (i64, i64) = {
            let r = sqlx::query(
                "SELECT COUNT(*), SUM(CASE WHEN s.score > 0 THEN 1 ELSE 0 END) FROM item_scores s \
                 WHERE s.model_id = 'tiny' AND s.item_id IN (SELECT item_id FROM answers)",
            )
            .fetch_one(store.pool())
            .await
            .expect("model items");
            (r.get(0), r.get(1))
        };
        assert_eq!((model.answered, model.correct), (played, right));
        assert!(standings.windows(2).all(|w| w[0].rate() >= w[1].rate()), "best first");

        let base = common::serve(store).await.base;
        let page = reqwest::get(format!("{base}/leaderboard")).await.expect("page").text().await.expect("html");
        assert!(page.contains("tiny") && page.contains("model"), "the page shows the model");

        // answers from before this week's Monday count for all time only
        let first =
            standings.iter().find_map(|s| if let Contender::Player(p) = &s.who { Some(p.clone()) } else { None }).expect("a ranked player");
        let eight_days_ms: i64 = 8 * 86_400_000;
        sqlx::query(
            "UPDATE answers SET created_at = created_at - $1 WHERE annotator_id = (SELECT id FROM annotators WHERE pseudonym = $2)",
        )
        .bind(eight_days_ms)
        .bind(&first)
        .execute(store.pool())
        .await
        .expect("back-date");
        let players = |list: Vec<Standing>| -> Vec<String> {
            list.into_iter().filter_map(|s| if let Contender::Player(p) = s.who { Some(p) } else { None }).collect()
        };
        let week = players(store.game().leaderboard(Period::Week).await.expect("week"));
        let all = players(store.game().leaderboard(Period::AllTime).await.expect("all"));
        assert!(!week.contains(&first) && all.contains(&first), "{first}: week {week:?}, all {all:?}");
        assert_eq!((week.len(), all.len()), (1, 2));
        let page = |q: &'static str| {
            let url = format!("{base}/leaderboard{q}");
            async move { reqwest::get(url).await.expect("page").text().await.expect("html") }
        };
        assert!(!page("").await.contains(&first) && page("?period=all").await.contains(&first));
    }
}

#[tokio::test]
async fn the_report_folder_holds_every_table_and_figure() {
    let db = gapwise_store::testing::sqlite().await;
    let store = &db.store;
    seed_small(store).await;
    let likert_items = seed_likert(store, 2).await;
    assert!(likert_items >= 20, "{likert_items} Likert items");
    let engine = Engine::new(store.clone());
    // enough players that items have the 5 answers the IRT fits need, and abilities
    // that differ (players answering in turn would leave the fits nothing to estimate)
    play_with_skill(&engine, 24, 6).await;
    // one answer given with a key, across a hidden page, with what the browser saw
    let annotator = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("annotator");
    let token = store.players().create_session(&annotator.id).await.expect("session");
    let session = store.players().session(&token).await.expect("session").expect("live");
    let gapwise_model::PlayState::Item { card, .. } =
        engine.game().play_state(&session, gapwise_model::K::FIVE, gapwise_model::Language::En).await.expect("play")
    else {
        panic!("no item")
    };
    let trial =
        gapwise_model::Trial { input: Some(gapwise_model::Input::Key), hidden: Some(1), clock_us: Some(100), frame_us: Some(16_667) };
    engine.game().answer(&session, &card.answer_id, 0, gapwise_model::Reported { client_ms: Some(1500), trial }).await.expect("answer");
    let on_likert: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM answers a JOIN items i ON i.id = a.item_id WHERE i.kind = 'likert'")
        .fetch_one(store.pool())
        .await
        .expect("count");
    assert_eq!(on_likert, 0, "the two-button game never serves Likert items");
    score_with_tiny_model(store).await;
    let dir = tempfile::tempdir().expect("tmp");
    let files =
        gapwise_research::report::write_report(store, &["tiny".to_owned()], &AnswerFilter::default(), &Default::default(), dir.path())
            .await
            .expect("report");
    for name in [
        "table3_4_success_rates",
        "indistinguishable_pairs",
        "table5_mcc",
        "table6_time_effect",
        "table7_spearman",
        "table8_dominance",
        "agreement",
        "rate_agreement",
        "irt_items",
        "irt_abilities",
        "response_times",
    ] {
        for ext in ["md", "csv"] {
            let file = format!("{name}.{ext}");
            assert!(files.contains(&file) && dir.path().join(&file).is_file(), "{file} missing");
        }
    }
    let svg = std::fs::read_to_string(dir.path().join("fig1_success_by_k.svg")).expect("figure");
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"), "an SVG with lines");
    let irt = std::fs::read_to_string(dir.path().join("fig_irt_en.svg")).expect("the IRT figure");
    assert!(
        irt.starts_with("<svg") && irt.contains("<polyline") && irt.contains("tiny"),
        "curves, and the model marked: {}",
        std::fs::read_to_string(dir.path().join("irt_items.csv")).unwrap_or_default()
    );
    // the curves are the most answered item's, or those of an item chosen
    let curved =
        |svg: &str| svg.split("curves: item ").nth(1).and_then(|rest| rest.split(':').next()).and_then(|id| id.parse::<i64>().ok());
    let most_answered = curved(&irt).expect("an item's curves");
    let other: i64 = sqlx::query_scalar("SELECT MIN(item_id) FROM answers WHERE item_id <> $1")
        .bind(most_answered)
        .fetch_one(store.pool())
        .await
        .expect("item");
    let options = gapwise_model::ReportOptions { curve_item: Some(gapwise_model::ItemId(other)), ..Default::default() };
    let chosen = gapwise_research::report::build_report(store, &[], &AnswerFilter::default(), &options).await.expect("report");
    let figure = chosen.figures.iter().find(|f| f.file == "fig_irt_en").expect("the IRT figure");
    assert_eq!(curved(&figure.svg), Some(other));
    // the overall English rate in the table is the share of correct answers in the database
    let (right, all): (i64, i64) = {
        let r = sqlx::query("SELECT SUM(correct), COUNT(*) FROM answers").fetch_one(store.pool()).await.expect("count");
        (r.get(0), r.get(1))
    };
    let table = read_csv(&dir.path().join("table3_4_success_rates.csv"));
    let overall = table.iter().find(|r| text(r, "k") == "all" && text(r, "strategy") == "all").expect("overall row");
    assert_eq!(text(overall, "answers"), all.to_string());
    assert_eq!(text(overall, "success"), format!("{:.3}", right as f64 / all as f64));
    // agreement: every answer counted once in its language's "all" row, alpha at most 1
    let agreement = read_csv(&dir.path().join("agreement.csv"));
    let everything = agreement.iter().find(|r| text(r, "k") == "all").expect("an all-k row");
    assert_eq!(text(everything, "answers"), all.to_string());
    // (n/a when no two players shared an item: the game spreads players over items)
    let alpha = text(everything, "alpha");
    assert!(alpha == "n/a" || alpha.parse::<f64>().is_ok_and(|a| (-1.0..=1.0).contains(&a)), "alpha {alpha}");
    // IRT: one row per item answered, and the model on the players' scale
    let items: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT item_id) FROM answers").fetch_one(store.pool()).await.expect("items");
    let irt_items = read_csv(&dir.path().join("irt_items.csv"));
    assert_eq!(irt_items.len() as i64, items);
    // the 2PL estimates only items it can identify: never one with under 5 answers
    for row in &irt_items {
        let answers: usize = text(row, "answers").parse().expect("answers");
        let (b, a) = (text(row, "difficulty_2pl"), text(row, "discrimination_2pl"));
        assert_eq!(b == "n/a", a == "n/a", "{row}");
        assert!(answers >= 5 || b == "n/a", "an item with {answers} answers has a 2PL estimate: {row}");
    }
    let abilities = read_csv(&dir.path().join("irt_abilities.csv"));
    let tiny = abilities.iter().find(|r| text(r, "respondent") == "tiny").expect("the model's row");
    let theta: f64 = text(tiny, "ability").parse().expect("the model has an ability");
    assert!((-6.0..=6.0).contains(&theta), "ability {theta}");
    // how the times were taken: the key answer on its own row, the others without a trial
    let times = read_csv(&dir.path().join("response_times.csv"));
    let key = times.iter().find(|r| text(r, "input") == "key").expect("the key's row");
    let shown: Vec<String> =
        ["answers", "median_ms", "tab_hidden_pct", "coarse_clock_pct", "frame_ms", "clock_us"].iter().map(|c| text(key, c)).collect();
    assert_eq!(shown, ["1", "1500.000", "100.000", "0.000", "16.667", "100.000"]);
    let untimed = times.iter().find(|r| text(r, "input").starts_with("none")).expect("answers without a trial");
    assert_eq!(text(untimed, "answers"), (all - 1).to_string());
    // where nothing was measured, no share is printed as if measured
    assert_eq!((text(untimed, "tab_hidden_pct"), text(untimed, "coarse_clock_pct")), ("n/a".to_owned(), "n/a".to_owned()));
    // Likert agreement: every rating of the seeded raters counted
    let ratings: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rate_ratings").fetch_one(store.pool()).await.expect("ratings");
    let rate_agreement = read_csv(&dir.path().join("rate_agreement.csv"));
    assert_eq!(rate_agreement.iter().map(|r| text(r, "ratings").parse::<i64>().expect("a count")).sum::<i64>(), ratings);
    let mcc = read_csv(&dir.path().join("table5_mcc.csv"));
    assert_eq!((text(&mcc[0], "model"), text(&mcc[0], "answers")), ("tiny".to_owned(), all.to_string()));
    // Table 8: every Likert item has a score and a played pair; the shares add up to 100 %
    let table8 = read_csv(&dir.path().join("table8_dominance.csv"));
    assert_eq!(table8.len(), 1, "one model, one language");
    assert_eq!(text(&table8[0], "items"), likert_items.to_string());
    // (a predictor that does not vary, one source, reads n/a)
    let shares: f64 =
        ["score", "success", "time", "frequency", "source"].iter().filter_map(|c| text(&table8[0], c).parse::<f64>().ok()).sum();
    assert!((shares - 100.0).abs() < 0.01, "shares add up to {shares}");
    let r2: f64 = text(&table8[0], "r2").parse().expect("r2");
    assert!((0.0..=1.0).contains(&r2), "r2 = {r2}");
    let heatmap = std::fs::read_to_string(dir.path().join("fig2_likert_tiny.svg")).expect("Figure 2");
    // cells are shaded by their count; empty ones are not drawn, the fullest is opaque
    assert!(heatmap.starts_with("<svg") && heatmap.contains(r##"opacity="1" fill="#0000FF""##), "a heatmap");
    let index = std::fs::read_to_string(dir.path().join("README.md")).expect("index");
    assert!(index.contains("Table 6") && index.contains("Table 8") && index.contains("fig2_likert_tiny.svg"), "{index}");

    // a filter that selects nothing gives empty tables, not an error
    let french = AnswerFilter { language: Some("fr".into()), ..Default::default() };
    let report = gapwise_research::report::build_report(store, &["tiny".to_owned()], &french, &Default::default()).await.expect("report");
    assert!(report.summary.starts_with("0 answers"), "{}", report.summary);
}

/// `players` annotators each answer `items` English items of `seed_small` (k = 1, 3
/// and 5 in turn), player p right on about (p + 1) / (players + 1) of them: the
/// seeded pairs' targets are "two" and "red".
async fn play_with_skill(engine: &Engine, players: usize, items: usize) {
    let store = engine.store();
    for p in 0..players {
        let annotator = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("annotator");
        let token = store.players().create_session(&annotator.id).await.expect("session");
        for i in 0..items {
            let session = store.players().session(&token).await.expect("session").expect("live");
            let k = gapwise_model::K::ALL[i % 3];
            let gapwise_model::PlayState::Item { card, .. } =
                engine.game().play_state(&session, k, gapwise_model::Language::En).await.expect("play")
            else {
                panic!("no item left for player {p} at k = {k}")
            };
            let target = card.options.iter().position(|w| w == "two" || w == "red").expect("a seeded pair");
            let right = (i * 7 + p * 3) % (players + 1) <= p;
            let choice = if right { target } else { 1 - target };
            engine.game().answer(&session, &card.answer_id, choice, gapwise_model::Reported::ms(Some(900))).await.expect("answer");
            engine.game().next_item(&session).await.expect("next");
        }
    }
}

/// The package folder, read when the test runs (a test binary reused from a build in
/// another checkout must not look in that checkout).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR")
}

#[tokio::test]
async fn section_6_keeps_the_extremes_and_never_shares_a_sentence() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        // a third pair that competes with two/three for the same sentences
        let pairs = "lang\ttarget\tdistractor\tstrategy\nen\ttwo\tfour\ta-priori\n";
        store.material().import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await.expect("pair");
        let model = tiny_model(store).await;
        let first = store.rate().pairs_without_items(gapwise_model::Language::En, None).await.expect("pairs").remove(0);
        let candidates = store.rate().candidates(gapwise_model::Language::En, &first, 10_000).await.expect("candidates");
        assert!(candidates.len() > 4, "{} candidates", candidates.len());
        let contexts: Vec<Context<'_>> = candidates
            .iter()
            .map(|c| Context { text: &c.text, blank: c.blank, target: &first.target, distractor: &first.distractor })
            .collect();
        let mut by_score: Vec<(f64, i64)> = model
            .score_contexts(&contexts)
            .expect("score")
            .iter()
            .zip(&candidates)
            .map(|(s, c)| (s.target - s.distractor, c.sentence_id))
            .collect();
        by_score.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut expected: Vec<i64> = by_score.iter().take(2).chain(by_score.iter().rev().take(2)).map(|(_, id)| *id).collect();
        expected.sort_unstable();

        let selection = Selection { pairs: None, sample: 10_000, per_end: 2 };
        let report = select_contexts(
            store,
            model.clone(),
            &gapwise_model::ModelId::new("tiny"),
            gapwise_model::Language::En,
            selection,
            &ProgressBar::hidden(),
        )
        .await
        .expect("select");
        assert_eq!((report.pairs, report.items), (3, 12));
        let chosen = |pair: gapwise_model::PairId| {
            sqlx::query_scalar::<_, i64>(
                "SELECT c.sentence_id FROM item_contexts c JOIN items i ON i.id = c.item_id \
                 WHERE i.kind = 'likert' AND i.k = 1 AND i.pair_id = $1 ORDER BY c.sentence_id",
            )
            .bind(pair)
            .fetch_all(store.pool())
        };
        assert_eq!(chosen(first.id).await.expect("chosen"), expected, "the two lowest and two highest scores");
        let all: Vec<i64> =
            sqlx::query_scalar("SELECT c.sentence_id FROM item_contexts c JOIN items i ON i.id = c.item_id WHERE i.kind = 'likert'")
                .fetch_all(store.pool())
                .await
                .expect("all");
        assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len(), "a sentence serves one pair only");
        let scored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM item_scores s JOIN items i ON i.id = s.item_id WHERE i.kind = 'likert'")
            .fetch_one(store.pool())
            .await
            .expect("scores");
        assert_eq!(scored, 12, "every Likert item has its Eq. 2 score");
        let again = select_contexts(
            store,
            model,
            &gapwise_model::ModelId::new("tiny"),
            gapwise_model::Language::En,
            selection,
            &ProgressBar::hidden(),
        )
        .await
        .expect("rerun");
        assert_eq!((again.pairs, again.items), (0, 0), "a rerun adds nothing");
    }
}

/// `gapwise ARGS` against the database at `url`: (exit code, stdout and stderr).
fn gapwise(url: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gapwise")).args(args).env("DATABASE_URL", url).output().expect("run gapwise");
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The commands that only read refuse what names nothing, by name and with exit
/// code 2, instead of writing an empty report or export: a database that is not
/// there (and they create nothing), an unknown language, an item nobody answered
/// (negative ids parse), a source no sentence comes from, a range that ends
/// before it starts.
#[tokio::test]
async fn report_and_export_refuse_what_names_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("out");
    let out_arg = out.display().to_string();
    let missing = dir.path().join("typo/gapwise.db");
    let missing_url = format!("sqlite://{}", missing.display());
    for command in [&["report", "--out", &out_arg][..], &["export", "--out", &out_arg], &["export-pairs"]] {
        let (code, said) = gapwise(&missing_url, command);
        assert_eq!(code, Some(2), "{command:?}: {said}");
        assert!(said.contains(&format!("no database at {}", missing.display())), "{command:?}: {said}");
        assert!(!missing.parent().expect("folder").exists() && !out.exists(), "{command:?} created something");
    }

    let db = dir.path().join("gapwise.db");
    let url = format!("sqlite://{}", db.display());
    {
        let store = Store::open(&url).await.expect("store");
        seed_small(&store).await;
        play(&Engine::new(store.clone()), 2, 3).await;
        store.close().await;
    }
    for (args, named) in [
        (&["report", "--language", "english"][..], "\"english\""),
        (&["export", "--language", "xx"], "\"xx\""),
        (&["report", "--curve-item", "99999999"], "item 99999999"),
        (&["report", "--curve-item", "-5"], "item -5"),
        (&["report", "--drop-source", "nowhere"], "\"nowhere\""),
        (&["report", "--from", "2026-11-24", "--to", "2026-11-23"], "from 2026-11-24 is after to 2026-11-23"),
        (&["export", "--from", "2026-11-24", "--to", "2026-11-23"], "from 2026-11-24 is after to 2026-11-23"),
        (&["export-pairs", "--language", "english"], "\"english\""),
        (&["export-pairs", "--language", "xx"], "\"xx\""),
    ] {
        let out_args = if args[0] == "export-pairs" { &[][..] } else { &["--out", out_arg.as_str()][..] };
        let args: Vec<&str> = args.iter().copied().chain(out_args.iter().copied()).collect();
        let (code, said) = gapwise(&url, &args);
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(said.contains(named), "{args:?} should name {named}: {said}");
        assert!(!out.exists(), "{args:?} wrote {out_arg}");
    }
    // a model with no scores, on a database where no model has any, is named as such
    let (code, said) = gapwise(&url, &["report", "--models", "nosuch", "--out", &out_arg]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("\"nosuch\"") && said.contains("no model has scores yet"), "{said}");
    // --out naming a file is a usage error, and the file is left as it was
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine").expect("a file");
    let (code, said) = gapwise(&url, &["report", "--out", &file.display().to_string()]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(&file.display().to_string()) && said.contains("a file"), "{said}");
    assert_eq!(std::fs::read_to_string(&file).expect("the file"), "mine");
    // what names something still works
    let (code, said) = gapwise(&url, &["report", "--language", "en", "--out", &out_arg]);
    assert_eq!(code, Some(0), "{said}");
    assert!(out.join("README.md").is_file());
}

/// A game too small to fit (three players, a handful of answers an item, some all
/// right) gets n/a with the reason for every item and player, never an estimate at a
/// bound or a signed zero, in any table of the report.
#[tokio::test]
async fn a_degenerate_game_reports_no_estimate_it_cannot_hold() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("gapwise.db");
    let url = format!("sqlite://{}", db.display());
    {
        let store = Store::open(&url).await.expect("store");
        seed_small(&store).await;
        play(&Engine::new(store.clone()), 3, 4).await;
        store.close().await;
    }
    let out = dir.path().join("out");
    for k in [None, Some("1")] {
        let mut args = vec!["report", "--out", out.to_str().expect("a path")];
        args.extend(k.iter().flat_map(|k| ["--k", k]));
        let (code, said) = gapwise(&url, &args);
        assert_eq!(code, Some(0), "{said}");
        for entry in std::fs::read_dir(&out).expect("the report") {
            let path = entry.expect("a file").path();
            if path.extension().is_some_and(|e| e == "csv") {
                let text = std::fs::read_to_string(&path).expect("a table");
                assert!(!text.split([',', '\n']).any(|cell| cell.trim() == "-0.000"), "{}: a signed zero", path.display());
            }
        }
        for row in read_csv(&out.join("irt_items.csv")) {
            assert_eq!(text(&row, "difficulty_1pl"), "n/a", "{row}");
            assert!(text(&row, "why_not_estimated").contains("1PL: "), "{row}");
        }
        for row in read_csv(&out.join("irt_abilities.csv")) {
            let ability = text(&row, "ability");
            assert!(ability == "n/a" || ability.parse::<f64>().is_ok_and(|a| a.abs() < 6.0), "{row}");
        }
        let figure = std::fs::read_to_string(out.join("fig_irt_en.svg")).expect("the IRT figure");
        assert!(!figure.contains("a 0.05"), "a discrimination at its bound drawn as an estimate");
    }
}

/// Scoring on a GPU with a build that has no CUDA is refused by name, before
/// anything is scored; so is a device that does not exist or a precision unknown.
#[test]
fn a_gpu_is_refused_by_a_build_without_cuda() {
    let dir = tempfile::tempdir().expect("tmp");
    let url = format!("sqlite://{}", dir.path().join("gapwise.db").display());
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/../scorer/fixtures/hf_llama");
    for (device, named) in [("cuda", "this build has no CUDA"), ("cuda:1", "this build has no CUDA"), ("tpu", "unknown device \"tpu\"")] {
        let (code, said) = gapwise(&url, &["score", "--model", model, "--device", device]);
        assert_ne!(code, Some(0), "{device}: {said}");
        assert!(said.contains(named), "{device} should say {named:?}: {said}");
    }
    let (code, said) = gapwise(&url, &["score", "--model", model, "--precision", "fp8"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("auto, f32, bf16, f16"), "{said}");
}

/// A report or export that cannot be written is the server's fault: a write error,
/// a 500 at the edge (logged, not shown), never a 422 that blames the request; an
/// option naming what the data does not have is the request's (422).
#[tokio::test]
async fn a_failed_write_is_the_servers_fault_and_a_bad_option_the_requests() {
    use gapwise_app::AppError;
    use gapwise_research::ResearchError;

    let db = gapwise_store::testing::sqlite().await;
    seed_small(&db.store).await;
    let dir = tempfile::tempdir().expect("folder");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").expect("file");
    let options = gapwise_model::ReportOptions::default();
    let err = gapwise_research::report::write_report(&db.store, &[], &AnswerFilter::default(), &options, &file.join("report"))
        .await
        .expect_err("a report under a file");
    assert!(matches!(err, ResearchError::Write { what: "report", .. }), "{err}");
    assert_eq!(AppError::from(err).status(), axum::http::StatusCode::INTERNAL_SERVER_ERROR);
    let err = export_folder(&db.store, Format::Csv, &[], &AnswerFilter::default(), &file.join("export"))
        .await
        .expect_err("an export under a file");
    assert!(matches!(err, ResearchError::Write { what: "export", .. }), "{err}");

    let options = gapwise_model::ReportOptions { drop_sources: vec!["nowhere".into()], ..Default::default() };
    let err =
        gapwise_research::report::build_report(&db.store, &[], &AnswerFilter::default(), &options).await.expect_err("an unknown source");
    assert!(matches!(err, ResearchError::Invalid(_)), "{err}");
    assert_eq!(AppError::from(err).status(), axum::http::StatusCode::UNPROCESSABLE_ENTITY);
}
