#!/usr/bin/env bash
# Scoring through a model server against scoring here, same model file, same items,
# same machine, same run: llama-cpp-python's OpenAI-compatible server on SmolLM2's
# GGUF (the build scripts/setup.sh test makes: GGML_NATIVE off, no AVX-512) and
# `gapwise score` (release) on the same file, over the English items of the demo
# slice in server/fixtures/lm_eval. Prints items/s of each and the ratio
# remote / here. Not part of the test suite.
# Usage: scripts/bench_remote.sh [PARALLEL]   (requests at a time; default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
parallel=${1:-1}
threads=$(nproc)
python=${GAPWISE_TEST_PYTHON:-$HOME/.cache/gapwise/test-python/bin/python}
"$python" -c 'import llama_cpp.server' 2>/dev/null || { echo "no llama-cpp-python server in $python: run scripts/setup.sh test"; exit 1; }
model=$(scripts/fetch_model.sh smollm2)
cargo build --release --quiet -p gapwise-server
bin="$CARGO_TARGET_DIR/release/gapwise"
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$python" -m llama_cpp.server --model "$model" --model_alias smollm2 --host 127.0.0.1 --port "$port" \
  --n_ctx 1024 --logits_all true --n_threads "$threads" --verbose false >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null && break; sleep 0.2; done
cp server/fixtures/lm_eval/gapwise.db "$work/gapwise.db"
export DATABASE_URL="sqlite://$work/gapwise.db"

timed() { # model id, then gapwise's score arguments -> seconds
  local id=$1; shift
  local started ended
  started=$(date +%s.%N)
  "$bin" score --model-id "$id" --language en "$@" >/dev/null 2>&1
  ended=$(date +%s.%N)
  echo "$ended - $started" | bc -l
}
items() { sqlite3 "$work/gapwise.db" "SELECT COUNT(*) FROM item_scores WHERE model_id = '$1'"; }

here=$(timed here --model "$model" --start-token bos)
remote=$(timed remote --model "openai+http://127.0.0.1:$port/v1#smollm2" --start-text '<|im_start|>' --parallel "$parallel")
n_here=$(items here); n_remote=$(items remote)
[ "$n_here" = "$n_remote" ] || { echo "the two runs scored $n_here and $n_remote items"; exit 1; }
printf '%-32s %6s %9s %9s\n' scorer items seconds items/s
printf '%-32s %6d %9.2f %9.1f\n' "gapwise score (candle, $threads threads)" "$n_here" "$here" "$(echo "$n_here / $here" | bc -l)"
printf '%-32s %6d %9.2f %9.1f\n' "llama-cpp-python server ($parallel at a time)" "$n_remote" "$remote" "$(echo "$n_remote / $remote" | bc -l)"
printf 'ratio remote / here: %.2f\n' "$(echo "$here / $remote" | bc -l)"
