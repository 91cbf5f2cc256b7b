#!/usr/bin/env bash
# A round of each game mode timed as new players meet them (scripts/bench_rounds.py),
# on a release build over a new SQLite database with the demo and WordNet's groups,
# and a model's definition scores for SCORED groups (60 by default, as the demo's
# model preparation leaves; `all` for every group): the definition game's pick
# beside the main game's answer, same run.
#   [SCORED=60|all|0] scripts/bench_rounds.sh [players]
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-40}
scripts/setup.sh test
source scripts/env.sh
cargo build --release -p gapwise-server --bin gapwise
bin=$CARGO_TARGET_DIR/release/gapwise
work=$(mktemp -d)
cleanup() { [ -f "$work/pid" ] && kill "$(cat "$work/pid")" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
url="sqlite://$work/bench.db"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
serve() {
  DATABASE_URL=$url RUST_LOG=warn "$bin" serve --no-demo-models --addr "127.0.0.1:$port" >>"$work/server.log" 2>&1 &
  echo $! >"$work/pid"
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.5; done
  cat "$work/server.log" >&2; exit 1
}
serve
kill "$(cat "$work/pid")"; sleep 1
# a model's scores for every group's candidates (values do not matter to the timing)
python3 - "$work/bench.db" "${SCORED:-60}" <<'PY'
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT OR IGNORE INTO models (id, kind, source, created_at) VALUES ('bench', 'causal', 'bench', 0)")
groups = [r[0] for r in db.execute("SELECT target FROM define_groups")]
random.seed(1)
groups = groups if sys.argv[2] == "all" else random.sample(groups, int(sys.argv[2]))
rows = [("bench", task, g, g, random.random()) for g in groups for task in ("w2d", "d2w")]
db.executemany("INSERT OR IGNORE INTO define_scores (model_id, task, target, candidate, score) VALUES (?, ?, ?, ?, ?)", rows)
# as Define::save_scores does: each scored group's place in the shuffled order
db.execute("INSERT OR IGNORE INTO define_scored (task, target, draw) "
           "SELECT DISTINCT d.task, d.target, g.draw FROM define_scores d JOIN define_groups g ON g.target = d.target")
db.commit()
print(f"{len(groups)} groups, {len(rows)} scores")
PY
serve
python3 scripts/bench_rounds.py "http://127.0.0.1:$port" "$players"
