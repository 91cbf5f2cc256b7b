//! The demo data set shipped in the binary, so that a first run is playable in every
//! language: in each of the five, quotations (Debian's fortunes), manuals (Debian's
//! and GNOME's, translated), fiction (Battle for Wesnoth's campaigns) and, in
//! English, WordNet 3.0's usage examples, with word pairs of the a-priori and
//! distributional strategies (and, in English, pairs of the kind players suggest).
//! Sources, licences and how the files were made: data/demo/README.md.

use gapwise_model::Language;
use gapwise_prepare::import::{ImportFormat, ImportKind};
use gapwise_store::{BuildReport, Store, StoreError, ITEMS_PER_K};

const SENTENCES: [&str; 5] = [
    include_str!("../../data/demo/en_sentences.tsv"),
    include_str!("../../data/demo/es_sentences.tsv"),
    include_str!("../../data/demo/fr_sentences.tsv"),
    include_str!("../../data/demo/it_sentences.tsv"),
    include_str!("../../data/demo/ru_sentences.tsv"),
];
/// Each language's word pairs.
const PAIRS: [(Language, &str); 5] = [
    (Language::En, include_str!("../../data/demo/en_pairs.tsv")),
    (Language::Es, include_str!("../../data/demo/es_pairs.tsv")),
    (Language::Fr, include_str!("../../data/demo/fr_pairs.tsv")),
    (Language::It, include_str!("../../data/demo/it_pairs.tsv")),
    (Language::Ru, include_str!("../../data/demo/ru_pairs.tsv")),
];

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
    // short has each language's pairs all or none
    for (language, pairs) in PAIRS {
        if store.admin().pair_rows(language, 0).await?.is_empty() {
            store.material().import(ImportKind::Pairs, ImportFormat::Tsv, pairs).await?;
        }
    }
    store.material().build_items(ITEMS_PER_K).await.map(Some)
}
