//! The invented-word analyses (WinoDict, 003_e0d4aede4cc7e323.txt): accuracy of
//! people and of each model by the word an item is played with (original, invented,
//! meaning shift) and by how the definition is given (Tables 2 and 3), and, for
//! invented words taught by their definition, by part of speech and by definition
//! length (Sec. 5).
//!
//! People see the definition above the sentence or not at all; a model gets it as
//! a suffix (scored), as a prefix (conditioned on) or not at all. "People's items"
//! rows judge a model on exactly the items and words people answered, with the
//! suffix where people saw the definition and none where they did not. Definition
//! length is counted in words of the WordNet gloss (not in model tokens, so that it
//! means the same for people and for every model), in quartiles of the items loaded.

use std::collections::{BTreeMap, HashMap};

use crate::ResearchError;
use gapwise_model::Teaching;
use gapwise_model::{PlayedWord, ReportTable};
use gapwise_store::{NewWordsJudgement, Store};

use crate::table::{rate_with_ci, table};

const PEOPLE: &str = "people";

/// Facts of an item the breakdowns need.
struct Facts {
    pos: String,
    definition_words: usize,
}

/// The two tables, from people's answers and the stored judgements.
pub async fn tables(store: &Store) -> Result<Vec<ReportTable>, ResearchError> {
    let facts: HashMap<String, Facts> = store
        .new_words()
        .items()
        .await?
        .into_iter()
        .map(|(item, _)| (item.id, Facts { pos: item.pos, definition_words: item.definition.split_whitespace().count() }))
        .collect();
    let answers = store.new_words().answers().await?;
    let judgements = store.new_words().judgements().await?;
    Ok(vec![accuracy(&answers, &judgements), breakdown(&answers, &judgements, &facts)])
}

fn shown(with_definition: bool) -> &'static str {
    if with_definition {
        "shown"
    } else {
        "none"
    }
}

fn rate_row(player: &str, word: PlayedWord, definition: &str, shots: u32, correct: &[bool]) -> Vec<String> {
    let mut row = vec![player.to_owned(), word.code().to_owned(), definition.to_owned(), shots.to_string(), correct.len().to_string()];
    row.extend(rate_with_ci(correct));
    row
}

/// Tables 2 and 3: every condition people answered in and every setup a model was
/// judged in, with the models on people's items.
fn accuracy(answers: &[gapwise_store::NewWordsAnswer], judgements: &[NewWordsJudgement]) -> ReportTable {
    let mut rows = Vec::new();
    let mut people: BTreeMap<(PlayedWord, bool), Vec<&gapwise_store::NewWordsAnswer>> = BTreeMap::new();
    for a in answers {
        people.entry((a.word, a.with_definition)).or_default().push(a);
    }
    let mut by_model: BTreeMap<&str, Vec<&NewWordsJudgement>> = BTreeMap::new();
    for j in judgements {
        by_model.entry(j.model.as_str()).or_default().push(j);
    }
    for ((word, with_definition), mine) in &people {
        rows.push(rate_row(PEOPLE, *word, shown(*with_definition), 0, &mine.iter().map(|a| a.correct).collect::<Vec<_>>()));
        for (model, theirs) in &by_model {
            let teaching = if *with_definition { Teaching::DefinitionSuffix } else { Teaching::Empty }.code();
            let judged: HashMap<&str, bool> = theirs
                .iter()
                .filter(|j| j.setup.word == *word && j.setup.teaching == teaching && j.setup.shots == 0)
                .map(|j| (j.item_id.as_str(), j.correct))
                .collect();
            let same: Vec<bool> = mine.iter().filter_map(|a| judged.get(a.item_id.as_str()).copied()).collect();
            if !same.is_empty() {
                rows.push(rate_row(&format!("{model}, people's items"), *word, teaching, 0, &same));
            }
        }
    }
    for (model, theirs) in &by_model {
        let mut setups: BTreeMap<(PlayedWord, &str, u32), Vec<bool>> = BTreeMap::new();
        for j in theirs {
            setups.entry((j.setup.word, j.setup.teaching.as_str(), j.setup.shots)).or_default().push(j.correct);
        }
        for ((word, teaching, shots), correct) in setups {
            rows.push(rate_row(&format!("{model}, all its items"), word, teaching, shots, &correct));
        }
    }
    table(
        "new_words_accuracy",
        "Invented words (WinoDict, Tables 2-3): accuracy of people and models by word and definition",
        &["player", "word", "definition", "shots", "items", "accuracy", "95% CI low", "95% CI high"],
        rows,
    )
}

