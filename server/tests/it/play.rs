//! `gapwise score` on SQLite and PostgreSQL with the default model: every context
//! scored once, Eq. 2 per item equal to the model's own sentence scores, an
//! interrupted run resumed, and a bad context named in the error.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::{fill_blank, Context, ContextScorer, ScorerError, WordLogProbs};
use gapwise_server::runs::score::score_items;
use gapwise_store::testing::{each_backend, seed_small};
use indicatif::ProgressBar;
use sqlx::Row;

fn smollm2() -> Arc<CausalLm> {
    static MODEL: OnceLock<Arc<CausalLm>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
            Arc::new(CausalLm::from_gguf(path.as_ref(), &candle_core::Device::Cpu, &Default::default()).expect("load the model"))
        })
        .clone()
}

/// The real model, asking to stop once it has scored its first batch.
struct StopAfterFirstBatch {
    model: Arc<CausalLm>,
    stop: Arc<AtomicBool>,
    calls: AtomicUsize,
}

impl ContextScorer for StopAfterFirstBatch {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.model.score_contexts(contexts)
    }
}

#[tokio::test]
async fn every_item_gets_eq2_from_the_model_and_a_stopped_run_resumes() {
    let model = smollm2();
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("smollm2"), "causal", "test", ""))
            .await
            .expect("register");
        let total = store.scores().count_contexts_to_score(&gapwise_model::ModelId::new("smollm2"), None).await.expect("count");
        assert!(total > 10, "seed_small has {total} contexts");

        let stop = Arc::new(AtomicBool::new(false));
        let first = Arc::new(StopAfterFirstBatch { model: model.clone(), stop: stop.clone(), calls: AtomicUsize::new(0) });
        let stopped = score_items(store, first.clone(), &gapwise_model::ModelId::new("smollm2"), None, 4, &stop, &ProgressBar::hidden())
            .await
            .expect("first run");
        assert!(stopped.interrupted);
        assert_eq!((stopped.contexts, first.calls.load(Ordering::SeqCst)), (4, 1));
        assert_eq!(store.scores().count_contexts_to_score(&gapwise_model::ModelId::new("smollm2"), None).await.expect("count"), total - 4);

        let report = score_items(
            store,
            model.clone(),
            &gapwise_model::ModelId::new("smollm2"),
            Some(gapwise_model::Language::En),
            4,
            &AtomicBool::new(false),
            &ProgressBar::hidden(),
        )
        .await
        .expect("resumed run");
        assert!(!report.interrupted);
        assert_eq!(report.contexts as i64, total - 4);
        assert_eq!(store.count_rows("context_scores").await.expect("rows"), total);
        // items complete after the first batch were scored by the first run
        assert_eq!((stopped.items + report.items) as i64, store.count_rows("items").await.expect("items"));

        // an item's stored Eq. 2 score is what the model says of its sentences
        let item: i64 =
            sqlx::query_scalar("SELECT id FROM items WHERE k = 3 ORDER BY id LIMIT 1").fetch_one(store.pool()).await.expect("item");
        let rows = sqlx::query(
            "SELECT s.text, c.blank_start, c.blank_end, p.distractor FROM item_contexts c \
             JOIN sentences s ON s.id = c.sentence_id JOIN items i ON i.id = c.item_id \
             JOIN word_pairs p ON p.id = i.pair_id WHERE c.item_id = $1",
        )
        .bind(item)
        .fetch_all(store.pool())
        .await
        .expect("contexts");
        assert_eq!(rows.len(), 3);
        let mut expected = 0.0;
        for r in &rows {
            let text: String = r.get(0);
            let blank = (r.get::<i64, _>(1) as usize, r.get::<i64, _>(2) as usize);
            let swapped = fill_blank(&text, blank, &r.get::<String, _>(3)).expect("fill");
            let scores = model.score(&[&text, &swapped]).expect("score");
            expected += scores[0].total() - scores[1].total();
        }
        let stored = store
            .scores()
            .item_score(&gapwise_model::ModelId::new("smollm2"), gapwise_model::ItemId(item))
            .await
            .expect("read")
            .expect("scored");
        assert!((stored - expected).abs() < 1e-3, "{stored} vs {expected}");
    }
}

/// Fails on one sentence, as a model would on a sentence it cannot take.
struct RefusesBox11;

impl ContextScorer for RefusesBox11 {
    fn score_contexts(&self, contexts: &[Context<'_>]) -> Result<Vec<WordLogProbs>, ScorerError> {
        if contexts.iter().any(|c| c.text.contains("box 11.")) {
            return Err(ScorerError::Input("too long".into()));
        }
        Ok(contexts.iter().map(|_| WordLogProbs { target: -1.0, distractor: -2.0 }).collect())
    }
}

#[tokio::test]
async fn a_context_the_model_refuses_is_named_and_earlier_batches_are_kept() {
    for db in each_backend().await {
        let store = &db.store;
        seed_small(store).await;
        store
            .scores()
            .register_model(&gapwise_store::ModelInfo::new(&gapwise_model::ModelId::new("picky"), "test", "test", ""))
            .await
            .expect("register");
        let box11: i64 =
            sqlx::query_scalar("SELECT id FROM sentences WHERE text LIKE '%box 11.%'").fetch_one(store.pool()).await.expect("sentence");
        let err = score_items(
            store,
            Arc::new(RefusesBox11),
            &gapwise_model::ModelId::new("picky"),
            None,
            8,
            &AtomicBool::new(false),
            &ProgressBar::hidden(),
        )
        .await
        .expect_err("must fail");
        let message = err.to_string();
        assert!(message.contains(&format!("sentence {box11}")) && message.contains("two / three"), "{message}");
        assert!(message.contains("too long"), "{message}");
        let kept = store.count_rows("context_scores").await.expect("rows");
        assert!(kept > 0 && kept % 8 == 0, "{kept} scores kept");
    }
}
