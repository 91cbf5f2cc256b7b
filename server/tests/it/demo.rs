//! The shipped demo data makes every language playable: sentences, pairs and items in
//! en, es, fr, it and ru, and every item's contexts hold the target, never the distractor.

#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_model::words::occurrences;
use gapwise_model::{plan, prepared, Mode, Part, Pending, Prepared, Task};
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_server::demo::seed_if_empty;
use sqlx::Row;

#[tokio::test]
async fn every_language_has_items_from_the_demo_data() {
    let db = gapwise_store::testing::sqlite().await;
    let store = &db.store;
    let report = seed_if_empty(store, false).await.expect("seed").expect("an empty database is seeded");
    assert!(seed_if_empty(store, false).await.expect("again").is_none(), "a seeded database is left alone");
    let per_language =
        sqlx::query("SELECT p.lang, COUNT(*) FROM items i JOIN word_pairs p ON p.id = i.pair_id GROUP BY p.lang ORDER BY p.lang")
            .fetch_all(store.pool())
            .await
            .expect("items");
    let languages: Vec<String> = per_language.iter().map(|r| r.get(0)).collect();
    assert_eq!(languages, ["en", "es", "fr", "it", "ru"]);
    assert!(per_language.iter().all(|r| r.get::<i64, _>(1) >= 100), "at least 100 items per language");
    assert_eq!(per_language.iter().map(|r| r.get::<i64, _>(1)).sum::<i64>() as u64, report.items);

    let contexts = sqlx::query(
        "SELECT s.text, p.target, p.distractor FROM item_contexts c JOIN items i ON i.id = c.item_id \
         JOIN word_pairs p ON p.id = i.pair_id JOIN sentences s ON s.id = c.sentence_id",
    )
    .fetch_all(store.pool())
    .await
    .expect("contexts");
    for r in &contexts {
        let (text, target, distractor): (String, String, String) = (r.get(0), r.get(1), r.get(2));
        assert_eq!(occurrences(&text, &target).len(), 1, "{target} once in {text:?}");
        assert!(occurrences(&text, &distractor).is_empty(), "no {distractor} in {text:?}");
    }

    // items do not give each other away: a sentence is in one item only; no item
    // reads the same sentence twice
    let placed = sqlx::query(
        "SELECT c.sentence_id, i.pair_id, i.id, lower(p.target), s.text FROM item_contexts c JOIN items i ON i.id = c.item_id \
         JOIN word_pairs p ON p.id = i.pair_id JOIN sentences s ON s.id = c.sentence_id WHERE i.kind = 'choice'",
    )
    .fetch_all(store.pool())
    .await
    .expect("placed");
    let mut in_items = std::collections::HashSet::new();
    let mut in_item = std::collections::HashSet::new();
    for r in &placed {
        let (sentence, pair, item, word, text): (i64, i64, i64, String, String) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        assert!(in_items.insert(sentence), "sentence {sentence} in two items (now of pair {pair}, blanked at {word}): {text:?}");
        let read: String = text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
        assert!(in_item.insert((item, read)), "item {item} reads {text:?} twice");
    }

    // every language: a corpus of its own size, and pairs of more than one strategy
    let shape = sqlx::query(
        "SELECT lang, (SELECT COUNT(*) FROM sentences s WHERE s.lang = p.lang), COUNT(DISTINCT strategy) FROM word_pairs p GROUP BY lang ORDER BY lang",
    )
    .fetch_all(store.pool())
    .await
    .expect("shape");
    for r in &shape {
        let (language, sentences, strategies): (String, i64, i64) = (r.get(0), r.get(1), r.get(2));
        assert!(strategies >= 2, "{language}: pairs of {strategies} strategy");
        if language != "en" {
            assert!(sentences >= 10_000, "{language}: {sentences} sentences");
        }
    }
}

