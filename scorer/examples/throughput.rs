//! Scores the items of a TSV file (columns with_target, with_distractor, target,
//! distractor, after a header) with any model gapwise-scorer loads, and prints
//! contexts per second as JSON. Used by scripts/bench_scorer.sh.
//! `cargo run --release -p gapwise-scorer --example throughput -- MODEL ITEMS.tsv [mask|pll-original|pll-word-l2r] [cpu|cuda[:N]] [auto|f32|bf16|f16]`
//! (a GPU needs `--features cuda`; scripts/gpu_check.sh runs it there).

use std::path::PathBuf;
use std::time::Instant;

use gapwise_scorer::{load, Context, Conventions};

/// The allocator of the gapwise binary (see server/src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    gapwise_scorer::settle_thread_pool();
    let mut args = std::env::args().skip(1);
    let usage = "usage: throughput MODEL ITEMS.tsv [SCORING] [DEVICE] [PRECISION]";
    let model = PathBuf::from(args.next().ok_or(usage)?);
    let text = std::fs::read_to_string(args.next().ok_or(usage)?)?;
    let masked = args.next().unwrap_or_else(|| "mask".into()).parse()?;
    let device = gapwise_scorer::device(&args.next().unwrap_or_else(|| "cpu".into()))?;
    let precision = args.next().unwrap_or_else(|| "auto".into()).parse()?;
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    let mut contexts = Vec::with_capacity(rows.len());
    for row in &rows {
        let [with_target, _, target, distractor] = row[..] else { return Err(format!("not 4 columns: {row:?}").into()) };
        let start = with_target.find(target).ok_or_else(|| format!("{target:?} is not in {with_target:?}"))?;
        contexts.push(Context { text: with_target, blank: (start, start + target.len()), target, distractor });
    }
    let loaded = load(&model, &device, &Conventions { masked, precision, ..Conventions::default() })?;
    // a GPU's first pass compiles its kernels and sizes its memory pools: not timed
    if !device.is_cpu() {
        loaded.scorer.score_contexts(contexts.get(..8).unwrap_or(&contexts))?;
    }
    let started = Instant::now();
    let scores = loaded.scorer.score_contexts(&contexts)?;
    device.synchronize()?;
    let seconds = started.elapsed().as_secs_f64();
    let right = scores.iter().filter(|s| s.target > s.distractor).count();
    // counted after the timing, from the same plans
    let shared = loaded.scorer.sharing(&contexts)?;
    println!(
        "{}",
        serde_json::json!({"implementation": "gapwise-scorer (candle)", "device": format!("{device:?}"), "convention": loaded.convention, "contexts": contexts.len(), "seconds": seconds,
                           "contexts_per_s": contexts.len() as f64 / seconds, "target_preferred": right,
                           "contexts_shared": shared.contexts_shared, "tokens_run": shared.tokens_run, "tokens_whole": shared.tokens_whole})
    );
    Ok(())
}
