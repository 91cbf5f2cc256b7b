//! WinoDict accuracy of a GGUF causal model (paper 003, Table 3's setups) on the
//! committed items: the original key word with and without its definition, and an
//! invented word (letter model of WordNet's lemmas, seeded) with the definition as
//! a suffix (scored), as a prefix (conditioned on), or left out (the control); the
//! suffix setup broken down by part of speech.
//! `cargo run --release -p gapwise-scorer --example winodict -- MODEL.gguf [ITEMS] [SEED]`

use std::collections::BTreeMap;
use std::path::PathBuf;

use gapwise_scorer::causal::CausalLm;
use gapwise_scorer::definitions::wordnet::lemmas;
use gapwise_scorer::winodict::invented::LetterModel;
use gapwise_scorer::winodict::items::read_items;
use gapwise_scorer::winodict::partial::{judge, Teaching, WinoItem};

fn accuracy(correct: impl Iterator<Item = bool>) -> (usize, usize) {
    correct.fold((0, 0), |(right, all), c| (right + usize::from(c), all + 1))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let model = PathBuf::from(args.next().ok_or("usage: winodict MODEL.gguf [ITEMS] [SEED]")?);
    let limit: usize = args.next().map_or(Ok(200), |n| n.parse())?;
    let seed: u64 = args.next().map_or(Ok(3), |n| n.parse())?;
    let items = read_items(include_str!("../../data/winodict/winogrande.jsonl"))?;
    let items = &items[..limit.min(items.len())];
    let lemmas = lemmas(std::path::Path::new("/usr/share/wordnet"))?;
    let letters = LetterModel::train(lemmas.iter().map(String::as_str));
    let invented = letters.invent(items.len(), seed);
    let lm = CausalLm::from_gguf(&model, &candle_core::Device::Cpu)?;
    let original: Vec<WinoItem> = items.iter().map(|i| i.original()).collect();
    let synthetic: Vec<WinoItem> = items.iter().zip(&invented).map(|(i, w)| i.with_word(&w.word)).collect();
    println!("{} WinoGrande items, {}", synthetic.len(), model.display());
    let mut by_pos: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    // the last flag: break this setup down by part of speech
    for (name, set, teaching, broken_down) in [
        ("original, no definition", &original, Teaching::Empty, false),
        ("original, definition suffix", &original, Teaching::DefinitionSuffix, false),
        ("invented, no definition", &synthetic, Teaching::Empty, false),
        ("invented, definition prefix", &synthetic, Teaching::DefinitionPrefix, false),
        ("invented, definition suffix", &synthetic, Teaching::DefinitionSuffix, true),
    ] {
        let judged = judge(&lm, set, teaching, &[])?;
        let (right, all) = accuracy(judged.iter().map(|j| j.correct));
        println!("{name:30} {:5.1} % ({right}/{all})", 100.0 * right as f64 / all as f64);
        if broken_down {
            for (item, j) in items.iter().zip(&judged) {
                let entry = by_pos.entry(format!("{:?}", item.pos)).or_default();
                *entry = (entry.0 + usize::from(j.correct), entry.1 + 1);
            }
        }
    }
    for (pos, (right, all)) in by_pos {
        println!("  invented, suffix, {pos:5} {:5.1} % ({right}/{all})", 100.0 * right as f64 / all as f64);
    }
    Ok(())
}
