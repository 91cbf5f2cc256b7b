#!/usr/bin/env bash
# IRT fit time against girth 0.8's marginal maximum likelihood, same answers, same
# machine, same run: game-shaped answer sets of 10,000 and 100,000 answers
# (stats/benches/reference_irt.py makes them and times girth's onepl_mml and
# twopl_mml; stats/examples/irt_fit.rs times gapwise_stats::irt). Prints seconds and
# the ratio girth / ours (above 1: ours is faster); girth gets at most
# GAPWISE_BENCH_IRT_LIMIT seconds a size (default 1800), past which its time reads as
# that limit and the ratio as a lower bound. Not part of the test suite; the first run
# makes a virtualenv with girth (GAPWISE_BENCH_IRT_PYTHON names another).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
venv=${GAPWISE_BENCH_IRT_VENV:-$HOME/.cache/gapwise/bench-irt-venv}
py=${GAPWISE_BENCH_IRT_PYTHON:-$venv/bin/python}
if [ ! -x "$py" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet girth==0.8.0
  py=$venv/bin/python
fi
cargo build --quiet --release -p gapwise-stats --example irt_fit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
limit=${GAPWISE_BENCH_IRT_LIMIT:-1800}
printf '%-8s %-5s %10s %10s %8s\n' answers model girth_s ours_s ratio
for n in 10000 100000; do
  "$py" stats/benches/reference_irt.py "$n" 7 "$work/answers.json" 0 >"$work/girth.txt"
  "$CARGO_TARGET_DIR/release/examples/irt_fit" "$work/answers.json" 1 >"$work/ours.txt"
  for model in 1pl 2pl; do
    # girth: one run, within the limit
    if timeout "$limit" "$py" stats/benches/reference_irt.py "$n" 7 "$work/again.json" 1 "$model" >"$work/girth.txt"; then
      g=$(awk -v m=$model '$1 == m {print $2}' "$work/girth.txt"); over=""
    else
      g=$limit; over=">"
    fi
    o=$(awk -v m=$model '$1 == m {print $2}' "$work/ours.txt")
    printf '%-8s %-5s %9s%s %10.3f %7s%.1f\n' "$n" "$model" "$over" "$g" "$o" "$over" "$(echo "$g / $o" | bc -l)"
  done
done
