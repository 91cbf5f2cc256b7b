//! The cloze game over HTTP on SQLite and PostgreSQL: a sentence with one word
//! blanked, answered right (the word read from the database) and told so with the
//! word and a model's words there; a second answer told as the first; another
//! player's serving and a made-up one refused; a plain form post (no JavaScript)
//! coming back to the page with its outcome; the report's count; and erasure.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::{call, started, App};
use gapwise_model::{cloze_parts, AnswerFilter};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::Store;
use reqwest::{header, Client, StatusCode};
use serde_json::{json, Value};

async fn spawn(store: &Store) -> App {
    seed_small(store).await;
    common::serve(store).await
}

/// Serving `serving` as stored: its sentence's id and text, the blanked position,
/// and the word there.
async fn served(store: &Store, serving: &str) -> (i64, String, i64, String) {
    let (sentence, text, position): (i64, String, i64) =
        sqlx::query_as("SELECT s.id, s.text, v.position FROM cloze_servings v JOIN sentences s ON s.id = v.sentence_id WHERE v.id = $1")
            .bind(serving)
            .fetch_one(store.pool())
            .await
            .expect("serving");
    let (_, word, _) = cloze_parts(&text, usize::try_from(position).expect("a position")).expect("the blanked word");
    (sentence, text, position, word)
}

