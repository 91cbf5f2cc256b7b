#!/usr/bin/env bash
# Load and audit benchmark (release builds): simulated annotators play for a bounded
# time (gapwise-load), then every acknowledged answer is looked up in the database.
#   1. SQLite, one server, with the same players against a bare axum+sqlx insert
#      endpoint in the same run for the ratio: first the requests the game page
#      makes, then serve-and-answer rounds only (--lean: one request a round,
#      `answer-next` returning the next item);
#   2. PostgreSQL (a throwaway cluster), one server, against a bare endpoint on the
#      same cluster for the ratio, the game page's requests and --lean;
#   3. 1, 2 and 3 replicas on PostgreSQL behind nginx (scripts/bench_replicas.sh).
# Gapwise and its bare endpoint (and the replica counts) take turns in slices of the
# run, so that a host whose speed drifts meets both alike.
# Exits non-zero when an audit fails. Usage: scripts/bench_load.sh [annotators] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
annotators=${1:-32}
seconds=${2:-20}
scripts/setup.sh test
command -v nginx >/dev/null || apt-get install -y -q nginx-light >/dev/null
source scripts/env.sh
cargo build --release -p gapwise-server --bin gapwise -p gapwise-load --bin gapwise-load
bin=$CARGO_TARGET_DIR/release

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  # the servers' pids, written by serve (which runs in a subshell of its caller)
  [ -f "$work/servers.pid" ] && xargs -r kill <"$work/servers.pid" 2>/dev/null
  scripts/postgres.sh stop "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts `gapwise serve` on a free port against $1 (loading the demo data into an
# empty database) and prints the port once it is ready.
serve() {
  local port
  port=$(free_port)
  DATABASE_URL=$1 GAPWISE_TRUSTED_PROXIES=127.0.0.1 RUST_LOG=warn "$bin/gapwise" serve --no-demo-models --addr "127.0.0.1:$port" >>"$work/servers.log" 2>&1 &
  echo $! >>"$work/servers.pid"
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && { echo "$port"; return; }
    sleep 0.5
  done
  echo "the server on $1 did not become ready" >&2
  cat "$work/servers.log" >&2
  exit 1
}

load() { "$bin/gapwise-load" --annotators "$annotators" --seconds "$seconds" --answers-per-item 1000000 "$@"; }
status=0

echo "== SQLite (WAL), one server"
sqlite_url="sqlite://$work/gapwise.db"
port=$(serve "$sqlite_url")
load --url "http://127.0.0.1:$port" --database-url "$sqlite_url" --bare || status=1
echo "== SQLite (WAL), one server on a new database, serve and answer only (one request a round)"
lean_url="sqlite://$work/lean.db"
port=$(serve "$lean_url")
load --url "http://127.0.0.1:$port" --database-url "$lean_url" --bare --lean || status=1

echo "== PostgreSQL, one server"
pg_admin=$(scripts/postgres.sh start "$work/pg" "$(free_port)")
# creates the empty database $1 and prints its URL: one for each Gapwise server and
# each bare endpoint run
new_pg_database() { psql -q "$pg_admin" -c "CREATE DATABASE $1" >/dev/null; echo "${pg_admin%/postgres}/$1"; }
pg_url=$(new_pg_database gapwise_bench)
port=$(serve "$pg_url")
load --url "http://127.0.0.1:$port" --database-url "$pg_url" --bare --bare-database-url "$(new_pg_database bare_page)" || status=1
echo "== PostgreSQL, one server on a new database, serve and answer only (one request a round)"
lean_pg_url=$(new_pg_database gapwise_lean)
port=$(serve "$lean_pg_url")
load --url "http://127.0.0.1:$port" --database-url "$lean_pg_url" --bare --bare-database-url "$(new_pg_database bare_lean)" --lean || status=1

# replicas: 1, 2 and 3 behind nginx, PostgreSQL on a CPU of its own
scripts/bench_replicas.sh "$annotators" "$seconds" || status=1

exit "$status"
