//! Word-pair and sentence imports (TSV, JSONL): any text is either rows or a list of
//! problems, each naming a line of the file.
#![no_main]

use gapwise_prepare::import::{ImportFormat, ImportKind, check_import};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let kind = if selector & 1 == 0 { ImportKind::Pairs } else { ImportKind::Sentences };
    let format = if selector & 2 == 0 { ImportFormat::Tsv } else { ImportFormat::Jsonl };
    let text = String::from_utf8_lossy(rest);
    let languages = ["en", "es", "fr", "it", "ru"].map(String::from).into_iter().collect();
    let lines = text.lines().count().max(1);
    match check_import(kind, format, &text, &languages) {
        Ok(rows) => assert!(rows >= 1 && rows <= lines, "{rows} rows from {lines} lines"),
        Err(errors) => {
            assert!(!errors.is_empty());
            assert!(errors.iter().all(|e| e.line >= 1 && e.line <= lines), "{errors:?}");
        }
    }
});