/// A first start cut short (some sentences in, no items) is finished by the next start,
/// which a database with data but no mark is not; replicas starting together on
/// PostgreSQL load one at a time.
#[tokio::test]
async fn a_first_start_cut_short_is_finished_and_replicas_load_one_at_a_time() {
    for db in gapwise_store::testing::each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        store.first_start().mark(1).await.expect("mark");
        let english = include_str!("../../../data/demo/en_sentences.tsv");
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, english).await.expect("some sentences");
        let pairs = include_str!("../../../data/demo/en_pairs.tsv");
        store.material().import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await.expect("the English pairs");
        assert_eq!(store.first_start().unfinished().await.expect("read"), Some(1), "{backend:?}");
        assert!(seed_if_empty(store, false).await.expect("seed").is_none(), "{backend:?}: data without the mark is left alone");
        let report = seed_if_empty(store, true).await.expect("resume").expect("finished");
        assert!(report.items > 0 && store.count_rows("items").await.expect("count") > 0, "{backend:?}");
        store.first_start().done().await.expect("unmark");
        assert_eq!(store.first_start().unfinished().await.expect("read"), None, "{backend:?}");

        let held = store.first_start().lock().await.expect("lock");
        if let Some(held) = held {
            let other = tokio::time::timeout(std::time::Duration::from_millis(300), store.first_start().lock()).await;
            assert!(other.is_err(), "{backend:?}: a second server waits while the first loads");
            drop(held);
            let other = tokio::time::timeout(std::time::Duration::from_secs(5), store.first_start().lock()).await;
            assert!(matches!(other, Ok(Ok(Some(_)))), "{backend:?}: and goes on once it is done");
        }
    }
}

/// The demo's model preparation is claimed by one server at a time: a claim holds
/// while its server renews it; another server takes a stale one over, and the first
/// then finds its renewal refused (and stops); a finished preparation lets it go.
#[tokio::test]
async fn the_demo_model_preparation_is_claimed_once() {
    for db in gapwise_store::testing::each_backend().await {
        let (store, backend) = (&db.store, db.backend());
        assert_eq!(store.first_start().steps_to_prepare().await.expect("read"), 0, "{backend:?}");
        store.first_start().plan_preparation(Pending::all().0).await.expect("plan");
        let first = store.first_start().claim_demo_models(30_000).await.expect("claim").expect("the first claims");
        assert_eq!(store.first_start().claim_demo_models(30_000).await.expect("claim"), None, "{backend:?}: a second waits");
        let renewed = store.first_start().renew_demo_models(first).await.expect("renew").expect("the claimant renews");
        assert_eq!(store.first_start().renew_demo_models(first).await.expect("renew"), None, "{backend:?}: only with its latest stamp");
        // a claim older than the second server's patience (here: any) is taken over
        let second = store.first_start().claim_demo_models(-1).await.expect("claim").expect("a stale claim is taken over");
        assert_eq!(store.first_start().renew_demo_models(renewed).await.expect("renew"), None, "{backend:?}: the first lost it");
        assert!(store.first_start().renew_demo_models(second).await.expect("renew").is_some(), "{backend:?}");
        store.first_start().set_steps_to_prepare(1).await.expect("one left");
        assert_eq!(store.first_start().steps_to_prepare().await.expect("read"), 1, "{backend:?}");
        assert!(store.first_start().preparing_since().await.expect("read").is_some(), "{backend:?}");
        store.first_start().set_steps_to_prepare(0).await.expect("done");
        assert_eq!(store.first_start().steps_to_prepare().await.expect("read"), 0, "{backend:?}");
        assert_eq!(store.first_start().preparing_since().await.expect("read"), None, "{backend:?}");
        assert!(store.first_start().claim_demo_models(30_000).await.expect("claim").is_some(), "{backend:?}: a finished claim is let go");
    }
}

/// The tasks of the preparation plan that `pick` picks, as stored bits.
fn tasks(pick: impl Fn(&Task) -> bool) -> i64 {
    plan().iter().enumerate().filter(|(_, t)| pick(t)).fold(Pending::default(), |pending, (at, _)| pending.with(at)).0
}

