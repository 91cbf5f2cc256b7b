//! Fits the 1PL and the 2PL to answers given as JSON (`{"players", "items", "cells":
//! [[respondent, item, right], ...]}`) and prints the seconds each fit took, best of
//! `runs`: the Rust side of scripts/bench_irt.sh.
//!
//! Usage: irt_fit ANSWERS.json [RUNS]

use std::time::Instant;

use gapwise_stats::irt::{fit, Model};

#[derive(serde::Deserialize)]
struct Answers {
    players: usize,
    items: usize,
    cells: Vec<(usize, usize, bool)>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: irt_fit ANSWERS.json [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(3), |r| r.parse())?;
    let Answers { players, items, cells } = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    for (name, model) in [("1pl", Model::OnePl), ("2pl", Model::TwoPl)] {
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let started = Instant::now();
            let fitted = fit(players, items, &cells, model);
            best = best.min(started.elapsed().as_secs_f64());
            assert!(fitted.converged, "{name} did not converge");
        }
        println!("{name} {best:.4}");
    }
    Ok(())
}
