#!/usr/bin/env bash
# Export throughput and memory: a SQLite database with the demo items and N synthetic
# answers (2,200 players x the 455 English items ~ 1,000,000 by default), exported as CSV, JSON
# Lines and Parquet by the release build; prints rows/s and peak RSS for each, and the
# same at a tenth of the answers, so that flat memory shows as equal peaks.
# Not part of the test suite. Usage: scripts/bench_export.sh [PLAYERS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
players=${1:-2200}
cargo build --release --quiet -p gapwise-server
bin="$CARGO_TARGET_DIR/release/gapwise"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_db() { # players -> database with the demo data and players x items answers
  local db="$work/bench-$1.db"
  DATABASE_URL="sqlite://$db" timeout 20 "$bin" serve --no-demo-models --addr 127.0.0.1:0 >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 100); do [ -s "$db" ] && sqlite3 "$db" 'SELECT COUNT(*) FROM items' 2>/dev/null | grep -qv '^0$' && break; sleep 0.2; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  sqlite3 "$db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
INSERT INTO annotators (id, pseudonym, consent_version, created_at) SELECT 'bench-' || i, 'bench' || i, 'v', 0 FROM n;
INSERT INTO servings (id, annotator_id, item_id, k, target_first, served_at)
  SELECT a.id || '/' || i.id, a.id, i.id, i.k, 1, 0 FROM annotators a CROSS JOIN items i
  JOIN word_pairs p ON p.id = i.pair_id AND p.lang = 'en' WHERE a.id LIKE 'bench-%';
INSERT INTO answers (id, annotator_id, item_id, k, chosen, correct, client_ms, server_ms, option_order, created_at)
  SELECT s.id, s.annotator_id, s.item_id, s.k, p.target, abs(random()) % 2, 1000 + abs(random()) % 9000,
         2000 + abs(random()) % 9000, p.target || '|' || p.distractor, 0
  FROM servings s JOIN items i ON i.id = s.item_id JOIN word_pairs p ON p.id = i.pair_id WHERE s.annotator_id LIKE 'bench-%';
SQL
  echo "$db"
}

measure() { # database format -> one line: rows, seconds, rows/s, peak RSS
  python3 - "$bin" "$1" "$2" "$work/out-$2" <<'PY'
import os, resource, subprocess, sys, time
binary, db, fmt, out = sys.argv[1:]
env = dict(os.environ, DATABASE_URL=f"sqlite://{db}")
t = time.perf_counter()
res = subprocess.run([binary, "export", "--format", fmt, "--out", out], env=env, capture_output=True, text=True, check=True)
seconds = time.perf_counter() - t
rows = int(res.stdout.strip().rsplit(" ", 2)[-2])
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
size = os.path.getsize(os.path.join(out, f"answers.{fmt}")) / 2**20
print(f"{fmt:8} {rows:>9} answers  {seconds:6.1f} s  {rows / seconds:>9.0f} rows/s  peak RSS {rss:6.0f} MiB  file {size:6.0f} MiB")
PY
}

for n in $((players / 10)) "$players"; do
  db=$(make_db "$n")
  echo "== $(sqlite3 "$db" 'SELECT COUNT(*) FROM answers') answers"
  for f in csv jsonl parquet; do measure "$db" "$f"; done
  rm -f "$db"
done
