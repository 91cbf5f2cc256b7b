//! The next-word game's admin side (002_07d3f5412720a88c.txt): a model's whole-word
//! predictions for corpus sentences, and the word facts (frequency, neighbours in a
//! word-vector space) the analyses stratify and soft-match by.

use gapwise_model::{Language, ModelId};
use std::sync::atomic::{AtomicBool, Ordering};

use gapwise_model::words::game_spans;
use gapwise_prepare::wordfreq::WordFrequencies;
use gapwise_scorer::baseline::StaticVectors;
use gapwise_scorer::guess::{predict, NextPieceModel};
use gapwise_store::{Prediction, Store, WordFacts};

type Error = crate::error::CliError;

/// Which sentences a prediction run covers.
pub struct Guessing {
    pub language: Language,
    /// Sentences: those people played first, then others (seeded order).
    pub sentences: usize,
    pub seed: u64,
    /// Only sentences the next-word and cloze games may serve and nobody has had:
    /// the demo's, which supply the games.
    pub for_games: bool,
}

/// Predicts every position of the sentences `how` names with `model` under
/// `model_id`, storing each sentence when done (a rerun resumes). Returns how many
/// sentences were predicted.
pub async fn predict_sentences(
    store: &Store,
    model: &dyn NextPieceModel,
    model_id: &ModelId,
    how: &Guessing,
    stop: &AtomicBool,
    progress: &indicatif::ProgressBar,
) -> Result<usize, Error> {
    let sentences = store.guess().sentences_to_predict(model_id, how.language, how.sentences, how.seed, how.for_games).await?;
    progress.set_length(sentences.len() as u64);
    let mut done = 0;
    for (id, text) in sentences {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        // every word after the first, as the game's positions
        let words = game_spans(&text);
        let predictions =
            predict(model, &text, words.get(1..).unwrap_or_default()).map_err(|e| format!("sentence {id} ({text:?}): {e}"))?;
        let rows: Vec<Prediction> = predictions
            .into_iter()
            .map(|p| Prediction { top: p.top, log_prob: p.word_log_prob.map(|lp| (lp.pieces, Some(lp.corrected))) })
            .collect();
        store.guess().save_predictions(model_id, id, &rows).await?;
        done += 1;
        progress.inc(1);
    }
    Ok(done)
}

/// Gives every word of `language` guessed at or predicted that has no facts yet
/// its Zipf frequency (with `frequencies`) and its `k` nearest neighbours (with
/// `vectors`). Returns how many words were added.
pub async fn add_word_facts(
    store: &Store,
    language: Language,
    frequencies: Option<&WordFrequencies>,
    vectors: Option<&StaticVectors>,
    k: usize,
) -> Result<usize, Error> {
    let words = store.guess().words_without_facts(language).await?;
    let mut facts = Vec::with_capacity(words.len());
    for word in words {
        let neighbours = match vectors {
            Some(v) if v.knows(&word) => v.neighbours(&word, k, |_| true)?.into_iter().map(|(w, _)| w).collect(),
            _ => Vec::new(),
        };
        facts.push((word.clone(), WordFacts { zipf: frequencies.and_then(|f| f.zipf(&word)), neighbours }));
    }
    store.guess().save_word_facts(language, &facts).await?;
    Ok(facts.len())
}
