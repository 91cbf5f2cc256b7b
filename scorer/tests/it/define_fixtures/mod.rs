//! The word-definition fixtures (the groups of Tables 1 and 9 of 001_bf5d15b61b58df06.txt
//! with a reference implementation's W2D and D2W scores) and their comparison, shared
//! by the causal (llama.cpp) and masked (PyTorch) reference tests.

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use gapwise_research::define::metrics::rank_of;
use gapwise_scorer::define::{DefinitionScorer, Pos};
use serde::Deserialize;

/// One group as a fixture holds it.
#[derive(Deserialize)]
pub struct Group {
    pub pos: String,
    pub target: String,
    pub words: Vec<String>,
    pub definitions: Vec<String>,
    pub w2d: Vec<f64>,
    pub d2w: Vec<f64>,
}

/// The right candidate's rank for one group and task, by `model` and by the reference.
pub struct Ranks {
    pub task: &'static str,
    pub target: String,
    pub candidates: usize,
    pub ours: usize,
    pub theirs: usize,
}

/// Scores every group with `model`, asserts each candidate's W2D and D2W score is
/// within `tolerance` of the reference's (`reference` names it in failures), and
/// returns the ranks of the right candidates.
pub fn compare(model: &dyn DefinitionScorer, groups: &[Group], tolerance: f64, reference: &str) -> Vec<Ranks> {
    let mut ranks = Vec::new();
    for g in groups {
        let pos = Pos::from_wordnet(&g.pos).expect("n or v");
        let target = g.words.iter().position(|w| *w == g.target).expect("the target is a member");
        let definitions: Vec<&str> = g.definitions.iter().map(String::as_str).collect();
        let words: Vec<&str> = g.words.iter().map(String::as_str).collect();
        let w2d = model.word_to_definition(pos, &g.target, &definitions).expect("W2D");
        let d2w = model.definition_to_word(pos, &g.definitions[target], &words).expect("D2W");
        for (ours, theirs, task) in [(&w2d, &g.w2d, "W2D"), (&d2w, &g.d2w, "D2W")] {
            for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
                assert!((a - b).abs() < tolerance, "{reference}: {task} {} candidate {i}: ours {a}, reference {b}", g.target);
            }
            ranks.push(Ranks {
                task,
                target: g.target.clone(),
                candidates: ours.len(),
                ours: rank_of(ours, target),
                theirs: rank_of(theirs, target),
            });
        }
    }
    ranks
}
