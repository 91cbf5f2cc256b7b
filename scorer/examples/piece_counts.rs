//! How often the two words of a pair have as many pieces in a model's vocabulary, per
//! language: the demo's pairs (data/demo/LANG_pairs.tsv) and the seed lists' adjacent
//! pairs (data/pairs/a_priori.tsv). A masked model scores two such words from one
//! sequence (see `gapwise_scorer::masked`). A word is counted as it stands inside a
//! sentence: after a space for a causal model's tokenizer, alone between the special
//! tokens for a masked one. Prints a Markdown table. Used by scripts/bench_scorer.sh.
//! `cargo run --release -p gapwise-scorer --example piece_counts -- MODEL...`

use std::path::{Path, PathBuf};

use candle_core::Device;
use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::masked::MaskedLm;
use gapwise_scorer::{Conventions, MaskedScoring, ScorerError};

const LANGUAGES: [&str; 5] = ["en", "es", "fr", "it", "ru"];

/// A model's tokenizer, as far as counting a word's pieces goes.
enum Pieces {
    Causal(Box<CausalLm>),
    Masked(Box<MaskedLm>, usize),
}

impl Pieces {
    fn load(path: &Path) -> Result<Pieces, ScorerError> {
        let conventions = Conventions::default();
        if path.extension().is_some_and(|e| e == "gguf") {
            return Ok(Pieces::Causal(Box::new(CausalLm::from_gguf(path, &Device::Cpu, &conventions)?)));
        }
        match MaskedLm::from_dir(path, &Device::Cpu, MaskedScoring::Mask) {
            Ok(lm) => {
                let specials = lm.token_ids("")?.len();
                Ok(Pieces::Masked(Box::new(lm), specials))
            }
            Err(_) => Ok(Pieces::Causal(Box::new(CausalLm::from_hf_dir(path, &Device::Cpu, &conventions)?))),
        }
    }

    fn count(&self, word: &str) -> Result<usize, ScorerError> {
        match self {
            Pieces::Causal(lm) => Ok(lm.tokenize(&format!(" {word}"))?.len()),
            Pieces::Masked(lm, specials) => Ok(lm.token_ids(word)?.len() - specials),
        }
    }
}

type Pairs = Vec<(String, String)>;

/// Each language's pairs from the demo and from the seed lists.
fn pairs(root: &Path) -> Result<Vec<(Pairs, Pairs)>, Box<dyn std::error::Error>> {
    let seeds = std::fs::read_to_string(root.join("data/pairs/a_priori.tsv"))?;
    let mut out = Vec::new();
    for lang in LANGUAGES {
        let demo = std::fs::read_to_string(root.join(format!("data/demo/{lang}_pairs.tsv")))?;
        let demo: Vec<(String, String)> = demo
            .lines()
            .skip(1)
            .filter_map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                Some((c.get(1)?.to_string(), c.get(2)?.to_string()))
            })
            .collect();
        let mut seed = Vec::new();
        for line in seeds.lines().skip(1).filter(|l| l.starts_with(&format!("{lang}\t"))) {
            let words: Vec<&str> = line.split('\t').nth(2).unwrap_or("").split_whitespace().collect();
            seed.extend(words.windows(2).filter_map(|w| match w {
                [a, b] => Some((a.to_string(), b.to_string())),
                _ => None,
            }));
        }
        out.push((demo, seed));
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let models: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if models.is_empty() {
        return Err("usage: piece_counts MODEL...".into());
    }
    let pairs = pairs(&root)?;
    println!("| model | pairs | {} |", LANGUAGES.join(" | "));
    println!("|---|---|{}", "---|".repeat(LANGUAGES.len()));
    for path in &models {
        let pieces = Pieces::load(path)?;
        let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for (which, pick) in [("demo", 1), ("seeds", 2)] {
            let mut cells = Vec::new();
            for (demo, seed) in &pairs {
                let list = if pick == 1 { demo } else { seed };
                let mut equal = 0;
                for (a, b) in list {
                    equal += usize::from(pieces.count(a)? == pieces.count(b)?);
                }
                cells.push(format!("{equal}/{} ({:.0} %)", list.len(), 100.0 * equal as f64 / list.len().max(1) as f64));
            }
            println!("| {name} | {which} | {} |", cells.join(" | "));
        }
    }
    Ok(())
}
