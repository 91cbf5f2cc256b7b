#!/usr/bin/env bash
# Sets up what is missing, builds the app and serves it on the embedded default:
# a SQLite file (data/gapwise.db), created and loaded with demo data on first start.
# The default model is fetched too, so `gapwise score` works without arguments, and
# WordNet's groups are loaded for the word-definition game.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh run
scripts/fetch_model.sh >/dev/null
# English word frequencies for the word-definition analyses (frequency strata)
scripts/fetch_model.sh wordfreq-en >/dev/null
source scripts/env.sh
cargo leptos build
exec "$CARGO_TARGET_DIR/debug/gapwise" serve "$@"
