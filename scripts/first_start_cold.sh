#!/usr/bin/env bash
# A newcomer's machine, timed: the README's two commands, each in a fresh clone of
# this repository's HEAD with an empty cache folder (GAPWISE_CACHE: tools, models,
# builds), as on a new machine of this kind where only Debian's packages, rustup's
# targets and the crates' downloads (~/.cargo/registry) may already be present.
# Prints the minutes of each phase:
#   run: the set-up's tools, the project's build, the first page (scripts/run.sh);
#   test: each step of scripts/test.sh (its own table), and the whole command.
#   scripts/first_start_cold.sh RUN_CACHE [TEST_CACHE]
# Both folders must be empty or absent; TEST_CACHE defaults to RUN_CACHE-test, and
# either may be `-` to leave that command out. The clones are removed at the end; the
# caches are kept (point TEST_CACHE at ~/.cache/gapwise, emptied, to leave the test
# command warm for later runs).
# The whole script is one function, read before it runs, so that editing this file
# during the hour it runs cannot change what it does.
main() {
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/first_start_cold.sh RUN_CACHE [TEST_CACHE]" >&2; exit 2; }
local run_cache test_cache dir
run_cache=$1 test_cache=${2:-$1-test}
[ "$run_cache" = - ] || run_cache=$(realpath -m "$run_cache")
[ "$test_cache" = - ] || test_cache=$(realpath -m "$test_cache")
for dir in "$run_cache" "$test_cache"; do
  if [ "$dir" != - ] && [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "first_start_cold.sh: $dir is not empty" >&2; exit 2
  fi
done
repo=$PWD
work=$(mktemp -d)
# the run's process group (its build, then its server), stopped at the first page
group() { cat "$work/run.pgid" 2>/dev/null; }
cleanup() { [ -s "$work/run.pgid" ] && kill -- -"$(group)" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
minutes() { awk -v s="$1" 'BEGIN {printf "%5.1f min", s / 60}'; }
# each line of a command's output with the seconds since $2 before it
stamp() { local since=$1; while IFS= read -r line; do printf '%s %s\n' "$(($(date +%s) - since))" "$line"; done; }
# the seconds at which the first line matching $2 was printed in stamped log $1
when() { awk -v re="$2" '$0 ~ re {print $1; exit}' "$1"; }

first_page=""
if [ "$run_cache" != - ]; then
echo "== run: scripts/run.sh in a fresh clone, cache $run_cache"
git clone --quiet "$repo" "$work/run"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start=$(date +%s)
setsid bash -c 'echo $$ >"$0/run.pgid"; cd "$0/run" && GAPWISE_CACHE="$1" CARGO_TARGET_DIR="$1/target" exec scripts/run.sh --addr "127.0.0.1:$2" 2>&1' \
  "$work" "$run_cache" "$port" | stamp "$start" >"$work/run.log" &
runner=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/"; do
  if ! kill -0 "$runner" 2>/dev/null; then echo "scripts/run.sh ended before the first page:"; tail -n 30 "$work/run.log"; exit 1; fi
  sleep 2
done
first_page=$(($(date +%s) - start))
kill -- -"$(group)"; rm "$work/run.pgid"; wait "$runner" 2>/dev/null || true
built=$(when "$work/run.log" "^[0-9]+ wasm: ")
tools=$(when "$work/run.log" "\\[run\\] building")
echo "run phases (minutes from the command's start to the phase's end):"
echo "  $(minutes "${tools:-0}")  set-up: Debian packages, wasm target, wasm-opt"
echo "  $(minutes "${built:-0}")  the project's release build (server and wasm side by side, wasm-bindgen-cli compiled beside them)"
echo "  $(minutes "$first_page")  the first page answered"
grep -E "wasm: " "$work/run.log" | cut -d' ' -f2- || true
fi
[ "$test_cache" != - ] || exit 0

echo "== test: scripts/test.sh (CI=true) in a fresh clone, cache $test_cache"
git clone --quiet "$repo" "$work/test"
start=$(date +%s)
set +e
(cd "$work/test" && CI=true GAPWISE_CACHE="$test_cache" CARGO_TARGET_DIR="$test_cache/target" scripts/test.sh) >"$work/test.log" 2>&1
test_status=$?
set -e
total=$(($(date +%s) - start))
sed -n '/^== minutes by step/,$p' "$work/test.log"
echo "test command: $(minutes "$total"), exit $test_status"
cp "$work/test.log" "$test_cache/first_start_cold-test.log"
echo "its log: $test_cache/first_start_cold-test.log"
[ -z "$first_page" ] || echo "first page $(minutes "$first_page")"
exit "$test_status"
}
main "$@"
