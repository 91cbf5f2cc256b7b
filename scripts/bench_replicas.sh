#!/usr/bin/env bash
# Replicas on PostgreSQL (release builds): 1, 2 and 3 Gapwise servers behind nginx
# (scripts/cluster.sh) on one PostgreSQL, the same simulated players (the game
# page's requests) against each, and the answers/s of 2 and 3 replicas as ratios to
# one, measured in this run. The CPUs are split with taskset so that the
# comparison is about the app:
# - with 8 CPUs or more, each replica has CPUs of its own (a, the CPUs / 8: 2 of
#   16), so that a second replica brings CPUs as a second machine would; nginx has
#   one, the load tool 1.5 a, PostgreSQL the rest (16 CPUs: PostgreSQL 0-5,
#   replicas 6-7, 8-9 and 10-11, nginx 12, the load tool 13-15);
# - with fewer, PostgreSQL has CPU 0, and the replicas and nginx share the others
#   (on 2 CPUs, replicas share one CPU: a second one cannot add capacity there),
#   and the load tool is not pinned.
# The three clusters are up at once and take turns, each
# playing `slices` slices of the run's seconds, so that a host whose speed drifts
# meets all three alike (see the load tool's `take_turns`). Exits non-zero when an
# audit fails.
# Usage: scripts/bench_replicas.sh [annotators] [seconds] [slices]
set -euo pipefail
cd "$(dirname "$0")/.."
annotators=${1:-32}
seconds=${2:-15}
slices=${3:-5}
command -v nginx >/dev/null || apt-get install -y -q nginx-light >/dev/null
source scripts/env.sh
cargo build --release -p gapwise-server --bin gapwise -p gapwise-load --bin gapwise-load
bin=$CARGO_TARGET_DIR/release
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { echo "needs at least 2 CPUs (PostgreSQL on one, the app on the others)" >&2; exit 1; }
if [ "$cpus" -ge 8 ]; then
  each=$((cpus / 8))
  load_n=$(((3 * each + 1) / 2))
  first=$((cpus - 3 * each - 1 - load_n))
  pg_cpus="0-$((first - 1))"
  sets=()
  for i in 0 1 2; do sets+=("$((first + i * each))-$((first + (i + 1) * each - 1))"); done
  replica_cpus=$(IFS=/; echo "${sets[*]}")
  nginx_cpus=$((first + 3 * each))
  load_cpus="$((nginx_cpus + 1))-$((cpus - 1))"
  load_pin=(taskset -c "$load_cpus")
else
  pg_cpus=0
  replica_cpus="1-$((cpus - 1))"
  nginx_cpus=$replica_cpus
  load_cpus=any
  load_pin=()
fi

work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  for c in "$work"/cluster-*; do [ -d "$c" ] && scripts/cluster.sh down "$c"; done
  scripts/postgres.sh stop "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pg_admin=$(scripts/postgres.sh start "$work/pg" "$(free_port)")
taskset -a -c -p "$pg_cpus" "$(head -n 1 "$work/pg/postmaster.pid")" >/dev/null
echo "== $cpus CPUs: PostgreSQL on $pg_cpus, the replicas on $replica_cpus (/ between replicas), nginx on $nginx_cpus, the load tool on $load_cpus"
status=0
declare -A base url
for n in 1 2 3; do
  # a database of its own for each cluster, so that each starts from the demo data
  psql -q "$pg_admin" -c "CREATE DATABASE gapwise_$n" >/dev/null
  url[$n]=${pg_admin%/postgres}/gapwise_$n
  mkdir -p "$work/cluster-$n"
  base[$n]=$(GAPWISE_BIN="$bin/gapwise" scripts/cluster.sh up "$work/cluster-$n" "${url[$n]}" "$n" "$replica_cpus" "$nginx_cpus")
done
slice=$(awk -v s="$seconds" -v n="$slices" 'BEGIN { print s / n }')
# each slice's replica count, answers and seconds, a line each
for turn in $(seq "$slices"); do
  for n in 1 2 3; do
    echo "== turn $turn: $n replica(s) behind nginx"
    out=$("${load_pin[@]}" "$bin/gapwise-load" --annotators "$annotators" --seconds "$slice" --answers-per-item 1000000 --url "${base[$n]}" --database-url "${url[$n]}") || status=1
    echo "$out" | grep -E '^gapwise'
    echo "$out" | sed -n "s/^gapwise: \([0-9]*\) answers in \([0-9.]*\) s.*/$n \1 \2/p" >>"$work/slices"
  done
done
awk '{ answers[$1] += $2; seconds[$1] += $3 }
  END {
    for (n = 1; n <= 3; n++) {
      rate[n] = answers[n] / seconds[n]
      printf "%d replica(s): %d answers in %.1f s = %.0f answers/s\n", n, answers[n], seconds[n], rate[n]
    }
    printf "ratio of answers/s to one replica: 2 replicas %.2f, 3 replicas %.2f\n", rate[2] / rate[1], rate[3] / rate[1]
  }' "$work/slices"
exit "$status"
