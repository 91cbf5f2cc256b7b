//! Distributional word pairs: nearest neighbours in word vectors, within a wordfreq
//! frequency band, present in the corpus, not forms of the same word.

use std::path::Path;

use gapwise_prepare::wordfreq::WordFrequencies;
use gapwise_scorer::baseline::StaticVectors;
use gapwise_server::runs::distributional::{distributional_pairs, Distributional};
use gapwise_store::testing::{each_backend, seed_small};

#[tokio::test]
async fn neighbours_in_the_band_and_the_corpus_become_pairs() {
    let dir = tempfile::tempdir().expect("tmp");
    // box's neighbours by cosine: boxes (same word), there (too frequent: Zipf 6.31),
    // wall, knows, then today (orthogonal); boxes is not in the corpus either
    let vectors = "box 1 0 0\nboxes 1 0 0.01\nthere 0.99 0 0.05\nwall 0.95 0.1 0\nknows 0.9 0 0.2\ntoday 0 1 0\nzebra 0 0 1\n";
    let path = dir.path().join("vectors.txt");
    std::fs::write(&path, vectors).expect("write");
    let vectors = StaticVectors::from_text(&path).expect("vectors");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo test sets CARGO_MANIFEST_DIR");
    let frequencies =
        WordFrequencies::from_file(&Path::new(&manifest).join("../prepare/fixtures/wordfreq/en_head.msgpack.gz")).expect("wordfreq");
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        let how = Distributional { words: vec!["box".into()], seeds: 0, neighbours: 2, min_zipf: 4.5, max_zipf: 6.0 };
        let report = distributional_pairs(store, &vectors, &frequencies, gapwise_model::Language::En, &how).await.expect("pairs");
        assert_eq!((report.inserted, report.duplicates), (2, 0));
        let pairs: Vec<(String, String, String)> =
            sqlx::query_as("SELECT target, distractor, strategy FROM word_pairs WHERE target = 'box' ORDER BY distractor")
                .fetch_all(store.pool())
                .await
                .expect("pairs");
        let expected = |d: &str| ("box".to_owned(), d.to_owned(), "distributional".to_owned());
        assert_eq!(pairs, [expected("knows"), expected("wall")]);
        let again = distributional_pairs(store, &vectors, &frequencies, gapwise_model::Language::En, &how).await.expect("rerun");
        assert_eq!((again.inserted, again.duplicates), (0, 2));

        // without seeds: the most frequent fitting word with a vector in the corpus is "today"
        let auto = Distributional { words: Vec::new(), seeds: 1, neighbours: 1, min_zipf: 4.5, max_zipf: 6.0 };
        distributional_pairs(store, &vectors, &frequencies, gapwise_model::Language::En, &auto).await.expect("auto");
        let today: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM word_pairs WHERE target = 'today'").fetch_one(store.pool()).await.expect("today");
        assert_eq!(today, 1);
    }
}
