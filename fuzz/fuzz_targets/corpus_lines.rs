//! Corpus files (running text, TSV, JSONL) as the import's first pass reads them:
//! any bytes give a list of problems, each naming a line of the file.
#![no_main]

use gapwise_prepare::corpus::{CorpusFormat, CorpusOptions, check_corpus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let format = match selector % 3 {
        0 => CorpusFormat::Text,
        1 => CorpusFormat::Tsv,
        _ => CorpusFormat::Jsonl,
    };
    let options = CorpusOptions { language: Some("en".into()), source: Some("fuzz".into()), genre: Some("fuzz".into()), ..CorpusOptions::default() };
    let languages = ["en", "es", "fr", "it", "ru"].map(String::from).into_iter().collect();
    let lines = rest.split(|b| *b == b'\n').count();
    let errors = check_corpus(rest, format, &options, &languages).expect("reading from memory cannot fail");
    assert!(errors.iter().all(|e| e.line >= 1 && e.line <= lines), "{errors:?}");
});
