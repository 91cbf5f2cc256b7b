//! The once-only repair of rows numbered by the games' earlier count of words
//! (`Store::repair_game_positions`), on SQLite and PostgreSQL: a database holding
//! next-word guesses, model predictions and a cloze blank numbered with "don" and
//! "t" as two words, and "l" without its apostrophe, is put right for the new count
//! (`gapwise_model::words::game_spans`), nothing of a player's deleted, and the
//! predictions it deleted queued to be made again.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_model::words::word_spans;
use gapwise_model::{cloze_parts, positions, GuessMode, Language, ModelId};
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::testing::each_backend;
use gapwise_store::{Prediction, Repaired, Store};

const EN: &str = "I said I don't know it.";
const FR: &str = "Il a vu l'été passer.";
const ES: &str = "El perro del vecino ladra.";

async fn sentence(store: &Store, text: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM sentences WHERE text = $1").bind(text).fetch_one(store.pool()).await.expect("sentence")
}

/// The words of `text` after the first, as the games counted them before.
fn old_words(text: &str) -> Vec<String> {
    word_spans(text).into_iter().skip(1).map(|(s, e)| text[s..e].to_owned()).collect()
}

/// Stores a prediction of model `m` at every old position of `sentence`.
async fn predict_the_old_way(store: &Store, sentence: i64, text: &str) {
    for (i, word) in old_words(text).iter().enumerate() {
        sqlx::query(
            "INSERT INTO guess_predictions (model_id, sentence_id, position, word, top, word_log_prob, word_log_prob_corrected) \
             VALUES ('m', $1, $2, $3, 'a|b', -1.0, -1.0)",
        )
        .bind(sentence)
        .bind(i64::try_from(i + 1).expect("position"))
        .bind(word)
        .execute(store.pool())
        .await
        .expect("prediction");
    }
}

async fn count(store: &Store, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(store.pool()).await.expect(sql)
}

