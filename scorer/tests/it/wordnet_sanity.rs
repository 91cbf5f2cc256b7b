//! On real text the default model plays the game well above chance: 50 items made
//! from WordNet 3.0 usage examples (target = a lemma of the example's synset,
//! distractor = a lemma of a sister synset; fixtures/make_wordnet_sanity_items.py).
//! The item is right when Eq. 2 is positive: log p(with target) > log p(with distractor).

use candle_core::Device;
use gapwise_model::eq2;
use gapwise_scorer::causal::CausalLm;

/// 34 of 50 is the smallest count that a fair coin reaches with probability < 1%.
const MIN_RIGHT: usize = 34;

#[test]
fn smollm2_beats_chance_on_wordnet_items() {
    let path = std::env::var("GAPWISE_SMOLLM2_GGUF").expect("GAPWISE_SMOLLM2_GGUF is not set: run scripts/test.sh");
    let lm = CausalLm::from_gguf(path.as_ref(), &Device::Cpu, &Default::default()).expect("load");
    let text = include_str!("../../fixtures/wordnet_sanity_items.tsv");
    let items: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(items.len(), 50);
    let mut right = 0;
    for chunk in items.chunks(10) {
        let sentences: Vec<&str> = chunk.iter().flat_map(|row| [row[0], row[1]]).collect();
        let scores = lm.score(&sentences).expect("score");
        for pair in scores.chunks(2) {
            if eq2([(pair[0].total(), pair[1].total())]) > 0.0 {
                right += 1;
            }
        }
    }
    println!("SmolLM2-135M Q4_1: {right} of 50 WordNet items right ({:.0}%)", 2.0 * right as f64);
    assert!(right >= MIN_RIGHT, "only {right} of 50 right");
}
