#!/usr/bin/env bash
# The whole test suite: unit and integration tests on SQLite and on a throwaway
# PostgreSQL, the import-loop check, the check of the manual's crate map, clippy,
# the CUDA build, the scorer's tests on an emulated AVX2-only CPU, cargo deny, then
# browser tests in Debian's Chromium against the site's build,
# then the deployment of more than one server (scripts/cluster.sh) played and audited
# (stopped by cleanup), and the container deployment (scripts/container_test.sh),
# then the size of the release build's wasm (scripts/wasm_size.sh --check).
# Exits non-zero on any failure; ends with the minutes of each step and one summary
# line.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
work=$(mktemp -d)
chmod 755 "$work"

# Each step's minutes, printed at the end (scripts/first_start_cold.sh reads them).
steps=() step_name="" step_start=$(date +%s)
step() {
  local now; now=$(date +%s)
  [ -n "$step_name" ] && steps+=("$(awk -v s=$((now - step_start)) -v n="$step_name" 'BEGIN {printf "%6.1f min  %s", s / 60, n}')")
  step_name=$1 step_start=$now
  [ -n "$1" ] && echo "== $1"
}

step "set-up: what is missing (scripts/setup.sh test)"
scripts/setup.sh test || { echo "setup failed"; exit 1; }
# llama-cpp-python's server (compiled once) builds beside the project's test build
scripts/setup.sh llama-server >"$work/llama-server.log" 2>&1 &
llama_server=$!
GAPWISE_SMOLLM2_GGUF=$(scripts/fetch_model.sh smollm2) && GAPWISE_GEMMA3_GGUF=$(scripts/fetch_model.sh gemma3) \
  || { echo "could not fetch the default models"; exit 1; }
export GAPWISE_SMOLLM2_GGUF GAPWISE_GEMMA3_GGUF
export GAPWISE_TEST_PYTHON=$GAPWISE_CACHE/test-python/bin/python
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cleanup() {
  # a half-installed llama-cpp-python would be taken as installed next time
  wait "$llama_server" 2>/dev/null
  if [ -d "$work/cluster" ]; then scripts/cluster.sh down "$work/cluster"; fi
  scripts/postgres.sh stop "$work/pg"; rm -rf "$work"
}
trap cleanup EXIT

GAPWISE_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$work/pg" "$(free_port)") || { echo "PostgreSQL did not start"; exit 1; }
export GAPWISE_TEST_POSTGRES_URL

passed=0; failed=0; status=0
# what failed, named at the end: the steps, and the tests cargo names
failures=()
fail() { failed=$((failed + 1)); status=1; failures+=("$step_name"); }
step "cargo test: the build"
cargo test --workspace --no-run || fail
step "cargo test: the set-up's llama-cpp-python server, if still building"
if ! wait "$llama_server"; then
  echo "llama-cpp-python's server could not be built:"; tail -n 30 "$work/llama-server.log"; fail
