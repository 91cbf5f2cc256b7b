//! How many answers it takes to learn the items' difficulties, by how items are
//! served: a simulation with players of known ability. Two policies: the game's own
//! (the item with the fewest answers, ties at random) and an adaptive one (once
//! every item has a few answers, the item with the most information at the
//! player's current ability estimate, p(1 - p) under the 1PL, among items not yet
//! at the cap of answers). Both never repeat an item for a player. After every ten
//! players, the 1PL is fitted to every answer so far ([`super::irt`]) and the error
//! of the difficulties measured against the truth. The adaptive rule, the
//! estimates it reads and the player's ability are the functions the game's
//! engine serves a study's items with ([`most_informative`], [`difficulties`],
//! [`ability`]).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::irt::{eap_1pl, fit, Model, NoEstimate};

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
    let abilities: Vec<f64> = (0..how.players).map(|_| normal(&mut rng)).collect();
    let mut answers_to = vec![0usize; how.items];
    let mut cells = Vec::new();
    let mut estimate = vec![0.0; how.items];
    let mut curve = Vec::with_capacity(how.players);
    for (p, &theta) in abilities.iter().enumerate() {
        let mut seen = vec![false; how.items];
        // the player's answers as (estimated difficulty, right)
        let mut mine: Vec<(f64, bool)> = Vec::new();
        for _ in 0..how.per_player.min(how.items) {
            let mut open: Vec<usize> = (0..how.items).filter(|&i| !seen[i]).collect();
            open.shuffle(&mut rng);
            let pick = match policy {
                Policy::FewestAnswers => open.iter().copied().min_by_key(|&i| answers_to[i]),
                Policy::MostInformation => {
                    let seen_as: Vec<Open> = open.iter().map(|&i| Open { answers: answers_to[i], difficulty: estimate[i] }).collect();
                    most_informative(&seen_as, ability(&mine), how.cap).and_then(|at| open.get(at).copied())
                }
            };
            let Some(i) = pick else { break };
            let right = rng.gen_bool(1.0 / (1.0 + (-(theta - difficulty[i])).exp()));
            seen[i] = true;
            answers_to[i] += 1;
            mine.push((estimate[i], right));
            cells.push((p, i, right));
        }
        if (p + 1) % REFIT_EVERY == 0 || p + 1 == how.players {
            estimate = difficulties(p + 1, how.items, &cells);
            curve.push((cells.len(), centred_rmse(&estimate, &difficulty)));
        }
    }
    curve
}

/// An item a player may be served next, as the adaptive rule sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Open {
    /// Answers it has (or holders, counting live reservations).
    pub answers: usize,
    /// Its estimated difficulty ([`difficulties`]; 0 before it has answers).
    pub difficulty: f64,
}

/// The position in `open` of the item to serve a player of `ability`: while any
/// item has fewer than [`WARM_UP`] answers, the least answered (its estimate is
/// not to be trusted yet); then the item with the most information at `ability`
/// under the 1PL, p(1 - p), among those under `cap` answers (all, when none is).
/// Ties go to the last: give `open` in random order.
pub fn most_informative(open: &[Open], ability: f64, cap: usize) -> Option<usize> {
    let positions = 0..open.len();
    let answers = |at: &usize| open.get(*at).map_or(usize::MAX, |o| o.answers);
    if open.iter().any(|o| o.answers < WARM_UP) {
        return positions.min_by_key(answers);
    }
    let information = |at: &usize| {
        let b = open.get(*at).map_or(0.0, |o| o.difficulty);
        let p = 1.0 / (1.0 + (-(ability - b)).exp());
        p * (1.0 - p)
    };
    let under_cap: Vec<usize> = positions.clone().filter(|at| answers(at) < cap).collect();
    let pool = if under_cap.is_empty() { positions.collect() } else { under_cap };
    pool.into_iter().max_by(|x, y| information(x).total_cmp(&information(y)))
}

/// A player's ability under the 1PL from their answers as (estimated difficulty,
/// right): the EAP (0 before any answer; shrunk towards 0 while they are few).
pub fn ability(answers: &[(f64, bool)]) -> f64 {
    eap_1pl(answers).eap
}

/// The items' difficulties from `cells` (respondent, item, right) under the 1PL
/// (marginal maximum likelihood), as the adaptive rule reads them: within
/// +-[`BOUND`]; an item everyone got right (or wrong) has no estimate, and is taken
/// as "easy" (or "hard") at the edge of the abilities' range instead, so that it is
/// served again; one without an estimate for another reason (no answers, fewer than
/// [`crate::irt::MIN_ANSWERS`]) at 0.
pub fn difficulties(respondents: usize, items: usize, cells: &[(usize, usize, bool)]) -> Vec<f64> {
    fit(respondents, items, cells, Model::OnePl)
        .items
        .iter()
        .map(|item| match item {
            Ok(item) => item.difficulty.clamp(-BOUND, BOUND),
            Err(NoEstimate::AllRight) => -BOUND,
            Err(NoEstimate::AllWrong) => BOUND,
            Err(_) => 0.0,
        })
        .collect()
}

/// The estimates' range.
const BOUND: f64 = 3.0;

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
    fn the_rule_warms_up_then_serves_the_item_nearest_the_ability_under_the_cap() {
        let item = |answers, difficulty| Open { answers, difficulty };
        let open = [item(12, -2.0), item(3, 2.0), item(15, 0.4)];
        assert_eq!(most_informative(&open, 0.0, 100), Some(1), "an item with few answers first");
        let warm = [item(12, -2.0), item(30, 2.0), item(15, 0.4)];
        assert_eq!(most_informative(&warm, 0.0, 100), Some(2));
        assert_eq!(most_informative(&warm, 2.5, 100), Some(1));
        assert_eq!(most_informative(&warm, 2.5, 20), Some(2), "the item at the cap waits");
        assert_eq!(most_informative(&[], 0.0, 100), None);
        assert!(ability(&[]).abs() < 1e-9);
        assert!(ability(&[(0.0, true), (1.0, true)]) > 0.0 && ability(&[(0.0, false)]) < 0.0);
        let all_right = ability(&[(0.0, true); 5]);
        assert!(all_right > ability(&[(0.0, true); 2]) && all_right < 3.0, "all right: high, and finite ({all_right})");
    }

    #[test]
    fn both_policies_learn_the_difficulties_and_the_counts_are_printed() {
        // the cap: one and a half times the answers an item gets on average
        let how = Simulation { items: 30, players: 200, per_player: 10, cap: 100, seed: 7 };
        let fewest = simulate(how, Policy::FewestAnswers);
        let informed = simulate(how, Policy::MostInformation);
        for (name, curve) in [("fewest answers", &fewest), ("most information", &informed)] {
            let (first, last) = (curve[0].1, curve[curve.len() - 1].1);
            assert!(last < first / 2.0 && last < 0.4, "{name}: error {first} after 10 players, {last} at the end");
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
