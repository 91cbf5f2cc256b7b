//! How many answers it takes to learn the items' difficulties, by how items are
//! served: a simulation with players of known ability. Two policies: the game's own
//! (the item with the fewest answers, ties at random) and an adaptive one (once
//! every item has a few answers, the item with the most information at the
//! player's current ability estimate, p(1 - p) under the 1PL, among items not yet
//! at the cap of answers). Both never repeat an
//! item for a player. After every ten players, the 1PL is fitted to every answer so far
//! ([`super::irt`]) and the error of the difficulties measured against the truth.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::irt::{fit, theta_for, Model};

/// How items are served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    FewestAnswers,
    MostInformation,
}

/// What a simulation is asked to do.
#[derive(Clone, Copy, Debug)]
pub struct Simulation {
    pub items: usize,
    pub players: usize,
    /// Items each player answers.
    pub per_player: usize,
    /// Most answers an item takes under the adaptive policy (redundancy kept apart
    /// from information: no item is answered by everyone).
    pub cap: usize,
    pub seed: u64,
}

/// Answers every item gets before the adaptive policy trusts its estimate.
const WARM_UP: usize = 10;

/// Players between two fits of the items (the adaptive policy uses the last fit).
const REFIT_EVERY: usize = 10;

/// The error of the difficulties after every [`REFIT_EVERY`] players: (answers so far, root mean
/// square error of the fitted difficulties against the true ones, both centred).
pub type Curve = Vec<(usize, f64)>;

/// Runs `policy` on simulated players: abilities N(0, 1), difficulties U(-2, 2),
/// the same draws for every policy with the same seed.
pub fn simulate(how: Simulation, policy: Policy) -> Curve {
    let mut rng = StdRng::seed_from_u64(how.seed);
    let difficulty: Vec<f64> = (0..how.items).map(|_| rng.gen_range(-2.0..2.0)).collect();
    let ability: Vec<f64> = (0..how.players).map(|_| normal(&mut rng)).collect();
    let mut answers_to = vec![0usize; how.items];
    let mut cells = Vec::new();
    let mut estimate = vec![0.0; how.items];
    // the 1PL's discriminations, for reading a player's ability off the estimates
    let unit = vec![1.0; how.items];
    let mut curve = Vec::with_capacity(how.players);
    for (p, &theta) in ability.iter().enumerate() {
        let mut seen = vec![false; how.items];
        let mut mine: Vec<(usize, bool)> = Vec::new();
        for _ in 0..how.per_player.min(how.items) {
            // kept within +-3 while they have answered everything right or wrong
            let guess = if mine.is_empty() { 0.0 } else { theta_for(&mine, &unit, &estimate, 0.0, 3.0) };
            let mut open: Vec<usize> = (0..how.items).filter(|&i| !seen[i]).collect();
            open.shuffle(&mut rng);
            let pick = match policy {
                Policy::FewestAnswers => open.iter().copied().min_by_key(|&i| answers_to[i]),
                // an item with too few answers has no estimate to trust yet: served first
                Policy::MostInformation if open.iter().any(|&i| answers_to[i] < WARM_UP) => {
                    open.iter().copied().min_by_key(|&i| answers_to[i])
                }
                Policy::MostInformation => {
                    let information = |i: usize| {
                        let q = 1.0 / (1.0 + (-(guess - estimate[i])).exp());
                        q * (1.0 - q)
                    };
                    let under_cap: Vec<usize> = open.iter().copied().filter(|&i| answers_to[i] < how.cap).collect();
                    let pool = if under_cap.is_empty() { &open } else { &under_cap };
                    pool.iter().copied().max_by(|&a, &b| information(a).total_cmp(&information(b)))
                }
            };
            let Some(i) = pick else { break };
            let right = rng.gen_bool(1.0 / (1.0 + (-(theta - difficulty[i])).exp()));
            seen[i] = true;
            answers_to[i] += 1;
            mine.push((i, right));
            cells.push((p, i, right));
        }
        if (p + 1) % REFIT_EVERY == 0 || p + 1 == how.players {
            let fitted = fit(p + 1, how.items, &cells, Model::OnePl);
            // an item everyone got right (or wrong) sits at the fit's bound: taken as
        // "hard" or "easy" within the abilities' range, so that it is served again
        estimate = fitted.difficulty.iter().map(|b| b.clamp(-3.0, 3.0)).collect();
            curve.push((cells.len(), centred_rmse(&fitted.difficulty, &difficulty)));
        }
    }
    curve
}

/// Answers needed until the error first falls to `target` and stays there; None
/// when it never does.
pub fn answers_to_reach(curve: &Curve, target: f64) -> Option<usize> {
    let last_above = curve.iter().rposition(|&(_, e)| e > target);
    match last_above {
        None => curve.first().map(|&(n, _)| n),
        Some(i) => curve.get(i + 1).map(|&(n, _)| n),
    }
}

/// Root mean square error of `fitted` against `truth`, each centred on its mean
/// (the fit fixes the abilities' mean, not the difficulties').
fn centred_rmse(fitted: &[f64], truth: &[f64]) -> f64 {
    let n = fitted.len() as f64;
    let (mf, mt) = (super::mean(fitted), super::mean(truth));
    (fitted.iter().zip(truth).map(|(f, t)| ((f - mf) - (t - mt)).powi(2)).sum::<f64>() / n).sqrt()
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut StdRng) -> f64 {
    let (u, v): (f64, f64) = (rng.gen_range(f64::EPSILON..1.0), rng.gen_range(0.0..1.0));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_policies_learn_the_difficulties_and_the_counts_are_printed() {
        // the cap: one and a half times the answers an item gets on average
        let how = Simulation { items: 30, players: 200, per_player: 10, cap: 100, seed: 7 };
        let fewest = simulate(how, Policy::FewestAnswers);
        let informed = simulate(how, Policy::MostInformation);
        for (name, curve) in [("fewest answers", &fewest), ("most information", &informed)] {
            let (first, last) = (curve[0].1, curve[curve.len() - 1].1);
            assert!(last < first / 2.0 && last < 0.35, "{name}: error {first} after 10 players, {last} at the end");
        }
        for target in [0.5, 0.4, 0.3] {
            eprintln!(
                "target {target}: fewest answers {:?}, most information {:?}",
                answers_to_reach(&fewest, target),
                answers_to_reach(&informed, target)
            );
        }
    }
}
