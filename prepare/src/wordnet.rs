//! WordNet 3.0 as the word-definition tasks need it (001_bf5d15b61b58df06.txt, Sec. 2.1):
//! noun and verb synsets read from the database files (`data.noun`, `data.verb`,
//! `index.noun`, `index.verb`; Debian's `wordnet-base` puts them in /usr/share/wordnet),
//! their names, string forms and definitions, hypernym links, depths and synset groups.
//!
//! Decisions, each as NLTK reads the same files (the paper's data were made with it):
//! - a synset's name is its first lemma, lower-cased, with its part of speech and
//!   its sense number among that lemma's synsets in the index file: `beckon.v.01`;
//! - its string form (the paper's **t**) is the name without part of speech and
//!   sense, underscores turned to spaces: `warm_up.v.04` reads "warm up";
//! - its definition is the gloss without the quoted examples, trimmed of spaces and
//!   semicolons;
//! - a group G(t) takes the hyponyms of t's hypernyms (`@` pointers; instance
//!   hypernyms `@i` are left out, which gives Table 2's candidate counts: nouns
//!   average 50.2, 5 to 404; verbs 47.7, 5 to 593), t included; groups of fewer
//!   than [`MIN_GROUP`] synsets are dropped;
//! - depth is the shortest hypernym path (instance hypernyms included, as NLTK's
//!   `min_depth`) to a synset without hypernyms: `entity.n.01` has depth 0.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use gapwise_model::{Pos, DEFINITION_POS};

use crate::PrepareError;

/// Groups smaller than this are discarded (Sec. 2.1).
pub const MIN_GROUP: usize = 5;

/// One synset.
#[derive(Clone, Debug, PartialEq)]
pub struct Synset {
    /// `beckon.v.01`
    pub name: String,
    pub pos: Pos,
    /// The string form: "beckon", "warm up".
    pub word: String,
    pub definition: String,
    /// Indices (into [`WordNet::synsets`]) of the `@` hypernyms.
    pub hypernyms: Vec<usize>,
    /// Indices of the `@i` instance hypernyms.
    pub instance_hypernyms: Vec<usize>,
}

/// The noun and verb synsets of a WordNet database.
pub struct WordNet {
    pub synsets: Vec<Synset>,
    /// Inverse of `hypernyms`.
    hyponyms: Vec<Vec<usize>>,
    by_name: HashMap<String, usize>,
}

/// A synset as read from a data line, before its name is known.
struct Raw {
    offset: u64,
    lemma: String,
    definition: String,
    /// (symbol, offset) of the `@` and `@i` pointers.
    hypernyms: Vec<(bool, u64)>,
}

impl WordNet {
    /// Reads the noun and verb files of the WordNet database in `dir`.
    pub fn read(dir: &Path) -> Result<Self, PrepareError> {
        let mut synsets = Vec::new();
        let mut links: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for pos in DEFINITION_POS {
            let data = read_latin1(&dir.join(format!("data.{}", pos.code())))?;
            let senses = sense_numbers(&read_latin1(&dir.join(format!("index.{}", pos.code())))?);
            let raws = data
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.starts_with("  "))
                .map(|(n, line)| {
                    parse_data_line(line).ok_or_else(|| {
                        PrepareError::file(&dir.join(format!("data.{}", pos.code())), format!("line {}: not a synset", n + 1))
                    })
                })
                .collect::<Result<Vec<Raw>, _>>()?;
            let at: HashMap<u64, usize> = raws.iter().enumerate().map(|(i, r)| (r.offset, synsets.len() + i)).collect();
            for raw in raws {
                let lemma = raw.lemma.to_lowercase();
                let sense = senses.get(&(lemma.clone(), raw.offset)).copied().unwrap_or(1);
                let resolve =
                    |instance: bool| raw.hypernyms.iter().filter(|(i, _)| *i == instance).filter_map(|(_, o)| at.get(o).copied()).collect();
                links.push((resolve(false), resolve(true)));
                synsets.push(Synset {
                    name: format!("{lemma}.{}.{sense:02}", pos.letter()),
                    pos,
                    word: lemma.replace('_', " "),
                    definition: raw.definition,
                    hypernyms: Vec::new(),
                    instance_hypernyms: Vec::new(),
                });
            }
        }
        let mut hyponyms: Vec<Vec<usize>> = vec![Vec::new(); synsets.len()];
        for ((i, (hypernyms, instance)), synset) in links.into_iter().enumerate().zip(synsets.iter_mut()) {
            for &h in &hypernyms {
                // every link was resolved to a synset read above
                if let Some(below) = hyponyms.get_mut(h) {
                    below.push(i);
                }
            }
            synset.hypernyms = hypernyms;
            synset.instance_hypernyms = instance;
        }
        let by_name = synsets.iter().enumerate().map(|(i, s)| (s.name.clone(), i)).collect();
        Ok(WordNet { synsets, hyponyms, by_name })
    }

    /// The index of the synset called `name` (`beckon.v.01`).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// G(t): every hyponym of a hypernym of `t`, `t` included, in index order.
    pub fn group(&self, t: usize) -> Vec<usize> {
        let Some(synset) = self.synsets.get(t) else { return Vec::new() };
        let members: BTreeSet<usize> = synset.hypernyms.iter().filter_map(|&h| self.hyponyms.get(h)).flatten().copied().collect();
        members.into_iter().collect()
    }

    /// Every group of at least [`MIN_GROUP`] synsets, as (target, members).
    pub fn groups(&self) -> impl Iterator<Item = (usize, Vec<usize>)> + '_ {
        (0..self.synsets.len()).map(|t| (t, self.group(t))).filter(|(_, g)| g.len() >= MIN_GROUP)
    }

    /// The depth of every synset (see the module documentation).
    #[allow(clippy::indexing_slicing, reason = "the synsets' links are indices into the synsets, resolved when they were read")]
    pub fn depths(&self) -> Vec<u32> {
        let mut depth: Vec<Option<u32>> = vec![None; self.synsets.len()];
        for start in 0..self.synsets.len() {
            // depth-first, parents before children, without recursion
            let mut stack = vec![start];
            while let Some(&s) = stack.last() {
                if depth[s].is_some() {
                    stack.pop();
                    continue;
                }
                let up: Vec<usize> = self.synsets[s].hypernyms.iter().chain(&self.synsets[s].instance_hypernyms).copied().collect();
                let pending: Vec<usize> = up.iter().copied().filter(|&h| depth[h].is_none()).collect();
                if pending.is_empty() {
                    depth[s] = Some(up.iter().filter_map(|&h| depth[h]).min().map_or(0, |d| d + 1));
                    stack.pop();
                } else {
                    stack.extend(pending);
                }
            }
        }
        depth.into_iter().map(|d| d.unwrap_or(0)).collect()
    }
}