/// Answers serving `serving` with `typed` as the player on `c`.
async fn answer(c: &Client, app: &App, serving: &str, typed: &str) -> (StatusCode, Value) {
    call(c, app, "cloze-answer", &[("serving_id", serving), ("typed", typed)]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_word_typed_into_its_blank_once_and_what_is_refused() {
    for db in each_backend().await {
        let store = &db.store;
        let app = spawn(store).await;
        let (me, other) = (started(&app).await, started(&app).await);
        let en = [("language", "en")];

        // a round needs a session and a language of the game
        assert_eq!(call(&Client::new(), &app, "cloze-round", &en).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&me, &app, "cloze-round", &[("language", "xx")]).await.0, StatusCode::UNPROCESSABLE_ENTITY);

        // the round: the sentence around its blank, the same until it is answered
        let (status, card) = call(&me, &app, "cloze-round", &en).await;
        assert_eq!(status, StatusCode::OK, "{card}");
        let serving = card["serving_id"].as_str().expect("serving").to_owned();
        assert_eq!(call(&me, &app, "cloze-round", &en).await.1, card, "an open round is served again");
        let (sentence, text, position, word) = served(store, &serving).await;
        assert!(position >= 1, "the first word is never blanked");
        let (before, after) = (card["before"].as_str().expect("before"), card["after"].as_str().expect("after"));
        assert_eq!(format!("{before}{word}{after}"), text, "{card}");

        // a model predicted the sentence in the next-word game: its words at the blank
        let model = gapwise_model::ModelId::new("a-model");
        store.scores().register_model(&gapwise_store::ModelInfo::new(&model, "test", "-", "")).await.expect("model");
        sqlx::query(
            "INSERT INTO guess_predictions (model_id, sentence_id, position, word, top, word_log_prob) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(model.as_str())
        .bind(sentence)
        .bind(position)
        .bind(&word)
        .bind("cats|dogs")
        .bind(-1.5f64)
        .execute(store.pool())
        .await
        .expect("a prediction");

        // refusals: another player's serving, a made-up one, an empty word
        let (_, theirs) = call(&other, &app, "cloze-round", &en).await;
        let theirs = theirs["serving_id"].as_str().expect("their serving").to_owned();
        assert_eq!(answer(&me, &app, &theirs, &word).await.0, StatusCode::NOT_FOUND, "another player's serving");
        assert_eq!(answer(&me, &app, "no-such-serving", &word).await.0, StatusCode::NOT_FOUND, "a made-up serving");
        assert_eq!(call(&me, &app, "cloze-told", &[("serving_id", theirs.as_str())]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(answer(&me, &app, &serving, "  ").await.0, StatusCode::UNPROCESSABLE_ENTITY, "an empty word");
        assert_eq!(call(&me, &app, "cloze-told", &[("serving_id", serving.as_str())]).await.1, Value::Null, "not answered yet");

        // the word, in capitals: right, and told the word and the model's words
        let upper = word.to_uppercase();
        let form = [("serving_id", serving.as_str()), ("typed", upper.as_str()), ("client_ms", "1500")];
        let (status, told) = call(&me, &app, "cloze-answer", &form).await;
        assert_eq!(status, StatusCode::OK, "{told}");
        // the model's words that are words of the corpus's language ("dogs" is in none of its sentences)
        let expected = json!({ "typed": upper, "right": true, "before": before, "word": word, "after": after, "model_words": ["cats"] });
        assert_eq!(told, expected, "{told}");
        // a second answer is told as the first, and stores nothing
        assert_eq!(answer(&me, &app, &serving, "zebra").await.1, told, "told as the first");
        assert_eq!(call(&me, &app, "cloze-told", &[("serving_id", serving.as_str())]).await.1, told);
        let stored: Vec<(String, i64, Option<i64>)> = sqlx::query_as("SELECT typed, CAST(correct AS BIGINT), client_ms FROM cloze_answers")
            .fetch_all(store.pool())
            .await
            .expect("rows");
        assert_eq!(stored, [(upper.clone(), 1, Some(1500))]);

        // an answered round gives way to a new sentence
        let (_, next) = call(&me, &app, "cloze-round", &en).await;
        let next = next["serving_id"].as_str().expect("a next sentence").to_owned();
        assert_ne!(next, serving);

        // without JavaScript: the form's post comes back to the page, which tells the outcome
        let page = format!("{}/cloze?lang=en", app.base);
        let res = me
            .post(format!("{}/api/cloze-answer", app.base))
            .header(header::ACCEPT, "text/html")
            .header(header::REFERER, &page)
            .form(&[("serving_id", next.as_str()), ("typed", "zebra"), ("client_ms", "")])
            .send()
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::FOUND);
        let location = res.headers()[header::LOCATION].to_str().expect("location").to_owned();
        assert_eq!(location, format!("/cloze?lang=en&answered={next}"));
        let shown = me.get(format!("{}{location}", app.base)).send().await.expect("page").text().await.expect("html");
        let (_, _, _, next_word) = served(store, &next).await;
        assert!(shown.contains("id=\"cloze-verdict\"") && shown.contains("data-right=\"false\""), "{shown}");
        // the words are elements of their language: read the text without its tags
        let text: String = shown.split('<').map(|part| part.split_once('>').map_or(part, |(_, after)| after)).collect();
        assert!(text.contains(&format!("It was “{next_word}” (you wrote “zebra”)")), "{shown}");
        assert!(shown.contains("No language model has read this sentence yet."), "{shown}");
        assert!(shown.contains("href=\"/cloze?lang=en\" id=\"next\""), "a link to the next sentence: {shown}");
        // and the page without `answered` serves the next sentence's form (a third)
        let form = me.get(&page).send().await.expect("page").text().await.expect("html");
        assert!(form.contains("name=\"typed\"") && form.contains("/api/cloze-answer"), "{form}");

        // the report: two answers in English, one right; fitted with the other modes'
        let report =
            gapwise_research::report::build_report(store, &[], &AnswerFilter::default(), &Default::default()).await.expect("report");
        let table = report.tables.iter().find(|t| t.file == "cloze_accuracy").expect("the cloze table");
        assert_eq!(table.rows.len(), 1, "{:?}", table.rows);
        assert_eq!(table.rows[0][..3], ["en", "2", "0.500"], "{:?}", table.rows);
        assert_eq!(common::irt_answers(&report, "cloze").0, 2);

        // the answers are the player's data, and go with them
        let data = common::my_data(&me, &app).await;
        let rows = |table: &str| data["rows"].as_array().expect("rows").iter().find(|r| r[0] == table).map(|r| r[1].clone());
        assert_eq!((rows("cloze_servings"), rows("cloze_answers")), (Some(json!(3)), Some(json!(2))), "{data}");
        let res = me.post(format!("{}/api/erase-me", app.base)).form(&[("confirm", "erase")]).send().await.expect("erase");
        assert!(res.status().is_success() || res.status().is_redirection());
        assert_eq!(store.count_rows("cloze_answers").await.expect("answers"), 0);
        assert_eq!(store.count_rows("cloze_servings").await.expect("servings"), 1, "the other player's sentence stays");
    }
}

/// Imports the first `n` sentences of each demo corpus.
async fn import_demo_heads(store: &Store, n: usize) {
    use gapwise_prepare::import::{ImportFormat, ImportKind};
    let corpora = [
        include_str!("../../../data/demo/en_sentences.tsv"),
        include_str!("../../../data/demo/es_sentences.tsv"),
        include_str!("../../../data/demo/fr_sentences.tsv"),
        include_str!("../../../data/demo/it_sentences.tsv"),
        include_str!("../../../data/demo/ru_sentences.tsv"),
    ];
    for corpus in corpora {
        let first: Vec<&str> = corpus.lines().take(n + 1).collect();
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &first.join("\n")).await.expect("import");
    }
}

/// Every language of the game serves its own sentences, whatever their script: the
/// first sentences of each demo corpus, a round in each language, the word read from
/// the database typed in capitals and told right.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_language_serves_its_own_sentences_and_takes_their_words_in_any_case() {
    for db in each_backend().await {
        let store = &db.store;
        import_demo_heads(store, 40).await;
        let app = common::serve(store).await;
        let me = started(&app).await;
        for language in gapwise_model::Language::ALL {
            let code = language.code();
            let (status, card) = call(&me, &app, "cloze-round", &[("language", code)]).await;
            assert_eq!(status, StatusCode::OK, "{code}: {card}");
            let serving = card["serving_id"].as_str().unwrap_or_else(|| panic!("{code}: a sentence, not {card}")).to_owned();
            let lang: String =
                sqlx::query_scalar("SELECT s.lang FROM cloze_servings v JOIN sentences s ON s.id = v.sentence_id WHERE v.id = $1")
                    .bind(&serving)
                    .fetch_one(store.pool())
                    .await
                    .expect("the sentence");
            assert_eq!(lang, code);
            let (_, text, _, word) = served(store, &serving).await;
            assert_eq!(format!("{}{word}{}", card["before"].as_str().expect("before"), card["after"].as_str().expect("after")), text);
            let (status, told) = answer(&me, &app, &serving, &word.to_uppercase()).await;
            assert_eq!((status, &told["right"], &told["word"]), (StatusCode::OK, &json!(true), &json!(word)), "{code}: {told}");
        }
    }
}

/// In every language, a sentence the next-word game served a player is never their
/// cloze sentence (the cloze game shows it whole after the answer), and every cloze
/// blank is a whole word of letters that stands alone once in its sentence (never
/// the "t" of "don't" or a piece of "12.9.5").
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_next_word_and_cloze_games_never_show_a_player_one_sentence_twice_in_any_language() {
    use gapwise_model::words::{is_word_of_letters, occurrences, stands_alone};
    for db in each_backend().await {
        let store = &db.store;
        import_demo_heads(store, 30).await;
        let app = common::serve(store).await;
        let me = started(&app).await;
        for language in gapwise_model::Language::ALL {
            let code = language.code();
            let (status, card) = call(&me, &app, "guess-round", &[("mode", "type"), ("language", code)]).await;
            assert_eq!(status, StatusCode::OK, "{code}: {card}");
            let guessed: i64 =
                sqlx::query_scalar("SELECT v.sentence_id FROM guess_servings v JOIN sentences s ON s.id = v.sentence_id WHERE s.lang = $1")
                    .bind(code)
                    .fetch_one(store.pool())
                    .await
                    .expect("the next-word sentence");
            let mut clozed = Vec::new();
            loop {
                let (status, card) = call(&me, &app, "cloze-round", &[("language", code)]).await;
                assert_eq!(status, StatusCode::OK, "{code}: {card}");
                let Some(serving) = card["serving_id"].as_str().map(str::to_owned) else { break };
                let (sentence, text, position, word) = served(store, &serving).await;
                assert_ne!(sentence, guessed, "{code}: the next-word game's sentence came back as a cloze: {text}");
                let span = occurrences(&text, &word);
                assert!(is_word_of_letters(&word) && span.len() == 1, "{code}: blank {position} of {text:?} is {word:?}");
                assert!(stands_alone(&text, span[0]), "{code}: blank {position} of {text:?} is a piece of a token");
                clozed.push(sentence);
                assert_eq!(answer(&me, &app, &serving, &word).await.0, StatusCode::OK);
                assert!(clozed.len() <= 30, "{code}: more cloze rounds than sentences");
            }
            assert!(clozed.len() >= 10, "{code}: the cloze game served {} of 30 sentences", clozed.len());
        }
    }
}
