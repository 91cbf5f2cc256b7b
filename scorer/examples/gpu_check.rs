//! The scorer on a GPU against the scorer on the CPU, on the fixtures' tiny stand-ins of
//! every family (scripts/gpu_check.sh runs it on a machine with a GPU):
//! `gpu_check DEVICE ITEMS.tsv MODEL...` (built with `--features cuda`).
//!
//! For each model, the items' contexts (and a few in es, fr, it and ru) are scored on the
//! CPU in f32, on DEVICE in f32 and in bf16, and on DEVICE one context at a time; one JSON
//! line per model gives the largest differences from the CPU's word log-probabilities
//! (target and distractor), and the largest difference between a context scored alone
//! and in the batch. Exits non-zero when f32 or batch invariance is off by more than
//! 1e-4, or bf16 by more than its stated tolerance.

use std::path::PathBuf;

use gapwise_scorer::{load, Context, Conventions, Precision, WordLogProbs};

/// bf16 keeps 8 bits of mantissa, and the stand-ins' random weights make sharp,
/// arbitrary predictions: on the CPU their word log-probabilities (sums over a
/// sentence's tokens) moved by up to 3 % of their size in bf16.
fn bf16_tolerance(cpu: f64) -> f64 {
    0.1 + 0.08 * cpu.abs()
}

const OTHER_LANGUAGES: [(&str, &str, &str); 5] = [
    ("El gato duerme en la silla.", "gato", "perro"),
    ("Le chat dort sur la chaise.", "chat", "chien"),
    ("Il gatto dorme sulla sedia.", "gatto", "cane"),
    ("Кошка спит на стуле.", "Кошка", "Собака"),
    ("The children walked to school in the rain.", "school", "church"),
];

fn largest(a: &[WordLogProbs], b: &[WordLogProbs], tolerance: impl Fn(f64) -> f64) -> (f64, bool) {
    let pairs = a.iter().zip(b).flat_map(|(x, y)| [(x.target, y.target), (x.distractor, y.distractor)]);
    pairs.fold((0.0, true), |(most, ok), (x, y)| {
        let d = (x - y).abs();
        (most.max(d), ok && d <= tolerance(x))
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: gpu_check DEVICE ITEMS.tsv MODEL...";
    let device = gapwise_scorer::device(&args.next().ok_or(usage)?)?;
    let text = std::fs::read_to_string(args.next().ok_or(usage)?)?;
    let rows: Vec<Vec<&str>> = text.lines().skip(1).take(24).map(|l| l.split('\t').collect()).collect();
    let mut contexts = Vec::new();
    let items = rows.iter().filter_map(|r| match r[..] {
        [with_target, _, target, distractor] => Some((with_target, target, distractor)),
        _ => None,
    });
    for (text, target, distractor) in items.chain(OTHER_LANGUAGES) {
        let start = text.find(target).ok_or_else(|| format!("{target:?} is not in {text:?}"))?;
        contexts.push(Context { text, blank: (start, start + target.len()), target, distractor });
    }
    let mut failed = false;
    for model in args.map(PathBuf::from) {
        let score = |on: &candle_core::Device, precision: Precision| -> Result<(Vec<WordLogProbs>, String), Box<dyn std::error::Error>> {
            let loaded = load(&model, on, &Conventions { precision, ..Conventions::default() })?;
            Ok((loaded.scorer.score_contexts(&contexts)?, loaded.convention))
        };
        let (cpu, _) = score(&candle_core::Device::Cpu, Precision::F32)?;
        let (f32s, _) = score(&device, Precision::F32)?;
        let (bf16s, convention) = score(&device, Precision::Bf16)?;
        let loaded = load(&model, &device, &Conventions { precision: Precision::F32, ..Conventions::default() })?;
        let mut alone = Vec::with_capacity(contexts.len());
        for c in &contexts {
            alone.extend(loaded.scorer.score_contexts(std::slice::from_ref(c))?);
        }
        let (f32_diff, f32_ok) = largest(&cpu, &f32s, |_| 1e-4);
        let (bf16_diff, bf16_ok) = largest(&cpu, &bf16s, bf16_tolerance);
        let relative = cpu.iter().zip(&bf16s).flat_map(|(c, b)| [(c.target, b.target), (c.distractor, b.distractor)]);
        let bf16_relative = relative.map(|(c, b)| (c - b).abs() / c.abs().max(1.0)).fold(0.0, f64::max);
        let (batch_diff, batch_ok) = largest(&f32s, &alone, |_| 1e-4);
        let agree = cpu.iter().zip(&bf16s).filter(|(c, b)| (c.target > c.distractor) == (b.target > b.distractor)).count();
        let ok = f32_ok && bf16_ok && batch_ok;
        failed |= !ok;
        println!(
            "{}",
            serde_json::json!({
                "model": model.file_name().map(|n| n.to_string_lossy().into_owned()), "contexts": contexts.len(),
                "f32_vs_cpu": f32_diff, "bf16_vs_cpu": bf16_diff, "bf16_vs_cpu_relative": bf16_relative, "batch_vs_alone_f32": batch_diff,
                "bf16_same_preference": format!("{agree}/{}", cpu.len()), "bf16_convention": convention,
                "pass": ok,
            })
        );
    }
    if failed {
        return Err("a GPU score differs from the CPU's by more than its tolerance".into());
    }
    Ok(())
}