fi
step "cargo test (SQLite and PostgreSQL)"
cargo test --workspace --no-fail-fast 2>&1 | tee "$work/cargo.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
read -r p f < <(awk '/^test result:/ {for (i=1;i<=NF;i++) {if ($(i+1) ~ /^passed/) p+=$i; if ($(i+1) ~ /^failed/) f+=$i}} END {print p+0, f+0}' "$work/cargo.log")
passed=$((passed + p)); failed=$((failed + f))
while read -r name; do failures+=("cargo test: $name"); done < <(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$work/cargo.log")

step "cargo fmt --check (rustfmt.toml)"
if cargo fmt --all --check; then passed=$((passed + 1)); else fail; fi

step "the manual: mdbook build docs, and every link of it and of the README resolves"
if mdbook build docs && python3 scripts/check_doc_links.py; then passed=$((passed + 1)); else fail; fi

step "the scripts' own tests: the demo corpora's cleaning rules, the crate map check (python3 -m unittest, scripts/tests)"
if python3 -m unittest discover -s scripts/tests; then passed=$((passed + 1)); else fail; fi

step "import loops between the files of each crate (scripts/check_cycles.py)"
if python3 scripts/check_cycles.py; then passed=$((passed + 1)); else fail; fi

step "the crate map of docs/src/architecture.md against Cargo's dependencies (scripts/check_architecture.py)"
if python3 scripts/check_architecture.py; then passed=$((passed + 1)); else fail; fi

step "cargo clippy: no unwrap, expect, panic or unchecked indexing outside tests, no warnings"
if cargo clippy --workspace --all-targets --quiet -- -D warnings; then passed=$((passed + 1)); else fail; fi

step "the scorer on CUDA compiles (scripts/cuda.sh check: CUDA 13 from PyPI, no GPU needed)"
if scripts/cuda.sh check --quiet; then passed=$((passed + 1)); else fail; fi

step "the scorer's tests on an AVX2-only CPU (scripts/avx2_check.sh: qemu-user as Haswell)"
if scripts/avx2_check.sh; then passed=$((passed + 1)); else fail; fi

step "cargo deny (licences, banned crates, sources, advisories)"
# The RustSec database comes from GitHub: refreshed when it answers, else the copy in
# $GAPWISE_CACHE/advisory-dbs is used; with neither, advisories are not checked (said below).
deny_checks="licenses bans sources"
if git ls-remote --exit-code https://github.com/RustSec/advisory-db HEAD >/dev/null 2>&1; then
  deny_online=(); deny_checks+=" advisories"
elif ls -d "$GAPWISE_CACHE"/advisory-dbs/advisory-db-* >/dev/null 2>&1; then
  deny_online=(--offline); deny_checks+=" advisories"
else
  deny_online=(--offline)
  echo "NOT CHECKED: advisories (the RustSec database is neither reachable nor cached)"
fi
# cargo deny reads the metadata of every platform's crates: fetch those the build skipped
cargo fetch --locked --quiet || echo "cargo fetch failed: the crates.io index or its downloads are out of reach"
# shellcheck disable=SC2086
if cargo deny "${deny_online[@]}" check $deny_checks; then passed=$((passed + 1)); else fail; fi

step "the site's debug build (scripts/build.sh)"
if scripts/build.sh; then
  step "browser tests (Playwright, Chromium)"
  rm -f end2end/test-results/results.json
  (cd end2end && GAPWISE_BIN="$CARGO_TARGET_DIR/debug/gapwise" GAPWISE_E2E_DB="$work/e2e.db" \
     GAPWISE_E2E_PORT=$(free_port) LEPTOS_SITE_ROOT="$PWD/../target/site" npx playwright test) || status=1
  results=end2end/test-results/results.json
  if [ -f "$results" ]; then
    read -r p f < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; print(s["expected"], s["unexpected"]+s["flaky"])' "$results")
    passed=$((passed + p)); failed=$((failed + f))
    [ "$f" -gt 0 ] && failures+=("browser tests: $f (end2end/test-results)")
  else
    fail
  fi
else
  echo "scripts/build.sh failed"; fail
fi

step "the deployment of more than one server (scripts/cluster.sh): PostgreSQL, 2 replicas and nginx, played and audited"
mkdir -p "$work/cluster" && chmod 755 "$work/cluster"
if base=$(GAPWISE_BIN="$CARGO_TARGET_DIR/debug/gapwise" scripts/cluster.sh up "$work/cluster" local 2) &&
   "$CARGO_TARGET_DIR/debug/gapwise-load" --annotators 8 --seconds 3 --url "$base" --database-url "$(cat "$work/cluster/database_url")"; then
  passed=$((passed + 1))
else
  echo "the cluster's run failed; its logs:"; tail -n 20 "$work"/cluster/*.log
  fail
fi

step "the container deployment (scripts/container_test.sh): the image, compose on SQLite, and on PostgreSQL with 2 replicas, a replica killed and PostgreSQL restarted, audited"
if scripts/container_test.sh; then passed=$((passed + 1)); else fail; fi

step "the front end's size: the release build's wasm within 400 KB gzipped (scripts/wasm_size.sh)"
if scripts/build.sh --release --front-only &&
   scripts/wasm_size.sh --check; then
  passed=$((passed + 1))
else
  fail
fi

step ""
echo "== minutes by step"
printf '%s\n' "${steps[@]}"
[ "$failed" -gt 0 ] && status=1
[ "${#failures[@]}" -gt 0 ] && { echo "== what failed"; printf '  %s\n' "${failures[@]}"; }
echo "$passed passed, $failed failed"
exit "$status"
