//! Word frequencies from wordfreq's data files (`large_<lang>.msgpack.gz`, CC BY-SA
//! 4.0; PyPI `wordfreq` 3.1.1 ships them under `wordfreq/data/`): used to keep
//! distributional pair candidates within a frequency band.
//!
//! The "cBpack" format: gzipped msgpack of a list whose first element is a header
//! (`{"format": "cB", "version": 1}`) and whose element `i + 1` lists the words of
//! frequency 10^(-i/100). The Zipf frequency is log10(frequency per billion words):
//! 9 - i/100, as `wordfreq.zipf_frequency` gives it for a single word. Words are
//! looked up lower-cased; this reader does not redo wordfreq's tokenisation, so it
//! answers for single words only.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use crate::PrepareError;

/// One element of a cBpack list.
#[derive(Deserialize)]
#[serde(untagged)]
enum Element {
    Words(Vec<String>),
    Header(HashMap<String, serde_json::Value>),
}

/// Zipf frequencies of a language's words.
pub struct WordFrequencies {
    zipf: HashMap<String, f64>,
}

impl WordFrequencies {
    /// Reads a wordfreq `.msgpack.gz` file.
    pub fn from_file(path: &Path) -> Result<Self, PrepareError> {
        let file = std::fs::File::open(path).map_err(|e| PrepareError::file(path, e))?;
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(file).read_to_end(&mut bytes).map_err(|e| PrepareError::file(path, format!("not gzip: {e}")))?;
        let elements: Vec<Element> =
            rmp_serde::from_slice(&bytes).map_err(|e| PrepareError::file(path, format!("not a wordfreq cBpack: {e}")))?;
        let mut elements = elements.into_iter();
        match elements.next() {
            Some(Element::Header(h)) if h.get("format").and_then(serde_json::Value::as_str) == Some("cB") => {}
            _ => return Err(PrepareError::file(path, "no cBpack header")),
        }
        let mut zipf = HashMap::new();
        for (i, element) in elements.enumerate() {
            let Element::Words(words) = element else { return Err(PrepareError::file(path, format!("bucket {i} is not a word list"))) };
            for word in words {
                zipf.entry(word).or_insert(9.0 - i as f64 / 100.0);
            }
        }
        Ok(WordFrequencies { zipf })
    }

    /// The Zipf frequency of a word, `None` when the data does not know it.
    pub fn zipf(&self, word: &str) -> Option<f64> {
        // wordfreq spells "don't" with the typewriter apostrophe
        self.zipf.get(&gapwise_model::words::folded(word)).copied()
    }

    /// The Zipf frequency of a word or phrase, as wordfreq estimates a phrase: the
    /// reciprocal of the summed reciprocal frequencies of its words; `None` when a
    /// word is unknown.
    pub fn phrase_zipf(&self, phrase: &str) -> Option<f64> {
        let mut reciprocal = 0.0;
        for word in phrase.split([' ', '-']).filter(|w| !w.is_empty()) {
            reciprocal += 1.0 / 10f64.powf(self.zipf(word)?);
        }
        (reciprocal > 0.0).then(|| (1.0 / reciprocal).log10())
    }
}
