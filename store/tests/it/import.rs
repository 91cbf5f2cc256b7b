//! Imports are all or nothing and name the lines that are wrong, on both backends.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::testing::each_backend;
use gapwise_store::StoreError;

fn line_numbers(err: StoreError) -> Vec<usize> {
    match err {
        StoreError::Import(lines) => lines.iter().map(|l| l.line).collect(),
        other => panic!("expected line errors, got {other:?}"),
    }
}

#[tokio::test]
async fn a_bad_sentence_file_imports_nothing_and_names_its_lines() {
    for db in each_backend().await {
        let store = &db.store;
        let tsv = "lang\ttext\tsource\tgenre\n\
                   en\tA good sentence.\twordnet\texample\n\
                   xx\tUnknown language.\twordnet\texample\n\
                   en\tToo few fields\n\
                   \n\
                   en\t   \twordnet\texample\n\
                   en\tAnother good one.\twordnet\texample\n";
        let err = store.material().import(ImportKind::Sentences, ImportFormat::Tsv, tsv).await.expect_err("bad rows");
        assert_eq!(line_numbers(err), vec![3, 4, 6], "{:?}", db.backend());
        assert_eq!(store.count_rows("sentences").await.expect("count"), 0);
    }
}

#[tokio::test]
async fn a_bad_pair_file_imports_nothing() {
    for db in each_backend().await {
        let store = &db.store;
        let jsonl = concat!(
            r#"{"lang":"en","target":"red","distractor":"green","strategy":"a-priori"}"#,
            "\n",
            r#"{"lang":"en","target":"ice cream","distractor":"cake","strategy":"a-priori"}"#,
            "\n",
            r#"{"lang":"en","target":"cat","distractor":"CAT","strategy":"distributional"}"#,
            "\n",
            r#"{"lang":"en","target":"cat","distractor":"dog","strategy":"guessed"}"#,
            "\n",
            r#"{"lang":"en","target":"Green","distractor":"red","strategy":"suggested"}"#,
            "\n",
            "not json\n",
            r#"{"lang":"en","target":"a","distractor":"b","strategy":"a-priori","extra":1}"#,
            "\n",
        );
        let err = store.material().import(ImportKind::Pairs, ImportFormat::Jsonl, jsonl).await.expect_err("bad rows");
        assert_eq!(line_numbers(err), vec![2, 3, 4, 5, 6, 7], "{:?}", db.backend());
        assert_eq!(store.count_rows("word_pairs").await.expect("count"), 0);
    }
}

#[tokio::test]
async fn a_pair_already_in_the_database_rolls_back_the_whole_file() {
    for db in each_backend().await {
        let store = &db.store;
        let first = "lang\ttarget\tdistractor\tstrategy\nen\tred\tgreen\ta-priori\n";
        store.material().import(ImportKind::Pairs, ImportFormat::Tsv, first).await.expect("first import");
        // line 3 repeats the pair reversed: the new pair on line 2 must not stay behind
        let second = "lang\ttarget\tdistractor\tstrategy\nen\tcat\tdog\tdistributional\nen\tgreen\tred\tsuggested\n";
        let err = store.material().import(ImportKind::Pairs, ImportFormat::Tsv, second).await.expect_err("reversed duplicate");
        assert_eq!(line_numbers(err), vec![3], "{:?}", db.backend());
        assert_eq!(store.count_rows("word_pairs").await.expect("count"), 1);
    }
}

#[tokio::test]
async fn sentences_are_normalised_and_deduplicated() {
    for db in each_backend().await {
        let store = &db.store;
        let tsv = "lang\ttext\tsource\tgenre\nfr\t  L'e\u{301}te\u{301} est chaud.\tdemo\tfiction\nfr\tL'\u{e9}t\u{e9} est chaud.\tdemo\tfiction\n";
        let report = store.material().import(ImportKind::Sentences, ImportFormat::Tsv, tsv).await.expect("import");
        assert_eq!((report.inserted, report.duplicates), (1, 1), "{:?}", db.backend());
        let text: String = sqlx::query_scalar("SELECT text FROM sentences").fetch_one(store.pool()).await.expect("row");
        assert_eq!(text, "L'\u{e9}t\u{e9} est chaud.");
    }
}

#[tokio::test]
async fn an_empty_file_is_an_error() {
    for db in each_backend().await {
        let err = db.store.material().import(ImportKind::Sentences, ImportFormat::Jsonl, "\n\n").await.expect_err("empty");
        assert_eq!(line_numbers(err), vec![1]);
    }
}

/// WordNet's synsets go in 200 to a statement; a word frequency that is missing
/// (NULL) in one statement and known at the same place in the next must not trip
/// PostgreSQL's typing of prepared statements (this stopped the demo load on
/// PostgreSQL).
#[tokio::test]
async fn a_bulk_import_takes_nulls_and_numbers_in_the_same_column() {
    for db in each_backend().await {
        let synsets: Vec<gapwise_store::NewSynset> = (0..450)
            .map(|i| gapwise_store::NewSynset {
                id: format!("word{i}.n.01"),
                pos: "n".into(),
                word: format!("word{i}"),
                definition: format!("definition {i}"),
                depth: 1,
                zipf: (i >= 200 || i % 2 == 0).then_some(2.5),
            })
            .collect();
        let report = db.store.define().import_wordnet(&synsets, &[], &[], &|_| {}).await.expect("import");
        assert_eq!(report.synsets, 450, "{:?}", db.backend());
        let known: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wordnet_synsets WHERE zipf IS NOT NULL")
            .fetch_one(db.store.pool())
            .await
            .expect("count");
        assert_eq!(known, 100 + 250);
    }
}
