//! Whole-word next-word prediction with SmolLM2-135M (the default English model;
//! the test command sets GAPWISE_SMOLLM2_GGUF): every predicted word is whole, the
//! top word leads the list, and a word's log-probability is the one the causal
//! scorer (checked against llama.cpp in causal_reference.rs) gives its pieces.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use candle_core::Device;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::guess::{predict, top_word, NextPieceModel, TOP_K};

fn smollm2() -> CausalLm {
    let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
    CausalLm::from_gguf(std::path::Path::new(&path), &Device::Cpu, &Default::default()).expect("load")
}

#[test]
fn smollm2_predicts_whole_words() {
    let lm = smollm2();
    let positions = [("The cat sat on", "the"), ("The cat sat on the", "mat"), ("She opened the door and walked", "in")];
    let predictions = predict(&lm, &positions).expect("predict");
    for ((before, word), p) in positions.iter().zip(&predictions) {
        println!("{before} … {word}: {:?}, log p = {:.3} (pieces {:.3})", p.top, p.word_log_prob.corrected, p.word_log_prob.pieces);
        assert!(!p.top.is_empty() && p.top.len() <= TOP_K, "{:?}", p.top);
        for w in &p.top {
            assert!(!w.is_empty() && !w.contains(char::is_whitespace), "not a whole word: {w:?}");
            assert!(w.chars().next().is_some_and(char::is_alphanumeric), "not a word: {w:?}");
        }
        let greedy = lm.decode_word(&top_word(&lm, &lm.encode_prefix(before).expect("prefix")).expect("top")).expect("text");
        assert_eq!(p.top[0], greedy, "the top word leads");
        let pieces = lm.continuation_log_probs(&[(before, &format!(" {word}"))]).expect("pieces");
        let expected: f64 = pieces[0].iter().map(|&l| f64::from(l)).sum();
        assert!((p.word_log_prob.pieces - expected).abs() < 1e-4, "{} vs {expected}", p.word_log_prob.pieces);
    }
    // after "sat on" a small English model puts "the" among its ten words
    assert!(predictions[0].top.iter().any(|w| w == "the"), "{:?}", predictions[0].top);
}
