//! Item response theory against girth's joint maximum likelihood fits and its
//! maximum likelihood abilities, on committed answers with a third of the cells
//! missing (fixtures/stats/irt.json, made by fixtures/make_irt_reference.py).
//! Stated tolerance on each difficulty, discrimination and ability: 1e-4 for the
//! 1PL (measured: 8e-6) and 0.01 for the 2PL (measured: 0.004; girth's SLSQP stops
//! when no difficulty moved by 1e-3 in an iteration, this fit goes on to 1e-6);
//! and a rank correlation of at least 0.99 for difficulties and for abilities.

use std::path::Path;

use gapwise_research::stats::correlation::spearman;
use gapwise_research::stats::irt::{fit, Model};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    model: String,
    people: usize,
    items: usize,
    cells: Vec<(usize, usize, bool)>,
    difficulty: Vec<f64>,
    discrimination: Vec<f64>,
    ability: Vec<Option<f64>>,
}


#[test]
fn one_and_two_parameter_fits_match_girth() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/stats/irt.json");
    let reference: Reference = serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("fixture JSON");
    assert_eq!(reference.cases.len(), 2);
    for case in reference.cases {
        let model = if case.model == "1pl" { Model::OnePl } else { Model::TwoPl };
        let ours = fit(case.people, case.items, &case.cells, model);
        let tolerance = if model == Model::OnePl { 1e-4 } else { 0.01 };
        for (i, (b, theirs)) in ours.difficulty.iter().zip(&case.difficulty).enumerate() {
            assert!((b - theirs).abs() <= tolerance, "{} item {i}: difficulty {b}, girth {theirs}", case.model);
        }
        for (i, (a, theirs)) in ours.discrimination.iter().zip(&case.discrimination).enumerate() {
            assert!((a - theirs).abs() <= tolerance, "{} item {i}: discrimination {a}, girth {theirs}", case.model);
        }
        assert!(spearman(&ours.difficulty, &case.difficulty).0 >= 0.99, "{}: difficulty ranks", case.model);
        // abilities read off the fitted items, for those girth estimates
        let mut answers = vec![Vec::new(); case.people];
        for &(p, i, right) in &case.cells {
            answers[p].push((i, right));
        }
        let (mut mine, mut girths) = (Vec::new(), Vec::new());
        for (p, theirs) in case.ability.iter().enumerate() {
            let Some(theirs) = theirs else { continue };
            let theta = ours.ability(&answers[p]);
            assert!((theta - theirs).abs() <= tolerance, "{} respondent {p}: ability {theta}, girth {theirs}", case.model);
            mine.push(theta);
            girths.push(*theirs);
        }
        assert!(mine.len() > case.people * 9 / 10, "{}: girth estimated most abilities", case.model);
        assert!(spearman(&mine, &girths).0 >= 0.99, "{}: ability ranks", case.model);
    }
}
