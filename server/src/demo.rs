//! The demo data set shipped in the binary, so that a first run is playable in every
//! language: English example sentences from WordNet 3.0 with word pairs of all three
//! strategies, and Spanish, Italian and Russian quotations (Debian's fortunes) and
//! French sentences (the Debian Administrator's Handbook and the Debian Reference) with
//! the a-priori pairs of those languages.
//! Sources and licences: data/demo/README.md.

use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::{BuildReport, Store, StoreError, ITEMS_PER_K};

const SENTENCES: [&str; 5] = [
    include_str!("../../data/demo/en_sentences.tsv"),
    include_str!("../../data/demo/es_sentences.tsv"),
    include_str!("../../data/demo/fr_sentences.tsv"),
    include_str!("../../data/demo/it_sentences.tsv"),
    include_str!("../../data/demo/ru_sentences.tsv"),
];
const PAIRS: &str = include_str!("../../data/demo/en_pairs.tsv");
/// Languages whose demo pairs are the a-priori ones.
const A_PRIORI_LANGUAGES: [&str; 4] = ["es", "fr", "it", "ru"];

/// Loads the demo data into an empty database (one without sentences), or, with
/// `resume`, whatever of it is missing (a first start loading it was cut short: every
/// step keeps what is there and adds the rest); does nothing otherwise. Returns the
/// build report when it loaded.
pub async fn seed_if_empty(store: &Store, resume: bool) -> Result<Option<BuildReport>, StoreError> {
    if !resume && store.count_rows("sentences").await? > 0 {
        return Ok(None);
    }
    for sentences in SENTENCES {
        store.material().import(ImportKind::Sentences, ImportFormat::Tsv, sentences).await?;
    }
    // a pairs import is all rows or none, and refuses pairs already there: a start cut
    // short after it has them all (they come before any other language's pairs)
    if store.count_rows("word_pairs").await? == 0 {
        store.material().import(ImportKind::Pairs, ImportFormat::Tsv, PAIRS).await?;
    }
    for language in A_PRIORI_LANGUAGES {
        store.material().add_a_priori_pairs(language).await?;
    }
    store.material().build_items(ITEMS_PER_K).await.map(Some)
}
