//! The next-word analyses (002_07d3f5412720a88c.txt): top-1 and top-10 accuracy,
//! soft match, type diversity (T1, T10) and word-level perplexity of people and of
//! each model, side by side on the positions people guessed; and token and type
//! coverage by frequency bin.
//!
//! A person gives one guess per position, so their top-10 equals their top-1 and
//! only models have a perplexity. Soft match counts a first guess among the target's
//! nearest neighbours as stored by `gapwise score-guess --vectors`; without
//! stored neighbours it reads n/a. Frequency bins need stored Zipf frequencies
//! (`--wordfreq`); words without one fall in the "rare" bin.

pub mod metrics;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::table::{num, table};
use crate::ResearchError;
use gapwise_model::words::folded;
use gapwise_model::ReportTable;
use gapwise_store::{ModelGuess, Store, WordFacts};
use metrics::{by_bin, perplexity, soft_match, Bin, Event, Tally};

const PEOPLE: &str = "people";

/// One player's events in one language, with a model's log-probabilities of the
/// actual words: the sums over their pieces and the words' own (none where the model
/// gives the word none, and the words' own where a prediction predates them).
struct Player {
    language: String,
    name: String,
    events: Vec<Event>,
    log_probs: Vec<(Option<f64>, Option<f64>)>,
}

impl Player {
    /// Whether it guesses (a model scored by a harness gives the actual words'
    /// probabilities only).
    fn guessed(&self) -> bool {
        self.events.iter().any(|e| !e.guesses.is_empty())
    }

    /// The perplexities over the words that have a log-probability, of the words' own
    /// (n/a when a prediction predates them) and of the pieces' sums; and how many
    /// words have none.
    fn perplexities(&self) -> (f64, f64, usize) {
        let scored: Vec<(f64, Option<f64>)> = self.log_probs.iter().filter_map(|&(pieces, own)| Some((pieces?, own))).collect();
        let unscored = self.log_probs.len() - scored.len();
        if scored.is_empty() {
            return (f64::NAN, f64::NAN, unscored);
        }
        let own = scored.iter().map(|&(_, own)| own).collect::<Option<Vec<f64>>>().map_or(f64::NAN, |l| perplexity(&l));
        let pieces: Vec<f64> = scored.iter().map(|&(pieces, _)| pieces).collect();
        (own, perplexity(&pieces), unscored)
    }
}

/// The two tables.
pub async fn tables(store: &Store) -> Result<Vec<ReportTable>, ResearchError> {
    let facts = store.guess().word_facts().await?;
    let no_facts = WordFacts::default();
    let fact = |lang: &str, word: &str| facts.get(&(lang.to_owned(), folded(word))).unwrap_or(&no_facts);
    let has_neighbours = facts.values().any(|f| !f.neighbours.is_empty());
    let event = |lang: &str, word: &str, guesses: Vec<String>| {
        let soft = guesses.first().is_some_and(|g| soft_match(g, word, &fact(lang, word).neighbours, usize::MAX));
        Event { target: word.to_owned(), guesses, soft }
    };

    let people = store.guess().human_guesses().await?;
    let models = store.guess().model_guesses().await?;
    // one prediction per (model, sentence, position): the table's primary key
    let by_position: HashMap<(&str, i64, usize), &ModelGuess> =
        models.iter().map(|m| ((m.model.as_str(), m.sentence_id, m.position), m)).collect();
    let languages: BTreeSet<&str> = people.iter().map(|p| p.lang.as_str()).chain(models.iter().map(|m| m.lang.as_str())).collect();
    let model_names: BTreeSet<&str> = models.iter().map(|m| m.model.as_str()).collect();
    let mut players = Vec::new();
    for lang in languages {
        let mine: Vec<_> = people.iter().filter(|p| p.lang == lang).collect();
        if !mine.is_empty() {
            let events = mine.iter().map(|p| event(lang, &p.word, vec![p.guess.clone()])).collect();
            players.push(Player { language: lang.into(), name: PEOPLE.into(), events, log_probs: Vec::new() });
        }
        for &model in &model_names {
            let mut add = |name: String, guesses: Vec<&ModelGuess>| {
                if !guesses.is_empty() {
                    let events = guesses.iter().map(|m| event(lang, &m.word, m.top.clone())).collect();
                    let log_probs = guesses.iter().map(|m| (m.word_log_prob, m.word_log_prob_corrected)).collect();
                    players.push(Player { language: lang.into(), name, events, log_probs });
                }
            };
            add(
                format!("{model}, people's positions"),
                mine.iter().filter_map(|p| by_position.get(&(model, p.sentence_id, p.position)).copied()).collect(),
            );
            add(format!("{model}, all its positions"), models.iter().filter(|m| m.model == model && m.lang == lang).collect());
        }
    }

    let accuracy = players
        .iter()
        .map(|p| {
            let t = Tally::of(&p.events);
            let person = p.name == PEOPLE;
            let guessed = p.guessed();
            let (own, pieces, unscored) = p.perplexities();
            let when = |shown: bool, value: String| if shown { value } else { "n/a".into() };
            vec![
                p.language.clone(),
                p.name.clone(),
                t.tokens.to_string(),
                when(guessed, num(t.percent(t.top1))),
                when(guessed && !person, num(t.percent(t.top10))),
                when(guessed && has_neighbours, num(t.percent(t.soft))),
                when(guessed, t.types_top1.to_string()),
                when(guessed && !person, t.types_top10.to_string()),
                // n/a for a person, and for a model with predictions stored before words' own probabilities were
                if person { "n/a".into() } else { num(own) },
                if person { "n/a".into() } else { num(pieces) },
                if person { "n/a".into() } else { unscored.to_string() },
            ]
        })
        .collect();
    let mut coverage = Vec::new();
    for p in players.iter().filter(|p| p.guessed()) {
        let bins: BTreeMap<Bin, Tally> = by_bin(&p.events, |w| Bin::of_zipf(fact(&p.language, w).zipf));
        for (bin, t) in bins {
            if t.tokens == 0 {
                continue;
            }
            coverage.push(vec![
                p.language.clone(),
                p.name.clone(),
                bin.name().into(),
                t.tokens.to_string(),
                num(t.percent(t.top1)),
                num(t.percent(t.top10)),
                t.types.to_string(),
                num(t.type_percent(t.types_top1)),
                num(t.type_percent(t.types_top10)),
            ]);
        }
    }
    Ok(vec![
        table(
            "next_word_accuracy",
            "Next word: top-1 and top-10 accuracy (%), soft match (%), T1 and T10 (distinct words guessed right) and word-level \
             perplexity (the guesses' columns n/a for a model scored by a harness, which gives no guesses), of the words' own probabilities (perplexity: with the word-start correction of Pimentel & Meister 2024, \
             as minicons computes it) and of the pieces' product (perplexity_pieces, the paper's), both on the sentence's own \
             pieces and over the words that have them; unscored: words a piece shares with the text beside them (no \
             log-probability)",
            &[
                "language",
                "player",
                "positions",
                "top-1",
                "top-10",
                "soft match",
                "T1",
                "T10",
                "perplexity",
                "perplexity_pieces",
                "unscored",
            ],
            accuracy,
        ),
        table(
            "next_word_coverage",
            "Next word by frequency bin (high >= 1000, mid 100-999, low 10-99 per 100 million words; wordfreq): \
             token coverage (top-1, top-10 %) and type coverage (% of the bin's words guessed right at least once)",
            &["language", "player", "bin", "tokens", "top-1", "top-10", "types", "types top-1", "types top-10"],
            coverage,
        ),
    ])
}