/// `gapwise serve` on a new database, with default models in the models folder
/// (here a tiny random Llama GGUF under both SmolLM2's and Gemma's file names): the
/// server answers at once, and in the background the models select sentences to
/// rate, predict next words and score the items in every language, and score
/// definition groups and judge invented-word items in English. A task left pending
/// (a server stopped midway) is run by the next start.
#[tokio::test]
async fn a_first_start_prepares_the_demo_model_data_in_the_background() {
    let dir = tempfile::tempdir().expect("folder");
    let models = dir.path().join("models");
    std::fs::create_dir(&models).expect("models folder");
    // the fixture takes 128 positions, fewer than some definition prompts need in its
    // small vocabulary: the copy says 4,096 (its rope is computed, no weight changes)
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scorer/fixtures/families/llama3.gguf");
    let mut gguf = std::fs::read(fixture).expect("fixture");
    let key = b"llama.context_length";
    let at = gguf.windows(key.len()).position(|w| w == key).expect("a context length") + key.len();
    assert_eq!(gguf[at..at + 8], [4, 0, 0, 0, 128, 0, 0, 0], "a u32 of 128");
    gguf[at + 4..at + 8].copy_from_slice(&4096u32.to_le_bytes());
    for name in ["SmolLM2-135M-Instruct.Q4_1.gguf", "gemma-3-270m-q4_k_m.gguf"] {
        std::fs::write(models.join(name), &gguf).expect("model");
    }
    let url = format!("sqlite://{}", dir.path().join("demo.db").display());

    let log = serve_until(&url, &models, &dir.path().join("first.log"));
    // every mode with material to prepare (the cloze game has none of its own)
    for step in Mode::ALL.into_iter().filter(|&mode| prepared(mode) != Prepared::Nothing) {
        assert!(
            log.contains(&format!("step=\"{}\"", step.code())) || log.contains(&format!("step={}", step.code())),
            "{step:?} ran: {log}"
        );
    }
    assert!(!log.contains("ready without"), "no task failed: {log}");
    let store = gapwise_store::Store::open(&url).await.expect("open");
    let by_language = |sql: &'static str| {
        let pool = store.pool().clone();
        async move {
            let rows: Vec<(String, i64)> = sqlx::query_as(sql).fetch_all(&pool).await.expect(sql);
            rows.into_iter().collect::<std::collections::BTreeMap<String, i64>>()
        }
    };
    let items =
        by_language("SELECT p.lang, COUNT(*) FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE i.kind = 'choice' GROUP BY p.lang")
            .await;
    let scored = by_language(
        "SELECT p.lang, COUNT(*) FROM item_scores s JOIN items i ON i.id = s.item_id JOIN word_pairs p ON p.id = i.pair_id \
         WHERE i.kind = 'choice' GROUP BY p.lang",
    )
    .await;
    let rated = by_language(
        "SELECT p.lang, COUNT(DISTINCT p.id) FROM items i JOIN word_pairs p ON p.id = i.pair_id WHERE i.kind = 'likert' GROUP BY p.lang",
    )
    .await;
    let predicted =
        "SELECT s.lang, COUNT(DISTINCT g.sentence_id) FROM guess_predictions g JOIN sentences s ON s.id = g.sentence_id GROUP BY s.lang";
    let suggested = by_language(predicted).await;
    for (language, _) in gapwise_model::LANGUAGES {
        let items = items.get(language).copied().unwrap_or(0);
        assert!(items > 100 && scored.get(language) == Some(&items), "{language}: every item scored: {scored:?} of {items}");
        assert!(rated.get(language).is_some_and(|&pairs| pairs > FIRST_PAIRS), "{language}: sentences to rate for every pair: {rated:?}");
        // the plan's 50, and those the supply predicted beside it while fewer than 3 were ahead
        assert!(suggested.get(language).is_some_and(|&n| n >= 50), "{language}: next-word suggestions for 50 sentences: {suggested:?}");
    }
    let count = |sql: &'static str| {
        let pool = store.pool().clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.expect(sql) }
    };
    assert!(count("SELECT COUNT(DISTINCT target) FROM define_scores").await > 0, "definition groups scored");
    assert!(count("SELECT COUNT(*) FROM new_words_judgements").await > 0, "invented-word items judged");
    assert_eq!(store.first_start().steps_to_prepare().await.expect("read"), 0);

    // a task left pending is run by the next start, on a database that is no longer new
    sqlx::query("DELETE FROM guess_predictions").execute(store.pool()).await.expect("forget");
    let next_words_ru = tasks(|t| t.mode == Mode::Guess && t.language == gapwise_model::Language::Ru);
    store.first_start().set_steps_to_prepare(next_words_ru).await.expect("pending");
    store.close().await;
    let log = serve_until(&url, &models, &dir.path().join("second.log"));
    assert!(!log.contains("loaded the demo data"), "no second demo: {log}");
    let store = gapwise_store::Store::open(&url).await.expect("open");
    let again: Vec<(String, i64)> = sqlx::query_as(predicted).fetch_all(store.pool()).await.expect("count");
    assert_eq!(again, [("ru".to_owned(), 50)], "the pending tasks ran again: {log}");

    // a server told to stop (SIGTERM) in the middle of a task leaves it pending, and
    // the tasks after it, and exits without waiting for them
    sqlx::query("DELETE FROM guess_predictions").execute(store.pool()).await.expect("forget");
    let left = tasks(|t| t.language == gapwise_model::Language::En && matches!(t.mode, Mode::Guess | Mode::Define | Mode::NewWords));
    store.first_start().set_steps_to_prepare(left).await.expect("pending");
    let log = dir.path().join("third.log");
    let mut child = start_serving(&url, &models, &log);
    wait_for(&mut child, &log, &["step=\"guess\""]);
    let term = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    assert!(term.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().expect("child").is_none() {
        assert!(std::time::Instant::now() < deadline, "still running 30 s after SIGTERM");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("the demo's model preparation stopped"), "{text}");
    let waiting = store.first_start().steps_to_prepare().await.expect("read");
    assert_eq!(waiting & left, waiting, "nothing else is pending: {text}");
    let first_pending = tasks(|t| t.language == gapwise_model::Language::En && t.mode == Mode::Guess && t.part == Part::First);
    assert!(waiting & first_pending != 0 && waiting.count_ones() >= 3, "the interrupted task and those after it wait: {text}");
    store.close().await;
}

