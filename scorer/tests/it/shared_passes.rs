//! The work a context's two words share is done once, with the numbers of doing it
//! twice: the causal scorer runs the beginning both sentences have in common once, the
//! masked scorer runs one sequence for two words of as many pieces, and the Shannon
//! game's search runs a sentence's beginning once for all its partial words. Each is
//! compared with the unshared path (each sentence, or each prefix, run whole and alone)
//! on demo contexts in all five languages (`fixtures/shared_contexts.tsv`, four with
//! distractors as long as the target and four much longer or shorter, per language).

#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use candle_core::Device;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::guess::NextPieceModel;
use gapwise_scorer::masked::MaskedLm;
use gapwise_scorer::{Context, ContextScorer, Conventions, MaskedScoring};

const TOLERANCE: f64 = 1e-6;

#[derive(Clone)]
struct Row {
    lang: String,
    text: String,
    target: String,
    distractor: String,
}

fn rows() -> Vec<Row> {
    include_str!("../../fixtures/shared_contexts.tsv")
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Row { lang: c[0].into(), text: c[1].into(), target: c[2].into(), distractor: c[3].into() }
        })
        .collect()
}

fn contexts(rows: &[Row]) -> Vec<Context<'_>> {
    rows.iter()
        .map(|r| {
            let start = r.text.find(r.target.as_str()).expect("the target is in its sentence");
            Context { text: &r.text, blank: (start, start + r.target.len()), target: &r.target, distractor: &r.distractor }
        })
        .collect()
}

fn fixture(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(dir)
}

fn gguf(var: &str) -> PathBuf {
    PathBuf::from(std::env::var(var).unwrap_or_else(|_| panic!("{var} is not set: run scripts/test.sh")))
}

/// The largest difference, per language, between the shared and the unshared word
/// log-probabilities, checked against the tolerance.
fn compare(what: &str, rows: &[Row], shared: &[(f64, f64)], apart: &[(f64, f64)]) {
    for lang in ["en", "es", "fr", "it", "ru"] {
        let worst = rows
            .iter()
            .zip(shared.iter().zip(apart))
            .filter(|(r, _)| r.lang == lang)
            .map(|(_, (s, a))| (s.0 - a.0).abs().max((s.1 - a.1).abs()))
            .fold(0.0f64, f64::max);
        println!("{what} {lang}: largest difference shared vs unshared {worst:e}");
        assert!(worst <= TOLERANCE, "{what} {lang}: {worst}");
    }
}

