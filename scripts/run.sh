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
scripts/setup.sh run
scripts/fetch_model.sh >/dev/null
# the other languages' default model (Gemma 3 270M: es, fr, it, ru), for their demo's model data
scripts/fetch_model.sh gemma3 >/dev/null
# English word frequencies for the word-definition analyses (frequency strata)
scripts/fetch_model.sh wordfreq-en >/dev/null
source scripts/env.sh
if [ "$profile" = release ]; then
  PATH="$HOME/.cache/gapwise/binaryen/node_modules/.bin:$PATH" cargo leptos build --release
  scripts/wasm_size.sh
else
  cargo leptos build
fi
exec "$CARGO_TARGET_DIR/$profile/gapwise" serve "$@"