/// Every lemma of the four index files (nouns, verbs, adjectives, adverbs) of the
/// WordNet database in `dir`, as written there (multi-word lemmas joined by `_`).
pub fn lemmas(dir: &Path) -> Result<Vec<String>, PrepareError> {
    let mut lemmas = Vec::new();
    for file in ["noun", "verb", "adj", "adv"] {
        let index = read_latin1(&dir.join(format!("index.{file}")))?;
        lemmas.extend(index.lines().filter(|l| !l.starts_with("  ")).filter_map(|l| l.split(' ').next()).map(str::to_owned));
    }
    Ok(lemmas)
}

fn read_latin1(path: &Path) -> Result<String, PrepareError> {
    let bytes = std::fs::read(path).map_err(|e| PrepareError::file(path, e))?;
    Ok(bytes.into_iter().map(char::from).collect())
}

/// (lemma, offset) -> sense number, from an index file: a lemma's synsets are the
/// last `synset_cnt` fields of its line, most frequent sense first.
fn sense_numbers(index: &str) -> HashMap<(String, u64), u32> {
    let mut senses = HashMap::new();
    for line in index.lines().filter(|l| !l.starts_with("  ")) {
        let fields: Vec<&str> = line.split(' ').filter(|f| !f.is_empty()).collect();
        let Some(count) = fields.get(2).and_then(|c| c.parse::<usize>().ok()) else { continue };
        let offsets = fields.len().saturating_sub(count)..fields.len();
        let (Some(lemma), Some(synsets)) = (fields.first(), fields.get(offsets)) else { continue };
        for (n, field) in synsets.iter().enumerate() {
            if let (Ok(offset), Ok(sense)) = (field.parse::<u64>(), u32::try_from(n + 1)) {
                senses.insert(((*lemma).to_owned(), offset), sense);
            }
        }
    }
    senses
}

/// One line of a data file: `offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt
/// (symbol offset pos source/target)... [frames] | gloss`.
fn parse_data_line(line: &str) -> Option<Raw> {
    let (head, gloss) = line.split_once(" | ").unwrap_or((line, ""));
    let fields: Vec<&str> = head.split(' ').collect();
    let offset = fields.first()?.parse().ok()?;
    let words = usize::from_str_radix(fields.get(3)?, 16).ok()?;
    let lemma = (*fields.get(4)?).to_owned();
    let pointers_at = 4 + 2 * words;
    let pointers: usize = fields.get(pointers_at)?.parse().ok()?;
    let mut hypernyms = Vec::new();
    for p in 0..pointers {
        let at = pointers_at + 1 + 4 * p;
        let symbol = *fields.get(at)?;
        if symbol == "@" || symbol == "@i" {
            hypernyms.push((symbol == "@i", fields.get(at + 1)?.parse().ok()?));
        }
    }
    Some(Raw { offset, lemma, definition: definition_of(gloss), hypernyms })
}

/// The gloss without its quoted examples, trimmed of spaces and semicolons.
fn definition_of(gloss: &str) -> String {
    let mut out = String::with_capacity(gloss.len());
    let mut quoted = false;
    for c in gloss.chars() {
        if c == '"' {
            quoted = !quoted;
        } else if !quoted {
            out.push(c);
        }
    }
    out.trim().trim_matches(|c: char| c == ';' || c == ' ').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_line_gives_lemma_gloss_and_hypernyms() {
        let line = "00902424 29 v 01 beckon 0 003 @ 00740577 v 0000 + 06806469 n 0101 ~ 00902652 v 0000 01 + 08 00 | \
                    signal with the hands or nod; \"She beckoned her friends\"; \"x\"  ";
        let raw = parse_data_line(line).expect("a synset");
        assert_eq!(raw.offset, 902424);
        assert_eq!(raw.lemma, "beckon");
        assert_eq!(raw.definition, "signal with the hands or nod");
        assert_eq!(raw.hypernyms, vec![(false, 740577)]);
    }

    #[test]
    fn sense_numbers_follow_the_index_order() {
        let senses = sense_numbers("  licence line\nnod v 3 4 @ ~ * + 3 2 00901367 00902652 00036362  \n");
        assert_eq!(senses[&("nod".to_owned(), 902652)], 2);
        assert_eq!(senses[&("nod".to_owned(), 36362)], 3);
    }
}