/// Pairs whose rating sentences the preparation's first part selects in a language.
const FIRST_PAIRS: i64 = 2;

/// Starts `gapwise serve` on `url` with `models` as its models folder, its output in `log`.
fn start_serving(url: &str, models: &std::path::Path, log: &std::path::Path) -> std::process::Child {
    let out = std::fs::File::create(log).expect("log file");
    std::process::Command::new(env!("CARGO_BIN_EXE_gapwise"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("DATABASE_URL", url)
        .env("GAPWISE_MODEL_DIR", models)
        .env("RUST_LOG", "info")
        .env_remove("GAPWISE_MODEL")
        .env_remove("GAPWISE_NO_DEMO_MODELS")
        .stdout(out.try_clone().expect("log file"))
        .stderr(out)
        .spawn()
        .expect("start gapwise")
}

/// Waits until the server's log holds one of `texts` (failing if it exits first, or
/// after 10 minutes); the log.
fn wait_for(child: &mut std::process::Child, log: &std::path::Path, texts: &[&str]) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        assert!(!text.contains('\u{1b}'), "a log written to a file has no colour codes: {text}");
        if texts.iter().any(|t| text.contains(t)) {
            return text;
        }
        assert!(child.try_wait().expect("child").is_none(), "the server exited: {text}");
        assert!(std::time::Instant::now() < deadline, "none of {texts:?} after 10 minutes: {text}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Runs `gapwise serve` on `url` with `models` as its models folder until it logs
/// that the demo's model data is ready (failing if it says it is not); its log.
fn serve_until(url: &str, models: &std::path::Path, log: &std::path::Path) -> String {
    let mut child = start_serving(url, models, log);
    let text = wait_for(&mut child, log, &["the demo's model data is ready", "the demo's model data was not finished"]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(!text.contains("was not finished") && !text.contains("ready without"), "{text}");
    text
}

/// The shipped sentences hold no debris of markup their builder removed (the French
/// manuals' code, commands and man-page references): no empty quotes or brackets, no
/// section number left without its command, no space before a comma or full stop,
/// no lead-in to a list cut out of a manual.
#[test]
fn the_demo_sentences_carry_no_markup_debris() {
    let files = [
        ("en", include_str!("../../../data/demo/en_sentences.tsv")),
        ("es", include_str!("../../../data/demo/es_sentences.tsv")),
        ("fr", include_str!("../../../data/demo/fr_sentences.tsv")),
        ("it", include_str!("../../../data/demo/it_sentences.tsv")),
        ("ru", include_str!("../../../data/demo/ru_sentences.tsv")),
    ];
    for (language, file) in files {
        let sentences: Vec<&str> = file.lines().skip(1).map(|line| line.split('\t').nth(1).expect("a text column")).collect();
        assert!(sentences.len() >= 2_000, "a few thousand sentences per language, not {}", sentences.len());
        for text in sentences {
            // (French puts a space before ; : ! ? by its rules)
            let holes = ["« »", "“ ”", "()", "( )", "[]", " ,"];
            assert!(!holes.iter().any(|hole| text.contains(hole)), "a hole in {text:?}");
            // a space before a full stop, unless it begins an ellipsis
            assert!(!text.replace(" ...", "").contains(" ."), "a hole in {text:?}");
            // "(1) concatène des fichiers": a man page's section, its command cut out
            let b = text.as_bytes();
            let section = b.len() > 3 && b[0] == b'(' && b[1].is_ascii_digit() && b[2] == b')';
            assert!(!section, "a man-page section without its command in {text:?}");
            // the manuals' lead-ins to a list or a command ("avec une commande :")
            let lead_in = language == "fr" && (text.ends_with(':') || text.ends_with(';'));
            assert!(!lead_in, "a list lead-in: {text:?}");
        }
    }
}
