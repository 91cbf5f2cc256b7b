#!/usr/bin/env bash
# A first start timed as a newcomer meets it: the release build served on a new
# SQLite database with the default models (as scripts/run.sh does), watched by
# scripts/first_start_watch.py, which prints the minutes from the server's start to
# the first page and to each mode playable in each language. Exits non-zero if a mode
# is not playable within the minutes allowed (10 by default). With use-up minutes,
# one player then plays the mode with suggestions that long in every language in turn,
# and it exits non-zero if a language has no sentence left at the end.
#   scripts/first_start.sh [minutes [use-up minutes]]
set -euo pipefail
cd "$(dirname "$0")/.."
allowed=${1:-10}
use_up=${2:-0}
scripts/setup.sh run
scripts/fetch_model.sh smollm2 >/dev/null
scripts/fetch_model.sh gemma3 >/dev/null
source scripts/env.sh
cargo build --release -p gapwise-server --bin gapwise
work=$(mktemp -d)
cleanup() { [ -f "$work/pid" ] && kill "$(cat "$work/pid")" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
started=$(date +%s.%N)
DATABASE_URL="sqlite://$work/first.db" RUST_LOG=info "$CARGO_TARGET_DIR/release/gapwise" serve --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
echo $! >"$work/pid"
if ! python3 scripts/first_start_watch.py "http://127.0.0.1:$port" "$started" "$allowed" "$use_up"; then
  grep -E "WARN|ERROR|ready" "$work/server.log" | tail -n 20
  exit 1
fi
grep -E "model data is ready|WARN" "$work/server.log" | tail -n 5 || true
