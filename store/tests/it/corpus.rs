//! Corpus import and whole-word search, on both backends: malformed files are
//! refused whole with line numbers; running text is split, tidied, filtered and
//! de-duplicated; a rerun adds nothing; a pair's contexts always hold the target as
//! a whole word (Unicode-aware, any case) and never the distractor.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::HashSet;
use std::path::PathBuf;

use gapwise_prepare::corpus::CorpusOptions;
use gapwise_store::testing::each_backend;
use gapwise_store::StoreError;

fn file(dir: &tempfile::TempDir, name: &str, body: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, body).expect("write");
    path
}

fn line_numbers(err: StoreError) -> Vec<usize> {
    match err {
        StoreError::Import(lines) => lines.iter().map(|l| l.line).collect(),
        other => panic!("expected line errors, got {other:?}"),
    }
}

#[tokio::test]
async fn malformed_corpora_change_nothing_and_name_their_lines() {
    let dir = tempfile::tempdir().expect("tmp");
    for db in each_backend().await {
        let store = &db.store;
        let tsv = file(
            &dir,
            "bad.tsv",
            "lang\ttext\tsource\nen\tA fine sentence here.\twiki\nde\tEin Satz.\twiki\n\nen\t \twiki\nen\tAnother fine one.\twiki\n",
        );
        let err = store.material().import_corpus(&tsv, &CorpusOptions { genre: Some("news".into()), ..Default::default() }, &|_| {}).await;
        assert_eq!(line_numbers(err.expect_err("bad")), vec![3, 5]);
        let jsonl = file(&dir, "bad.jsonl", "{\"text\": \"Good enough text.\", \"lang\": \"fr\"}\n{\"txt\": \"typo\"}\nnot json\n");
        let options = CorpusOptions { source: Some("s".into()), genre: Some("g".into()), ..Default::default() };
        assert_eq!(line_numbers(store.material().import_corpus(&jsonl, &options, &|_| {}).await.expect_err("bad")), vec![2, 3]);
        let text = file(&dir, "no-language.txt", "Some running text here.\n");
        assert_eq!(line_numbers(store.material().import_corpus(&text, &options, &|_| {}).await.expect_err("no language")), vec![1]);
        assert_eq!(store.count_rows("sentences").await.expect("count"), 0, "nothing written");
    }
}

#[tokio::test]
async fn running_text_is_split_filtered_deduplicated_and_resumable() {
    let dir = tempfile::tempdir().expect("tmp");
    for db in each_backend().await {
        let store = &db.store;
        let body = "Это красный дом. Ok. Зелёный дом стоит рядом!\n\nЭто красный дом. Красный цвет нравится всем людям.\n";
        let text = file(&dir, "ru.txt", body);
        let options =
            CorpusOptions { language: Some("ru".into()), source: Some("test".into()), genre: Some("fiction".into()), ..Default::default() };
        let seen = std::sync::Mutex::new(0u64);
        let report = store.material().import_corpus(&text, &options, &|b| *seen.lock().expect("lock") = b).await.expect("import");
        assert_eq!((report.sentences, report.inserted, report.duplicates, report.too_short), (5, 3, 1, 1), "{report:?}");
        assert_eq!(*seen.lock().expect("lock"), body.len() as u64, "progress reaches the end of the file");
        let again = store.material().import_corpus(&text, &options, &|_| {}).await.expect("rerun");
        assert_eq!((again.inserted, again.duplicates), (0, 4), "a rerun adds nothing");

        // whole words, any case, Cyrillic with ё: "Красный" at a sentence start counts
        let found = store.material().find_contexts(gapwise_model::Language::Ru, "красный", "зелёный", 10).await.expect("search");
        let texts: Vec<&str> = found.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, ["Это красный дом.", "Красный цвет нравится всем людям."], "{:?}", db.backend());
        assert_eq!(&found[1].text[found[1].blank.0..found[1].blank.1], "Красный");
        assert!(store
            .material()
            .find_contexts(gapwise_model::Language::Ru, "зелёный", "красный", 10)
            .await
            .expect("search")
            .iter()
            .all(|f| !f.text.contains("красный")));
        assert_eq!(store.material().word_count(gapwise_model::Language::Ru, "дом").await.expect("count"), 2);
        assert_eq!(store.material().word_count(gapwise_model::Language::Ru, "до").await.expect("count"), 0, "whole words only");
    }
}