#[tokio::test]
async fn rows_numbered_by_the_old_count_are_put_right_once() {
    for test in each_backend().await {
        let store = &test.store;
        let tsv = format!("lang\ttext\tsource\tgenre\nen\t{EN}\ttest\tnews\nfr\t{FR}\ttest\tnews\nes\t{ES}\ttest\tnews\n");
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &tsv).await.expect("import");
        let (en, fr, es) = (sentence(store, EN).await, sentence(store, FR).await, sentence(store, ES).await);
        sqlx::query("INSERT INTO models (id, kind, source, convention, created_at) VALUES ('m', 'causal', 'test', 'test', 0)")
            .execute(store.pool())
            .await
            .expect("model");
        for (id, text) in [(en, EN), (fr, FR), (es, ES)] {
            predict_the_old_way(store, id, text).await;
        }
        // a player guessed the English sentence's six old words; another the French one's
        let player = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("player").id;
        let other = store.players().create_player(gapwise_store::CONSENT_VERSION).await.expect("player").id;
        for (who, id, text) in [(&player, en, EN), (&other, fr, FR)] {
            store.guess().insert_serving(who, id, GuessMode::Type).await.expect("round");
            for (i, word) in old_words(text).iter().enumerate() {
                sqlx::query(
                    "INSERT INTO guess_answers (serving_id, position, guess, word, correct, server_ms, created_at, input_device) \
                     SELECT id, $2, $3, $3, 1, 900, 5, 'key' FROM guess_servings WHERE sentence_id = $1",
                )
                .bind(id)
                .bind(i64::try_from(i + 1).expect("position"))
                .bind(word)
                .execute(store.pool())
                .await
                .expect("guess");
            }
        }
        // and was given the English sentence's "know" (old word 5) as a cloze blank
        store.cloze().insert_serving(&other, en, 5).await.expect("blank");

        sqlx::query("DELETE FROM data_repairs").execute(store.pool()).await.expect("as before the migration");
        let repaired = store.repair_game_positions().await.expect("repair");
        let en_and_fr_predictions = (old_words(EN).len() + old_words(FR).len()) as u64;
        assert_eq!(
            repaired,
            Repaired { sentences: 2, predictions_deleted: en_and_fr_predictions, blanks_renumbered: 1, guesses_replaced: 4 },
            "{}",
            test.url
        );

        // the blank is still "know", at its new position
        let blank: i64 = count(store, "SELECT position FROM cloze_servings").await;
        assert_eq!(cloze_parts(EN, usize::try_from(blank).expect("position")).map(|(_, w, _)| w).as_deref(), Some("know"));
        // predictions: the Spanish ones kept, the others gone to be made again
        assert_eq!(count(store, &format!("SELECT COUNT(*) FROM guess_predictions WHERE sentence_id = {es}")).await, 4);
        assert_eq!(count(store, "SELECT COUNT(*) FROM guess_predictions").await, 4);
        // the English round keeps "said" and "I", and goes on at "don't"
        let kept: Vec<String> = sqlx::query_scalar(
            "SELECT a.word FROM guess_answers a JOIN guess_servings v ON v.id = a.serving_id WHERE v.sentence_id = $1 ORDER BY a.position",
        )
        .bind(en)
        .fetch_all(store.pool())
        .await
        .expect("kept");
        assert_eq!(kept, ["said", "I"]);
        assert_eq!(positions(EN)[kept.len()].1, "don't");
        let replaced: Vec<(i64, String, Option<String>)> =
            sqlx::query_as("SELECT position, word, input_device FROM guess_answers_replaced ORDER BY position")
                .fetch_all(store.pool())
                .await
                .expect("replaced");
        let words: Vec<&str> = replaced.iter().map(|(_, w, _)| w.as_str()).collect();
        assert_eq!(words, ["don", "t", "know", "it"], "kept as they were, measures included");
        assert!(replaced.iter().all(|(_, _, device)| device.as_deref() == Some("key")));
        // the French round's "l" is the word "l'" now: all five guesses stand
        assert_eq!(
            count(
                store,
                &format!("SELECT COUNT(*) FROM guess_answers a JOIN guess_servings v ON v.id = a.serving_id WHERE v.sentence_id = {fr}")
            )
            .await,
            5
        );
        assert_eq!(positions(FR)[2].1, "l'");

        // the deleted predictions are to be made again, before any other sentence,
        // although people were shown them
        let m = ModelId::new("m");
        assert_eq!(store.guess().remakes_pending(&m, Language::En).await.expect("pending"), 1);
        assert_eq!(store.guess().remakes_pending(&m, Language::Es).await.expect("pending"), 0);
        let queued = store.guess().sentences_to_predict(&m, Language::Fr, 5, 1, true).await.expect("queue");
        assert_eq!(queued.first().map(|(id, _)| *id), Some(fr));
        let again: Vec<Prediction> =
            positions(EN).iter().map(|_| Prediction { top: vec!["the".into()], log_prob: Ok((-1.0, None)) }).collect();
        store.guess().save_predictions(&m, en, &again).await.expect("predicted again");
        assert_eq!(store.guess().remakes_pending(&m, Language::En).await.expect("pending"), 0);
        assert_eq!(count(store, &format!("SELECT COUNT(*) FROM predictions_to_remake WHERE sentence_id = {en}")).await, 0);

        // once only
        assert_eq!(store.repair_game_positions().await.expect("again"), Repaired::default());
        // the replaced guesses are the player's: erased with them
        store.rights().erase(&player).await.expect("erase");
        assert_eq!(count(store, "SELECT COUNT(*) FROM guess_answers_replaced").await, 0);
    }
}

/// Word facts are keyed as the games compare words: lower case in every script (not
/// SQLite's ASCII-only `LOWER`), one apostrophe.
#[tokio::test]
async fn words_without_facts_are_folded_in_every_script() {
    for test in each_backend().await {
        let store = &test.store;
        let (ru, en) = ("Вчера Москва спала.", "I DON’T know.");
        let tsv = format!("lang\ttext\tsource\tgenre\nru\t{ru}\ttest\tnews\nen\t{en}\ttest\tnews\n");
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &tsv).await.expect("import");
        sqlx::query("INSERT INTO models (id, kind, source, convention, created_at) VALUES ('m', 'causal', 'test', 'test', 0)")
            .execute(store.pool())
            .await
            .expect("model");
        let m = ModelId::new("m");
        for text in [ru, en] {
            let id = sentence(store, text).await;
            let predicted: Vec<Prediction> =
                positions(text).iter().map(|_| Prediction { top: Vec::new(), log_prob: Ok((-1.0, None)) }).collect();
            store.guess().save_predictions(&m, id, &predicted).await.expect("predictions");
        }
        assert_eq!(store.guess().words_without_facts(Language::Ru).await.expect("ru"), ["москва", "спала"], "{}", test.url);
        assert_eq!(store.guess().words_without_facts(Language::En).await.expect("en"), ["don't", "know"], "{}", test.url);
        let facts = [("москва".to_owned(), gapwise_store::WordFacts::default())];
        store.guess().save_word_facts(Language::Ru, &facts).await.expect("facts");
        assert_eq!(store.guess().words_without_facts(Language::Ru).await.expect("ru"), ["спала"]);
    }
}
