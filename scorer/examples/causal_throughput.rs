//! Scores the sentences of a TSV file (first two columns of every line after the
//! header) with a GGUF causal model and prints sentences per second as JSON.
//! `cargo run --release -p gapwise-scorer --example causal_throughput -- MODEL.gguf ITEMS.tsv`

use std::path::PathBuf;
use std::time::Instant;

use gapwise_scorer::causal::CausalLm;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: causal_throughput MODEL.gguf ITEMS.tsv";
    let model = PathBuf::from(args.next().ok_or(usage)?);
    let text = std::fs::read_to_string(args.next().ok_or(usage)?)?;
    let sentences: Vec<&str> = text.lines().skip(1).flat_map(|l| l.split('\t').take(2)).collect();
    let lm = CausalLm::from_gguf(&model, &candle_core::Device::Cpu)?;
    let started = Instant::now();
    let tokens: usize = lm.score(&sentences)?.iter().map(|s| s.ids.len() + 1).sum();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({"sentences": sentences.len(), "tokens": tokens, "seconds": seconds,
                           "sentences_per_s": sentences.len() as f64 / seconds})
    );
    Ok(())
}
