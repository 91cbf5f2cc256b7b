//! Fits the 1PL and the 2PL to answers given as JSON (`{"players", "items", "cells":
//! [[respondent, item, right], ...]}`) and prints the seconds each fit took, best of
//! `runs`: the Rust side of scripts/bench_irt.sh.
//!
//! Usage: irt_fit ANSWERS.json [RUNS]

use std::time::Instant;

use gapwise_stats::irt::{fit, Model};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: irt_fit ANSWERS.json [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(3), |r| r.parse())?;
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let players = data["players"].as_u64().ok_or("players")? as usize;
    let items = data["items"].as_u64().ok_or("items")? as usize;
    let cells: Vec<(usize, usize, bool)> = serde_json::from_value(data["cells"].clone())?;
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
