#!/usr/bin/env bash
# Sets up what is missing, builds the app and serves it on the embedded default:
# a SQLite file (data/gapwise.db), created and loaded with demo data on first start.
# The default models are fetched too (SmolLM2 for English, Gemma 3 for the other
# languages), so `gapwise score` works without arguments, and
# WordNet's groups are loaded for the word-definition game.
#   scripts/run.sh [--dev] [serve options]
# The release build by default (an optimised server, the wasm shrunk by wasm-opt:
# what a player should download); --dev serves the debug build, quicker to build
# and rebuild, larger and slower to load.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
if [ "${1:-}" = --dev ]; then profile=debug; shift; fi
source scripts/env.sh
scripts/setup.sh run
# the default models: SmolLM2 (English), Gemma 3 270M (es, fr, it, ru, for their
# demo's model data), and English word frequencies for the word-definition analyses
# (frequency strata); fetched while the build runs
{ scripts/fetch_model.sh >/dev/null && scripts/fetch_model.sh gemma3 >/dev/null &&
  scripts/fetch_model.sh wordfreq-en >/dev/null; } &
models=$!
echo "[run] building the site (scripts/build.sh)"
if [ "$profile" = release ]; then
  scripts/build.sh --release
  scripts/wasm_size.sh
else
  scripts/build.sh
fi
wait "$models" || { echo "could not fetch the default models" >&2; exit 1; }
exec "$CARGO_TARGET_DIR/$profile/gapwise" serve "$@"
