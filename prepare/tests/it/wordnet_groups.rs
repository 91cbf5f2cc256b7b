//! Synset groups from the real WordNet 3.0 files (Debian's `wordnet-base`, which
//! scripts/setup.sh installs; GAPWISE_WORDNET names another folder), checked against
//! the paper's Tables 1, 2 and 9 (001_bf5d15b61b58df06.txt).

// Test code, helpers included: a failed expectation is a failed test (clippy.toml
// allows these in #[test] functions only).
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::path::PathBuf;

use gapwise_model::Pos;
use gapwise_prepare::wordnet::WordNet;

fn wordnet() -> WordNet {
    let dir = std::env::var_os("GAPWISE_WORDNET").map_or_else(|| PathBuf::from("/usr/share/wordnet"), PathBuf::from);
    WordNet::read(&dir).unwrap_or_else(|e| panic!("WordNet 3.0 is needed (apt install wordnet-base): {e}"))
}

fn names(wn: &WordNet, members: &[usize]) -> Vec<String> {
    members.iter().map(|&i| wn.synsets[i].name.clone()).collect()
}

#[test]
fn groups_of_the_papers_examples() {
    let wn = wordnet();
    let beckon = wn.find("beckon.v.01").expect("beckon.v.01");
    assert_eq!(wn.synsets[beckon].definition, "signal with the hands or nod");
    let group = names(&wn, &wn.group(beckon));
    // Table 9
    for sister in ["beckon.v.01", "applaud.v.01", "bow.v.01", "shrug.v.01", "exsert.v.01", "wink.v.01", "nod.v.01"] {
        assert!(group.contains(&sister.to_owned()), "{sister} missing from G(beckon.v.01) = {group:?}");
    }
    let wink = wn.find("wink.v.01").expect("wink.v.01");
    assert_eq!(wn.synsets[wink].definition, "signal by winking");

    let singing = wn.find("a_cappella_singing.n.01").expect("a_cappella_singing.n.01");
    assert_eq!(wn.synsets[singing].word, "a cappella singing");
    let group = names(&wn, &wn.group(singing));
    // Table 1
    for sister in ["caroling.n.01", "bel_canto.n.01", "crooning.n.01", "singalong.n.01"] {
        assert!(group.contains(&sister.to_owned()), "{sister} missing from G(a_cappella_singing.n.01) = {group:?}");
    }
    let bel_canto = wn.find("bel_canto.n.01").expect("bel_canto.n.01");
    assert_eq!(wn.synsets[bel_canto].definition, "a style of operatic singing");
    assert_eq!(wn.synsets[bel_canto].word, "bel canto");
}

#[test]
fn depths_are_shortest_paths_to_the_root() {
    let wn = wordnet();
    let depths = wn.depths();
    let depth = |name: &str| depths[wn.find(name).unwrap_or_else(|| panic!("{name}"))];
    assert_eq!(depth("entity.n.01"), 0);
    assert_eq!(depth("physical_entity.n.01"), 1);
    // dog -> domestic_animal -> animal -> organism -> living_thing -> whole -> object -> physical_entity -> entity
    assert_eq!(depth("dog.n.01"), 8);
    // an instance reaches the tree through its instance hypernym
    assert!(depth("paris.n.01") > 0);
}

/// Table 2: 51,260 noun and 8,487 verb groups; on average 50.2 and 47.7 candidates,
/// 5 to 404 and 5 to 593.
#[test]
fn group_counts_match_table_2() {
    let wn = wordnet();
    for (pos, paper_groups, paper_mean, paper_max) in [(Pos::Noun, 51_260.0, 50.2, 404), (Pos::Verb, 8_487.0, 47.7, 593)] {
        let sizes: Vec<usize> = wn.groups().filter(|(t, _)| wn.synsets[*t].pos == pos).map(|(_, g)| g.len()).collect();
        let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
        let (min, max) = (sizes.iter().min().copied().unwrap_or(0), sizes.iter().max().copied().unwrap_or(0));
        println!("{pos:?}: {} groups (Table 2: {paper_groups}), mean {mean:.1} candidates, {min} to {max}", sizes.len());
        assert!((sizes.len() as f64 / paper_groups - 1.0).abs() < 0.02, "{pos:?}: {} groups", sizes.len());
        assert!((mean - paper_mean).abs() < 0.05, "{pos:?}: mean {mean}");
        assert_eq!((min, max), (5, paper_max));
    }
}
