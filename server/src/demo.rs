//! The demo data set shipped in the binary, so that a first run is playable: English
//! example sentences from WordNet 3.0 (WordNet licence, see data/demo/README.md) and
//! word pairs of all three strategies.

use gapwise_store::{BuildReport, ImportFormat, ImportKind, Store, StoreError, ITEMS_PER_K};

const SENTENCES: &str = include_str!("../../data/demo/en_sentences.tsv");
const PAIRS: &str = include_str!("../../data/demo/en_pairs.tsv");

/// Loads the demo data into an empty database (one without sentences); does nothing
/// otherwise. Returns the build report when it loaded.
pub async fn seed_if_empty(store: &Store) -> Result<Option<BuildReport>, StoreError> {
    if store.count_rows("sentences").await? > 0 {
        return Ok(None);
    }
    store.import(ImportKind::Sentences, ImportFormat::Tsv, SENTENCES).await?;
    store.import(ImportKind::Pairs, ImportFormat::Tsv, PAIRS).await?;
    store.build_items(ITEMS_PER_K).await.map(Some)
}
