//! Whole-word next-word prediction with SmolLM2-135M (the default English model;
//! the test command sets GAPWISE_SMOLLM2_GGUF): every predicted word is whole, the
//! top word leads the list and is predicted from the sentence's own pieces before the
//! word, and a word's log-probability is the sum of the log-probabilities the causal
//! scorer (checked against llama.cpp in causal_reference.rs) gives those pieces in the
//! sentence as written.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use candle_core::Device;
use gapwise_model::words::word_spans;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::guess::{predict, top_word, NextPieceModel, TOP_K};

fn smollm2() -> CausalLm {
    let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
    CausalLm::from_gguf(std::path::Path::new(&path), &Device::Cpu, &Default::default()).expect("load")
}

#[test]
fn smollm2_predicts_whole_words() {
    let lm = smollm2();
    let text = "She opened the door and walked in. Isn't it late?";
    let spans = word_spans(text);
    let predictions = predict(&lm, text, &spans[1..]).expect("predict");
    let readings = lm.read_words(text, &spans[1..]).expect("read");
    let mut scored = 0;
    for ((&(a, b), p), reading) in spans[1..].iter().zip(&predictions).zip(&readings) {
        let word = &text[a..b];
        println!("… {word}: {:?}, log p = {:?}", p.top, p.word_log_prob);
        assert!(!p.top.is_empty() && p.top.len() <= TOP_K, "{:?}", p.top);
        for w in &p.top {
            assert!(!w.is_empty() && !w.contains(char::is_whitespace), "not a whole word: {w:?}");
            assert!(w.chars().next().is_some_and(char::is_alphanumeric), "not a word: {w:?}");
        }
        let greedy = lm.decode_word(&top_word(&lm, &reading.prefix).expect("top")).expect("text");
        assert_eq!(p.top[0], greedy, "the top word leads");
        match &p.word_log_prob {
            Ok(lp) => {
                // the text up to the word's end, read as one text, has the same pieces
                let pieces = lm.continuation_log_probs(&[(&text[..a], word)]).expect("pieces");
                let expected: f64 = pieces[0].iter().map(|&l| f64::from(l)).sum();
                assert!((lp.pieces - expected).abs() < 1e-4, "{word}: {} vs {expected}", lp.pieces);
                scored += 1;
            }
            Err(why) => assert_eq!(word, "t", "only the t of Isn't spans a piece with the apostrophe: {why}"),
        }
    }
    assert!(scored >= 8, "{scored}");
    // after "opened the door and walked" a small English model puts "in" among its ten words
    assert!(predictions[5].top.iter().any(|w| w == "in"), "{:?}", predictions[5].top);
}
