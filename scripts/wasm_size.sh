#!/usr/bin/env bash
# The size of the front end's wasm as a browser downloads it: raw, and compressed as
# the server sends it (gzip -9 stands for it; brotli is a little smaller). The goal
# for the release build is 400 KB compressed; with --check, exits 1 above it.
#   scripts/wasm_size.sh [--check] [wasm]
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
if [ "${1:-}" = --check ]; then check=true; shift; fi
wasm=${1:-target/site/pkg/gapwise.wasm}
goal_kb=400
[ -f "$wasm" ] || { echo "no $wasm: build first (scripts/run.sh)" >&2; exit 1; }
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "wasm: $((raw / 1024)) KB, $((gz / 1024)) KB gzipped (goal: $goal_kb KB gzipped)"
if $check && [ "$gz" -gt $((goal_kb * 1024)) ]; then
  echo "the wasm is over the goal" >&2
  exit 1
fi