/// The quartile (1 to 4) of `value` among the `sorted` values.
fn quartile(sorted: &[usize], value: usize) -> usize {
    let cut = |q: usize| sorted.get((sorted.len() * q / 4).saturating_sub(1)).copied().unwrap_or(0);
    (1..=3).find(|&q| value <= cut(q)).unwrap_or(4)
}

/// Sec. 5: accuracy with an invented word taught by its definition (people: shown;
/// models: as a suffix) by part of speech and by quartile of definition length.
fn breakdown(answers: &[gapwise_store::NewWordsAnswer], judgements: &[NewWordsJudgement], facts: &HashMap<String, Facts>) -> ReportTable {
    let mut lengths: Vec<usize> = facts.values().map(|f| f.definition_words).collect();
    lengths.sort_unstable();
    let mut bounds: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for &len in &lengths {
        let b = bounds.entry(quartile(&lengths, len)).or_insert((len, len));
        *b = (b.0.min(len), b.1.max(len));
    }
    let length_bin = |len: usize| {
        let q = quartile(&lengths, len);
        let (lo, hi) = bounds.get(&q).copied().unwrap_or((len, len));
        format!("Q{q} ({lo}-{hi} words)")
    };
    // (player, item, correct) of every instance that counts
    let mut instances: Vec<(String, &str, bool)> = answers
        .iter()
        .filter(|a| a.word == PlayedWord::Invented && a.with_definition)
        .map(|a| (PEOPLE.to_owned(), a.item_id.as_str(), a.correct))
        .collect();
    instances.extend(
        judgements.iter().filter(|j| j.setup.word == PlayedWord::Invented && j.setup.teaching == Teaching::DefinitionSuffix.code()).map(
            |j| {
                let player = if j.setup.shots == 0 { j.model.to_string() } else { format!("{}, {}-shot", j.model, j.setup.shots) };
                (player, j.item_id.as_str(), j.correct)
            },
        ),
    );
    let mut cells: BTreeMap<(&str, String, String), Vec<bool>> = BTreeMap::new();
    for (player, item, correct) in instances {
        let Some(f) = facts.get(item) else { continue };
        cells.entry(("part of speech", f.pos.clone(), player.clone())).or_default().push(correct);
        cells.entry(("definition length", length_bin(f.definition_words), player)).or_default().push(correct);
    }
    let rows = cells
        .into_iter()
        .map(|((attribute, value, player), correct)| {
            let mut row = vec![attribute.to_owned(), value, player, correct.len().to_string()];
            row.extend(rate_with_ci(&correct));
            row
        })
        .collect();
    table(
        "new_words_breakdown",
        "Invented words taught by their definition (WinoDict, Sec. 5): accuracy by part of speech and definition length",
        &["attribute", "value", "player", "items", "accuracy", "95% CI low", "95% CI high"],
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::quartile;

    #[test]
    fn quartiles_split_the_sorted_lengths_in_four() {
        let sorted = [1, 2, 3, 4, 5, 6, 7, 8];
        let bins: Vec<usize> = sorted.iter().map(|&v| quartile(&sorted, v)).collect();
        assert_eq!(bins, [1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(quartile(&[3, 3, 3, 9], 3), 1, "ties share the lower bin");
        assert_eq!(quartile(&[], 3), 4, "no items: the last bin, without a panic");
    }
}
