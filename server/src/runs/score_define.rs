//! The word-definition game's admin side (001_bf5d15b61b58df06.txt): importing the
//! WordNet groups, and scoring them with a model.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use gapwise_model::{DefinitionTask, ModelId};
use gapwise_prepare::wordfreq::WordFrequencies;
use gapwise_prepare::wordnet::WordNet;
use gapwise_scorer::define::{DefinitionScorer, Pos};
use gapwise_scorer::ScorerError;
use gapwise_store::{NewSynset, Store, WordNetReport};

type Error = crate::error::CliError;

/// Where WordNet is looked for: GAPWISE_WORDNET, else Debian's `wordnet-base` folder.
pub fn default_wordnet_dir() -> PathBuf {
    std::env::var_os("GAPWISE_WORDNET").map_or_else(|| PathBuf::from("/usr/share/wordnet"), PathBuf::from)
}

/// Reads the WordNet database in `dir` and stores its noun and verb synsets, links
/// and groups (with word frequencies when `frequencies` is given); `progress` gets
/// (rows written, rows in all).
pub async fn import_wordnet(
    store: &Store,
    dir: &Path,
    frequencies: Option<&WordFrequencies>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<WordNetReport, Error> {
    let wordnet = WordNet::read(dir)?;
    let depths = wordnet.depths();
    let synsets: Vec<NewSynset> = wordnet
        .synsets
        .iter()
        .zip(&depths)
        .map(|(s, &depth)| NewSynset {
            id: s.name.clone(),
            pos: s.pos.letter().to_owned(),
            word: s.word.clone(),
            definition: s.definition.clone(),
            depth,
            zipf: frequencies.and_then(|f| f.phrase_zipf(&s.word)),
        })
        .collect();
    let hypernyms: Vec<(String, String)> = wordnet
        .synsets
        .iter()
        .flat_map(|s| s.hypernyms.iter().filter_map(|&h| wordnet.synsets.get(h)).map(|h| (s.name.clone(), h.name.clone())))
        .collect();
    let groups: Vec<(String, usize)> =
        wordnet.groups().filter_map(|(t, members)| Some((wordnet.synsets.get(t)?.name.clone(), members.len()))).collect();
    let total = (synsets.len() + hypernyms.len() + groups.len()) as u64;
    Ok(store.define().import_wordnet(&synsets, &hypernyms, &groups, &|written| progress(written, total)).await?)
}

/// How a scoring run is bounded.
pub struct Scoring {
    pub tasks: Vec<DefinitionTask>,
    /// Only groups of at most this many members.
    pub max_size: u32,
    /// Groups per task: those people played first, then others (seeded order).
    pub groups: usize,
    pub seed: u64,
}

/// Scores groups with `scorer` under `model_id`, group by group (each stored as it
/// is done, so an interrupted run keeps its work and a rerun resumes); `progress`
/// is told of each group. Returns how many groups were scored.
pub async fn score_definitions(
    store: &Store,
    scorer: &dyn DefinitionScorer,
    model_id: &ModelId,
    how: &Scoring,
    stop: &AtomicBool,
    progress: &indicatif::ProgressBar,
) -> Result<usize, Error> {
    let mut done = 0;
    for &task in &how.tasks {
        let groups = store.define().groups_to_score(model_id, task, how.max_size, how.groups, how.seed).await?;
        progress.inc_length(groups.len() as u64);
        for group in groups {
            if stop.load(Ordering::SeqCst) {
                return Ok(done);
            }
            let pos = Pos::from_wordnet(&group.pos).ok_or_else(|| format!("{}: unknown part of speech {:?}", group.target, group.pos))?;
            let target =
                group.members.iter().find(|m| m.id == group.target).ok_or_else(|| format!("{} is not in its own group", group.target))?;
            let scores = match task {
                DefinitionTask::W2d => {
                    let definitions: Vec<&str> = group.members.iter().map(|m| m.definition.as_str()).collect();
                    scorer.word_to_definition(pos, &target.word, &definitions)
                }
                DefinitionTask::D2w => {
                    let words: Vec<&str> = group.members.iter().map(|m| m.word.as_str()).collect();
                    scorer.definition_to_word(pos, &target.definition, &words)
                }
            };
            let scores = match scores {
                Ok(scores) => scores,
                // a group the model cannot read (its tokenizer joins a candidate and the
                // text before it in one piece): left out, the others scored
                Err(e @ ScorerError::Input(_)) => {
                    tracing::warn!(model = %model_id, group = group.target, task = task.code(), "a group left unscored: {e}");
                    progress.inc(1);
                    continue;
                }
                Err(e) => return Err(format!("{} ({}): {e}", group.target, task.code()).into()),
            };
            let scored: Vec<(String, f64)> = group.members.iter().map(|m| m.id.clone()).zip(scores).collect();
            store.define().save_scores(model_id, task, &group.target, &scored).await?;
            done += 1;
            progress.inc(1);
        }
    }
    Ok(done)
}
