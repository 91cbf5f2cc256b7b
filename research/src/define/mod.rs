//! The word-definition analyses (001_bf5d15b61b58df06.txt): P@1 and the rank score
//! RS of people and of each scored model (Tables 4, 5 and 8, with the random
//! baseline), by word frequency (Tables 7 and 10) and by depth in WordNet (Table 6).
//!
//! A person's rank of the right candidate is the number of picks it took them; a
//! model's is the rank of the target among the scores it gave the whole group.
//! "On people's groups" repeats each person's round with the model's rank of the
//! same group, so the two are compared on exactly the same candidates.

pub mod metrics;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::table::{num, table};
use crate::ResearchError;
use gapwise_model::{DefinitionTask, ReportTable};
use gapwise_store::{GroupFacts, Store};
use metrics::{depth_range, rank_of, FrequencyBand, Summary, DEPTH_RANGES};

/// One ranked group: by a person (a round) or by a model.
#[derive(Clone, Debug)]
struct Instance {
    task: DefinitionTask,
    target: String,
    candidates: usize,
    rank: usize,
}

const PEOPLE: &str = "people";

/// The three tables, from the rounds people finished and the stored model scores.
pub async fn tables(store: &Store) -> Result<Vec<ReportTable>, ResearchError> {
    let people: Vec<Instance> = store
        .define()
        .finished_rounds()
        .await?
        .into_iter()
        .map(|r| Instance { task: r.task, target: r.target, candidates: r.candidates, rank: r.rank })
        .collect();
    let mut models: BTreeMap<String, Vec<Instance>> = BTreeMap::new();
    for ((model, task, target), scores) in store.define().candidate_scores().await? {
        let candidates: Vec<(&String, f64)> = scores.iter().map(|(c, s)| (c, *s)).collect();
        let Some(correct) = candidates.iter().position(|(c, _)| **c == target) else { continue };
        let values: Vec<f64> = candidates.iter().map(|(_, s)| *s).collect();
        let rank = rank_of(&values, correct);
        models.entry(model).or_default().push(Instance { task, candidates: values.len(), rank, target });
    }
    let facts = store.define().group_facts().await?;
    Ok(vec![overall(&people, &models, &facts), by_frequency(&people, &models, &facts), by_depth(&people, &models, &facts)])
}

fn pos_of<'a>(facts: &'a HashMap<String, GroupFacts>, target: &str) -> &'a str {
    facts.get(target).map_or("?", |f| f.pos.as_str())
}

fn summary_of(instances: &[&Instance]) -> Summary {
    Summary::of(&instances.iter().map(|i| (i.candidates, i.rank)).collect::<Vec<_>>())
}

fn random_of(instances: &[&Instance]) -> Summary {
    Summary::random(&instances.iter().map(|i| i.candidates).collect::<Vec<_>>())
}

fn row(task: DefinitionTask, pos: &str, player: &str, s: Summary) -> Vec<String> {
    let pos = if pos == "n" { "noun" } else { "verb" };
    vec![task.code().to_uppercase(), pos.into(), player.into(), s.instances.to_string(), num(s.p_at_1), num(s.rank_score)]
}

/// Tables 4, 5 and 8: P@1 and RS of people, of each model on people's groups and on
/// every group it scored, and of random guessing on each of those sets.
fn overall(people: &[Instance], models: &BTreeMap<String, Vec<Instance>>, facts: &HashMap<String, GroupFacts>) -> ReportTable {
    let mut rows = Vec::new();
    for task in DefinitionTask::ALL {
        for pos in ["n", "v"] {
            let mine = |i: &&Instance| i.task == task && pos_of(facts, &i.target) == pos;
            let played: Vec<&Instance> = people.iter().filter(mine).collect();
            if !played.is_empty() {
                rows.push(row(task, pos, PEOPLE, summary_of(&played)));
                rows.push(row(task, pos, "random, people's groups", random_of(&played)));
            }
            for (model, instances) in models {
                let by_target: HashMap<&str, &Instance> = instances.iter().filter(mine).map(|i| (i.target.as_str(), i)).collect();
                let same: Vec<&Instance> = played.iter().filter_map(|p| by_target.get(p.target.as_str()).copied()).collect();
                if !same.is_empty() {
                    rows.push(row(task, pos, &format!("{model}, people's groups"), summary_of(&same)));
                }
                let all: Vec<&Instance> = by_target.into_values().collect();
                if !all.is_empty() {
                    rows.push(row(task, pos, &format!("{model}, all its groups"), summary_of(&all)));
                    rows.push(row(task, pos, &format!("random, {model}'s groups"), random_of(&all)));
                }
            }
        }
    }
    table(
        "definitions_p_at_1_rs",
        "Word and definition (Tables 4, 5, 8): P@1 (%) and rank score RS of people and models",
        &["task", "part of speech", "player", "groups", "P@1", "RS"],
        rows,
    )
}