#[tokio::test]
async fn contexts_hold_the_target_once_and_never_the_distractor() {
    let dir = tempfile::tempdir().expect("tmp");
    for db in each_backend().await {
        let store = &db.store;
        let rows = [
            "L'été est chaud cette année.",
            "ÉTÉ comme hiver, il travaille.",
            "L'été et l'hiver se suivent.",
            "Un été, deux étés, trois étés.",
            "Il a été malade tout l'été.",
            "Cet hiver sera long et froid.",
            "Les étés passent vite ici.",
        ];
        let body: String = rows.iter().map(|r| format!("fr\t{r}\n")).collect();
        let tsv = file(&dir, "fr.tsv", &format!("lang\ttext\n{body}"));
        let options = CorpusOptions { source: Some("test".into()), genre: Some("news".into()), ..Default::default() };
        store.material().import_corpus(&tsv, &options, &|_| {}).await.expect("import");
        let found = store.material().find_contexts(gapwise_model::Language::Fr, "été", "hiver", 100).await.expect("search");
        let texts: HashSet<&str> = found.iter().map(|f| f.text.as_str()).collect();
        // "Il a été malade tout l'été." holds été twice; "Un été, deux étés" once as a whole word
        assert_eq!(texts, HashSet::from(["L'été est chaud cette année.", "Un été, deux étés, trois étés."]), "{:?}", db.backend());
        let sample = store
            .material()
            .sample_contexts(gapwise_model::Language::Fr, "été", "hiver", 1, 7, &HashSet::new(), &mut Default::default())
            .await
            .expect("sample");
        assert_eq!(sample.len(), 1);
        assert!(texts.contains(sample[0].text.as_str()));
    }
}

/// Every sentence of `language` that fits the pair and does not give the target
/// away, found by reading them all.
async fn by_scanning(store: &gapwise_store::Store, language: gapwise_model::Language, target: &str, distractor: &str) -> Vec<i64> {
    let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, text FROM sentences WHERE lang = $1 ORDER BY id")
        .bind(language)
        .fetch_all(store.pool())
        .await
        .expect("sentences");
    let seen = gapwise_model::Neighbours::of(language, distractor, rows.iter().map(|(_, text)| text.as_str()));
    let fits = |text: &str| {
        gapwise_model::words::blank_for(text, target, distractor)
            .is_some_and(|blank| gapwise_model::giveaway(language, text, blank, target, distractor, &seen).is_none())
    };
    rows.into_iter().filter(|(_, text)| fits(text)).map(|(id, _)| id).collect()
}

#[tokio::test]
async fn the_word_index_agrees_with_a_scan_and_is_rebuilt_for_older_databases() {
    let dir = tempfile::tempdir().expect("tmp");
    let words = ["rot", "blau", "grün", "Grün", "drei", "zwei-drei", "l", "été"];
    let mut body = String::from("lang\ttext\n");
    for i in 0..300usize {
        let picks: Vec<&str> = (0..4).map(|j| words[(i * 7 + j * j * 3 + i / 5) % words.len()]).collect();
        body.push_str(&format!("it\tFrase {i}: {} {}'{} e {}.\n", picks[0], picks[1], picks[2], picks[3]));
    }
    let tsv = file(&dir, "it.tsv", &body);
    let pairs = [("rot", "blau"), ("grün", "drei"), ("drei", "zwei-drei"), ("zwei-drei", "été"), ("été", "rot")];
    for db in each_backend().await {
        let options = CorpusOptions { source: Some("s".into()), genre: Some("g".into()), ..Default::default() };
        db.store.material().import_corpus(&tsv, &options, &|_| {}).await.expect("import");
        for round in ["as imported", "after reopening without an index"] {
            for (target, distractor) in pairs {
                let found: Vec<i64> = db
                    .store
                    .material()
                    .find_contexts(gapwise_model::Language::It, target, distractor, 1000)
                    .await
                    .expect("search")
                    .iter()
                    .map(|f| f.sentence_id)
                    .collect();
                let expected = by_scanning(&db.store, gapwise_model::Language::It, target, distractor).await;
                assert!(!expected.is_empty(), "{target}/{distractor}: the corpus should hold some");
                assert_eq!(found, expected, "{target}/{distractor} {round} on {:?}", db.backend());
            }
            // a database from before the index: its sentences are indexed when it opens
            sqlx::query("DELETE FROM word_postings").execute(db.store.pool()).await.expect("drop the index");
            assert!(db.store.material().find_contexts(gapwise_model::Language::It, "rot", "blau", 10).await.expect("search").is_empty());
            let reopened = gapwise_store::Store::open(&db.url).await.expect("reopen");
            assert_eq!(
                reopened.material().word_count(gapwise_model::Language::It, "grün").await.expect("count"),
                db.store.material().word_count(gapwise_model::Language::It, "grün").await.expect("count")
            );
            assert!(reopened.material().word_count(gapwise_model::Language::It, "grün").await.expect("count") > 0);
        }
    }
}

