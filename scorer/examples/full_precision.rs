//! Writes an F32 copy of a quantized GGUF file (for reference checks).
//! `cargo run --release -p gapwise-scorer --example full_precision -- IN.gguf OUT.gguf`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [src, dst] = args.as_slice() else { return Err("usage: full_precision IN.gguf OUT.gguf".into()) };
    gapwise_scorer::causal::write_full_precision(src.as_ref(), dst.as_ref())?;
    Ok(())
}