/// Every player's instances of `task` on nouns, with the random baseline over the
/// union of their groups last.
fn players<'a>(
    task: DefinitionTask,
    people: &'a [Instance],
    models: &'a BTreeMap<String, Vec<Instance>>,
    facts: &HashMap<String, GroupFacts>,
) -> Vec<(String, Vec<&'a Instance>)> {
    let nouns = |i: &&Instance| i.task == task && pos_of(facts, &i.target) == "n";
    let mut out: Vec<(String, Vec<&Instance>)> = vec![(PEOPLE.to_owned(), people.iter().filter(nouns).collect())];
    out.extend(models.iter().map(|(m, instances)| (m.clone(), instances.iter().filter(nouns).collect())));
    out.retain(|(_, instances)| !instances.is_empty());
    out
}

/// The groups (once each) of the instances of every player.
fn union<'a>(players: &[(String, Vec<&'a Instance>)]) -> Vec<&'a Instance> {
    let mut seen = BTreeSet::new();
    players.iter().flat_map(|(_, i)| i.iter().copied()).filter(|i| seen.insert(i.target.as_str())).collect()
}

/// Tables 7 and 10: P@1 on nouns by the frequency of the target word.
fn by_frequency(people: &[Instance], models: &BTreeMap<String, Vec<Instance>>, facts: &HashMap<String, GroupFacts>) -> ReportTable {
    let band = |i: &Instance| FrequencyBand::of(facts.get(&i.target).and_then(|f| f.zipf));
    let mut rows = Vec::new();
    for task in DefinitionTask::ALL {
        let players = players(task, people, models, facts);
        let random = union(&players);
        let line = |name: &str, instances: &[&Instance], measure: &dyn Fn(&[&Instance]) -> Summary| {
            let mut cells = vec![task.code().to_uppercase(), name.to_owned()];
            for b in FrequencyBand::ALL {
                let part: Vec<&Instance> = instances.iter().copied().filter(|i| band(i) == b).collect();
                cells.push(format!("{} ({})", num(measure(&part).p_at_1), part.len()));
            }
            cells.push(format!("{} ({})", num(measure(instances).p_at_1), instances.len()));
            cells
        };
        for (name, instances) in &players {
            rows.push(line(name, instances, &summary_of));
        }
        if !random.is_empty() {
            rows.push(line("random", &random, &random_of));
        }
    }
    table(
        "definitions_by_frequency",
        "Word and definition by word frequency (Tables 7, 10): P@1 (%) on nouns, groups in brackets; \
         rare < 10, medium 10-99, frequent >= 100 per billion words (wordfreq)",
        &["task", "player", "rare", "medium", "frequent", "all"],
        rows,
    )
}

/// Table 6: W2D on nouns by the depth of the target in WordNet.
fn by_depth(people: &[Instance], models: &BTreeMap<String, Vec<Instance>>, facts: &HashMap<String, GroupFacts>) -> ReportTable {
    let mut rows = Vec::new();
    let players = players(DefinitionTask::W2d, people, models, facts);
    let depth = |i: &Instance| depth_range(facts.get(&i.target).map_or(0, |f| f.depth));
    for (name, instances) in &players {
        for (lo, _) in DEPTH_RANGES {
            let range = depth_range(lo);
            let part: Vec<&Instance> = instances.iter().copied().filter(|i| depth(i) == range).collect();
            if part.is_empty() {
                continue;
            }
            let s = summary_of(&part);
            let mean_candidates = part.iter().map(|i| i.candidates).sum::<usize>() as f64 / part.len() as f64;
            rows.push(vec![name.clone(), range, part.len().to_string(), format!("{mean_candidates:.1}"), num(s.rank_score), num(s.p_at_1)]);
        }
    }
    table(
        "definitions_by_depth",
        "Word to definition by depth in WordNet (Table 6): nouns; depth = shortest path to entity.n.01",
        &["player", "depth", "groups", "mean candidates", "RS", "P@1"],
        rows,
    )
}
