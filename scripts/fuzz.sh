#!/usr/bin/env bash
# Fuzzes the parsers of outside input with cargo-fuzz (libFuzzer, nightly Rust), each
# target for a bounded time: word-pair and sentence imports, corpus files, and the
# answer form. Usage: scripts/fuzz.sh [seconds per target, default 60]
# A crash stops the run, leaving the input under fuzz/artifacts/<target>/: fix the
# parser and keep the input as a regression test beside the parser's unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# the fuzz build (instrumented, nightly) is kept apart from the project's
export CARGO_TARGET_DIR=$HOME/.cache/gapwise/fuzz-target
for target in import_rows corpus_lines answer_form; do
  corpus=$HOME/.cache/gapwise/fuzz-corpus/$target
  mkdir -p "$corpus"
  echo "== $target for $seconds s"
  log=$(mktemp)
  if ! cargo +nightly fuzz run --fuzz-dir fuzz "$target" "$corpus" "fuzz/seeds/$target" -- \
      -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "$target: a crash, kept under fuzz/artifacts/$target/"
    exit 1
  fi
  grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
  rm -f "$log"
done
echo "no crashes"
