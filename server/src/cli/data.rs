//! Data a command loads with a progress bar: WordNet (for the define and new-words
//! modes).

use std::path::{Path, PathBuf};

use gapwise_store::Store;

use super::models::{models_dir, progress_bar};

/// Imports WordNet from `dir`, with the frequencies of `wordfreq` (or the cached
/// English ones, when there are), showing a progress bar.
pub(super) async fn import_wordnet(
    store: &Store,
    dir: &Path,
    wordfreq: Option<PathBuf>,
) -> Result<gapwise_store::WordNetReport, crate::error::CliError> {
    let wordfreq = wordfreq.or_else(|| Some(models_dir().join("large_en.msgpack.gz")).filter(|p| p.is_file()));
    let frequencies = wordfreq.as_deref().map(gapwise_prepare::wordfreq::WordFrequencies::from_file).transpose()?;
    let progress = progress_bar(0, "{pos}/{len} rows", "WordNet")?;
    let report = crate::runs::score_define::import_wordnet(store, dir, frequencies.as_ref(), &|written, total| {
        progress.set_length(total);
        progress.set_position(written);
    })
    .await?;
    progress.finish_and_clear();
    Ok(report)
}