/// Per language: a pair, a sentence that gives its target away by grammar, one that
/// fits both words, and a sentence of the distractor (which tells its neighbours).
const GIVEAWAYS: [(&str, &str, &str, &str, &str, &str, &str); 5] = [
    (
        "en",
        "new",
        "old",
        "There used to be a new caravan route here.",
        "The new route was paved last year.",
        "The old road is closed.",
        "article",
    ),
    (
        "es",
        "ciudad",
        "pueblo",
        "Llegamos a la ciudad de noche.",
        "Vimos ciudad y campo desde el tren.",
        "Vive en el pueblo desde niño.",
        "agreement",
    ),
    (
        "fr",
        "orcs",
        "trolls",
        "Beaucoup d'orcs attendaient dehors.",
        "Les orcs attendaient dehors ce soir.",
        "Les trolls dorment le jour.",
        "elision",
    ),
    (
        "it",
        "scudo",
        "elmo",
        "Ho trovato uno scudo rotto nel fango.",
        "Senza scudo non si combatte mai.",
        "Porta sempre l'elmo in battaglia.",
        "elision",
    ),
    (
        "ru",
        "женщину",
        "мужчину",
        "Красивую женщину видели все соседи.",
        "Он видел женщину у окна вчера.",
        "Все видели высокого мужчину там.",
        "agreement",
    ),
];

#[tokio::test]
async fn contexts_whose_grammar_gives_the_target_away_are_dropped_in_every_language() {
    use gapwise_prepare::import::{ImportFormat, ImportKind};
    for db in each_backend().await {
        let store = &db.store;
        let mut sentences = String::from("lang\ttext\tsource\tgenre\n");
        let mut pairs = String::from("lang\ttarget\tdistractor\tstrategy\n");
        for (lang, target, distractor, leaking, fitting, other, _) in GIVEAWAYS {
            for text in [leaking, fitting, other] {
                sentences.push_str(&format!("{lang}\t{text}\ttest\tfiction\n"));
            }
            pairs.push_str(&format!("{lang}\t{target}\t{distractor}\ta-priori\n"));
        }
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, &sentences).await.expect("sentences");
        store.material().import(ImportKind::Pairs, ImportFormat::Tsv, &pairs).await.expect("pairs");
        for (lang, target, distractor, _, fitting, _, _) in GIVEAWAYS {
            let language = gapwise_model::Language::parse(lang).expect("language");
            let found = store.material().find_contexts(language, target, distractor, 10).await.expect("search");
            let texts: Vec<&str> = found.iter().map(|f| f.text.as_str()).collect();
            assert_eq!(texts, [fitting], "{lang}: only the context that fits both words, {:?}", db.backend());
        }
        // the builder counts what it dropped, per language and reason
        let report = store.material().build_items(1).await.expect("build");
        for (lang, _, _, _, _, _, reason) in GIVEAWAYS {
            let language = gapwise_model::Language::parse(lang).expect("language");
            let tally = report.contexts.get(&language).expect("a tally per language");
            let dropped: Vec<(&str, u64)> = tally.given_away.iter().map(|(g, n)| (g.code(), *n)).collect();
            assert_eq!((tally.examined, dropped), (2, vec![(reason, 1)]), "{lang}, {:?}", db.backend());
        }
    }
}

/// The easier next-word mode suggests only words of the sentence's language: words
/// of letters found standing alone in its corpus (not "aujourd" of "aujourd'hui",
/// nor an elided "l", nor "cRST", nor a Spanish word in a French sentence).
#[tokio::test]
async fn suggestions_are_whole_words_of_the_sentences_language() {
    use gapwise_prepare::import::{ImportFormat, ImportKind};
    for db in each_backend().await {
        let store = &db.store;
        let tsv = "lang\ttext\tsource\tgenre\nfr\tIl fait beau aujourd'hui à Paris.\tt\tg\nfr\tLe chat dort sur l'herbe.\tt\tg\nes\tLa casa es grande.\tt\tg\n";
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, tsv).await.expect("sentences");
        let sentence: i64 =
            sqlx::query_scalar("SELECT id FROM sentences WHERE text LIKE 'Le chat%'").fetch_one(store.pool()).await.expect("id");
        let model = gapwise_model::ModelId::new("a-model");
        store.scores().register_model(&gapwise_store::ModelInfo::new(&model, "test", "-", "")).await.expect("model");
        sqlx::query("INSERT INTO guess_predictions (model_id, sentence_id, position, word, top, word_unscored) VALUES ($1, $2, 1, 'chat', $3, 'test')")
            .bind(model.as_str())
            .bind(sentence)
            .bind("aujourd|chat|l|cRST|casa|à|Paris")
            .execute(store.pool())
            .await
            .expect("a prediction");
        let suggested = store.guess().suggested_words(sentence, 1).await.expect("suggestions");
        assert_eq!(suggested, ["chat", "à", "Paris"], "{:?}", db.backend());
    }
}