/// The contexts whose sentences the model takes (the fixtures' tiny vocabularies make
/// some Russian sentences longer than their 64 positions), with their unshared
/// scores; at least five in each language.
fn kept(what: &str, rows: &[Row], alone: impl Fn(&Context<'_>) -> Option<(f64, f64)>) -> (Vec<Row>, Vec<(f64, f64)>) {
    let (mut kept, mut apart) = (Vec::new(), Vec::new());
    for (row, c) in rows.iter().zip(contexts(rows)) {
        if let Some(scores) = alone(&c) {
            kept.push(row.clone());
            apart.push(scores);
        }
    }
    for lang in ["en", "es", "fr", "it", "ru"] {
        let n = kept.iter().filter(|r| r.lang == lang).count();
        assert!(n >= 5, "{what}: only {n} contexts in {lang} fit the model");
    }
    (kept, apart)
}

fn check_causal(what: &str, lm: &CausalLm) {
    let rows = rows();
    let (kept, apart) = kept(what, &rows, |c| {
        let with_distractor = c.filled(c.distractor).expect("fill").0;
        Some((lm.score(&[c.text]).ok()?[0].total(), lm.score(&[&with_distractor]).ok()?[0].total()))
    });
    let contexts = contexts(&kept);
    let shared: Vec<(f64, f64)> = lm.score_contexts(&contexts).expect("shared").iter().map(|s| (s.target, s.distractor)).collect();
    compare(what, &kept, &shared, &apart);
    let sharing = lm.sharing(&contexts).expect("sharing");
    assert_eq!(sharing.contexts, contexts.len());
    assert!(sharing.contexts_shared > contexts.len() / 2, "{what}: {sharing:?}");
    assert!(sharing.tokens_run < sharing.tokens_whole, "{what}: {sharing:?}");
}

#[test]
fn causal_sentences_score_alike_with_their_beginning_run_once() {
    let conventions = Conventions::default();
    for var in ["GAPWISE_SMOLLM2_GGUF", "GAPWISE_GEMMA3_GGUF"] {
        check_causal(var, &CausalLm::from_gguf(&gguf(var), &Device::Cpu, &conventions).expect("load"));
    }
    // Gemma 3: a sliding window of 4 (shorter than the beginnings); GPT-2: learned
    // positions; Qwen2: no start token
    for dir in ["families/gemma3", "families/gpt2", "families/qwen2"] {
        check_causal(dir, &CausalLm::from_hf_dir(&fixture(dir), &Device::Cpu, &conventions).expect("load"));
    }
}

#[test]
fn masked_words_of_as_many_pieces_score_alike_from_one_sequence() {
    let rows = rows();
    for dir in ["mlm/bert", "families/xlm_roberta", "families/roberta_ru", "families/camembert"] {
        let lm = MaskedLm::from_dir(&fixture(dir), &Device::Cpu, MaskedScoring::Mask).expect("load");
        let (kept, apart) = kept(dir, &rows, |c| {
            let (with_distractor, blank) = c.filled(c.distractor).expect("fill");
            Some((lm.span_log_probs(&[(c.text, c.blank)]).ok()?[0].0, lm.span_log_probs(&[(&with_distractor, blank)]).ok()?[0].0))
        });
        let contexts = contexts(&kept);
        let shared: Vec<(f64, f64)> = lm.score_contexts(&contexts).expect("shared").iter().map(|s| (s.target, s.distractor)).collect();
        compare(dir, &kept, &shared, &apart);
        let sharing = lm.sharing(&contexts).expect("sharing");
        println!("{dir}: {sharing:?}");
        assert!(sharing.contexts_shared > 0 && sharing.contexts_shared < contexts.len(), "{dir}: both kinds of context, {sharing:?}");
        assert!(sharing.tokens_run < sharing.tokens_whole, "{dir}: {sharing:?}");
    }
}

/// The search's prefixes (a sentence's beginning and partial words after it) give
/// each the distribution it has alone. "Alone" runs beside a prefix that shares
/// nothing with it, so that its output head is a product of two rows as in the search:
/// one row takes a matrix-vector kernel whose sums differ in the last bits (1e-5).
#[test]
fn next_piece_distributions_alike_with_the_sentence_run_once() {
    let lm = CausalLm::from_gguf(&gguf("GAPWISE_GEMMA3_GGUF"), &Device::Cpu, &Conventions::default()).expect("load");
    let start: Vec<u32> = lm.start_token().into_iter().collect();
    let unrelated: Vec<u32> = vec![start.first().map_or(5, |s| s + 1); 3];
    for row in rows() {
        let beginning =
            [start.clone(), lm.tokenize(&row.text[..row.text.find(row.target.as_str()).expect("target")]).expect("tokens")].concat();
        let words: Vec<Vec<u32>> =
            [&row.target, &row.distractor, "a"].iter().map(|w| lm.tokenize(&format!(" {w}")).expect("tokens")).collect();
        let prefixes: Vec<Vec<u32>> = words.iter().map(|w| [beginning.as_slice(), w].concat()).chain([beginning.clone()]).collect();
        let together = lm.next_log_probs(&prefixes).expect("together");
        for (prefix, shared) in prefixes.iter().zip(together) {
            let alone = lm.next_log_probs(&[prefix.clone(), unrelated.clone()]).expect("alone").remove(0);
            let worst = alone.iter().zip(&shared).map(|(a, b)| f64::from((a - b).abs())).fold(0.0, f64::max);
            assert!(worst <= TOLERANCE, "{}: {worst}", row.text);
        }
    }
}

/// Continuations after prompts that begin alike (a new-words item's two prompts: the
/// text up to the blank with either word, then the rest) score as each pair alone.
#[test]
fn continuations_alike_with_their_prompts_beginning_run_once() {
    let lm = CausalLm::from_gguf(&gguf("GAPWISE_SMOLLM2_GGUF"), &Device::Cpu, &Conventions::default()).expect("load");
    let rows = rows();
    // a rest of a few words, so that a pair alone has more than one row through the head
    let rows: Vec<&Row> =
        rows.iter().filter(|r| r.text.len() - r.text.find(r.target.as_str()).expect("target") - r.target.len() > 12).collect();
    let prompts: Vec<(String, String)> = rows
        .iter()
        .flat_map(|r| {
            let at = r.text.find(r.target.as_str()).expect("target");
            let rest = r.text[at + r.target.len()..].to_owned();
            [&r.target, &r.distractor].map(|w| (format!("{}{w}", &r.text[..at]), rest.clone()))
        })
        .collect();
    let pairs: Vec<(&str, &str)> = prompts.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let together = lm.continuation_log_probs(&pairs).expect("together");
    for (pair, shared) in pairs.iter().zip(&together) {
        let alone = lm.continuation_log_probs(std::slice::from_ref(pair)).expect("alone").remove(0);
        let worst = alone.iter().zip(shared).map(|(a, b)| f64::from((a - b).abs())).fold(0.0, f64::max);
        assert!(worst <= TOLERANCE && alone.len() == shared.len(), "{pair:?}: {worst}");
    }
    for lang in ["en", "es", "fr", "it", "ru"] {
        assert!(rows.iter().filter(|r| r.lang == lang).count() >= 3, "{lang}");
    }
}
