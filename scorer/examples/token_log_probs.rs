//! Prints, for each sentence given on the command line, its tokens and their
//! log-probabilities under a GGUF causal model, as JSON lines.
//! `cargo run --release -p gapwise-scorer --example token_log_probs -- MODEL.gguf "A sentence." ...`

use std::path::PathBuf;

use gapwise_scorer::causal::CausalLm;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let model = PathBuf::from(args.next().ok_or("usage: token_log_probs MODEL.gguf SENTENCE...")?);
    let sentences: Vec<String> = args.collect();
    let lm = CausalLm::from_gguf(&model, &candle_core::Device::Cpu, &Default::default())?;
    let refs: Vec<&str> = sentences.iter().map(String::as_str).collect();
    for (sentence, scores) in sentences.iter().zip(lm.score(&refs)?) {
        println!(
            "{}",
            serde_json::json!({"sentence": sentence, "start": lm.start_token(), "ids": scores.ids,
                               "log_probs": scores.log_probs, "total": scores.total()})
        );
    }
    Ok(())
}
