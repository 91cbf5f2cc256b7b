#!/usr/bin/env bash
# The size of the front end's wasm as a browser downloads it: raw, and compressed as
# the server sends it (gzip -9 stands for it; brotli is a little smaller). The goal
# for the release build is 400 KB compressed.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm=${1:-target/site/pkg/gapwise.wasm}
[ -f "$wasm" ] || { echo "no $wasm: build first (scripts/run.sh)" >&2; exit 1; }
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "wasm: $((raw / 1024)) KB, $((gz / 1024)) KB gzipped (goal: 400 KB gzipped)"
