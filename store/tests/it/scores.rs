//! Model scores: what is left to score, resuming, and Eq. 2 per item, on both backends.

use std::collections::HashMap;

use gapwise_model::{ItemId, Language, ModelId, PairId};
use gapwise_store::testing::{each_backend, seed_small};
use gapwise_store::ContextScore;
use sqlx::Row;

/// A made-up score per context, so that item sums can be checked by hand.
fn fake(pair: PairId, sentence_id: i64) -> ContextScore {
    let pair_id = pair.get();
    ContextScore { pair, sentence_id, target_logprob: -(sentence_id as f64) / 10.0, distractor_logprob: -(pair_id as f64) - 0.5 }
}

#[tokio::test]
async fn scores_resume_and_sum_to_eq2_per_item() {
    for db in each_backend().await {
        let store = &db.store;
        let m = ModelId::new("m");
        seed_small(store).await;
        store.scores().register_model(&gapwise_store::ModelInfo::new(&m, "test", "hand-made", "")).await.expect("model");
        store.scores().register_model(&gapwise_store::ModelInfo::new(&m, "test", "registered twice", "")).await.expect("idempotent");
        let total = store.scores().count_contexts_to_score(&m, None).await.expect("count");
        let distinct: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM (SELECT DISTINCT i.pair_id, c.sentence_id FROM item_contexts c JOIN items i ON i.id = c.item_id) AS d",
        )
        .fetch_one(store.pool())
        .await
        .expect("distinct");
        assert_eq!(total, distinct, "{:?}", db.backend());
        assert_eq!(store.scores().count_contexts_to_score(&m, Some(Language::En)).await.expect("count"), total);
        assert_eq!(store.scores().count_contexts_to_score(&m, Some(Language::Ru)).await.expect("count"), 0);
        assert!(store.scores().contexts_to_score(&m, Some(Language::Ru), 10).await.expect("batch").is_empty());

        // score a first batch, as an interrupted run would
        let first = store.scores().contexts_to_score(&m, None, 10).await.expect("batch");
        assert_eq!(first.len(), 10);
        for c in &first {
            assert_eq!(&c.text[c.blank.0..c.blank.1].to_lowercase(), &c.target.to_lowercase());
        }
        store.scores().save_context_scores(&m, &first.iter().map(|c| fake(c.pair, c.sentence_id)).collect::<Vec<_>>()).await.expect("save");
        store.scores().save_context_scores(&m, &[fake(first[0].pair, first[0].sentence_id)]).await.expect("saved twice");
        assert_eq!(store.count_rows("context_scores").await.expect("count"), 10);
        assert_eq!(store.scores().count_contexts_to_score(&m, None).await.expect("count"), total - 10);

        // the rest, then every item has its Eq. 2 score
        let rest = store.scores().contexts_to_score(&m, None, 1000).await.expect("rest");
        assert!(rest.iter().all(|c| !first.contains(c)), "a scored context came back");
        store.scores().save_context_scores(&m, &rest.iter().map(|c| fake(c.pair, c.sentence_id)).collect::<Vec<_>>()).await.expect("save");
        let written = store.scores().update_item_scores(&m).await.expect("items");
        assert_eq!(written as i64, store.count_rows("items").await.expect("count"));
        assert_eq!(store.scores().update_item_scores(&m).await.expect("again"), 0);

        let rows = sqlx::query("SELECT i.id, i.pair_id, c.sentence_id FROM items i JOIN item_contexts c ON c.item_id = i.id")
            .fetch_all(store.pool())
            .await
            .expect("contexts");
        let mut expected: HashMap<ItemId, f64> = HashMap::new();
        for r in rows {
            let (item, pair, sentence): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
            let (item, pair) = (ItemId(item), PairId(pair));
            let s = fake(pair, sentence);
            *expected.entry(item).or_default() += s.target_logprob - s.distractor_logprob;
        }
        for (item, want) in expected {
            let got = store.scores().item_score(&m, item).await.expect("score").expect("scored");
            assert!((got - want).abs() < 1e-9, "item {item}: {got} vs {want}");
        }
    }
}

#[tokio::test]
async fn an_item_is_scored_only_when_all_its_contexts_are() {
    for db in each_backend().await {
        let store = &db.store;
        let m = ModelId::new("m");
        seed_small(store).await;
        store.scores().register_model(&gapwise_store::ModelInfo::new(&m, "test", "hand-made", "")).await.expect("model");
        let k5: ItemId =
            sqlx::query_scalar("SELECT id FROM items WHERE k = 5 ORDER BY id LIMIT 1").fetch_one(store.pool()).await.expect("item");
        let rows = sqlx::query("SELECT i.pair_id, c.sentence_id FROM item_contexts c JOIN items i ON i.id = c.item_id WHERE i.id = $1")
            .bind(k5)
            .fetch_all(store.pool())
            .await
            .expect("contexts");
        let scores: Vec<ContextScore> = rows.iter().map(|r| fake(PairId(r.get(0)), r.get(1))).collect();
        store.scores().save_context_scores(&m, &scores[..4]).await.expect("four of five");
        store.scores().update_item_scores(&m).await.expect("update");
        assert_eq!(store.scores().item_score(&m, k5).await.expect("score"), None, "{:?}", db.backend());
        store.scores().save_context_scores(&m, &scores[4..]).await.expect("the fifth");
        store.scores().update_item_scores(&m).await.expect("update");
        assert!(store.scores().item_score(&m, k5).await.expect("score").is_some());
    }
}

/// A model id keeps the convention its scores were made with: the same again is
/// fine, another is refused, and a model recorded before conventions were kept
/// takes the first one it meets.
#[tokio::test]
async fn a_model_id_keeps_one_convention() {
    use gapwise_store::ModelInfo;
    for db in each_backend().await {
        let store = &db.store;
        let bos = ModelInfo::new(&ModelId::new("lm"), "causal", "a.gguf", "after bos <s>");
        store.scores().register_model(&bos).await.expect("first");
        store.scores().register_model(&bos).await.expect("the same again");
        let eos = ModelInfo::new(&ModelId::new("lm"), "causal", "a.gguf", "after eos </s>");
        let refused = store.scores().register_model(&eos).await.expect_err("another convention").to_string();
        assert!(refused.contains("after bos <s>") && refused.contains("--model-id"), "{refused}");
        store.scores().register_model(&ModelInfo::new(&ModelId::new("old"), "causal", "b.gguf", "")).await.expect("old model");
        store
            .scores()
            .register_model(&ModelInfo::new(&ModelId::new("old"), "causal", "b.gguf", "after eos </s>"))
            .await
            .expect("filled in");
        let info = store.scores().models_info(&["old", "missing", "lm"].map(ModelId::new)).await.expect("info");
        let conventions: Vec<(&str, &str)> = info.iter().map(|m| (m.id.as_str(), m.convention.as_str())).collect();
        assert_eq!(conventions, [("old", "after eos </s>"), ("lm", "after bos <s>")], "{:?}", db.backend());
    }
}
