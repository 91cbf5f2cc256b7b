#!/usr/bin/env bash
# Scorer throughput against the references, same items, same machine, same run:
#   causal: gapwise-scorer vs llama.cpp on the SmolLM2 and Gemma 3 GGUFs (log p of
#           both sentences);
#   masked: gapwise-scorer vs PyTorch transformers on a bert-base-sized random-weight
#           BERT (mask scoring of target and distractor).
# Items: the 50 WordNet items of scorer/fixtures/wordnet_sanity_items.tsv. Each side
# runs 3 times and its best is kept; prints contexts/s and the ratio ours / reference.
# Not part of the test suite. The first run builds a virtualenv with torch, transformers
# and llama-cpp-python (~3 GB, ~15 min); GAPWISE_BENCH_TORCH_PYTHON and
# GAPWISE_BENCH_LLAMA_PYTHON point at existing interpreters instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
venv=${GAPWISE_BENCH_VENV:-$HOME/.cache/gapwise/bench-venv}
torch_py=${GAPWISE_BENCH_TORCH_PYTHON:-$venv/bin/python}
llama_py=${GAPWISE_BENCH_LLAMA_PYTHON:-$venv/bin/python}
if [ ! -x "$torch_py" ] || [ ! -x "$llama_py" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet torch transformers safetensors
  scripts/llama_cpp_install.sh "$venv/bin/pip" avx512-if-present
  torch_py=$venv/bin/python llama_py=$venv/bin/python
fi
model=$(scripts/fetch_model.sh smollm2)
gemma=$(scripts/fetch_model.sh gemma3)
bert=$HOME/.cache/gapwise/bench/bert-base-random
items=scorer/fixtures/wordnet_sanity_items.tsv
reference=scorer/benches/reference_throughput.py
[ -f "$bert/config.json" ] || "$torch_py" "$reference" make-bert "$bert"
cargo build --release --quiet -p gapwise-scorer --example throughput
ours="$CARGO_TARGET_DIR/release/examples/throughput"

best() { # best contexts/s of 3 runs of "$@"; the JSON line of the best run goes to stderr
  for _ in 1 2 3; do "$@"; done | python3 -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
top = max(runs, key=lambda r: r["contexts_per_s"])
print(json.dumps(top), file=sys.stderr)
print(top["contexts_per_s"])'
}
ratio() { python3 -c "import sys; print(f'{sys.argv[1]}: {float(sys.argv[2]):.2f} vs {float(sys.argv[3]):.2f} contexts/s, ratio {float(sys.argv[2]) / float(sys.argv[3]):.2f}')" "$@"; }

echo "== causal: SmolLM2-135M Q4_1, 50 items (100 sentences)"
a=$(best "$ours" "$model" "$items")
b=$(best "$llama_py" "$reference" llama "$model" "$items")
causal=$(ratio "SmolLM2: gapwise-scorer vs llama.cpp" "$a" "$b")
echo "== causal: Gemma 3 270M Q4_K_M, 50 items (100 sentences)"
a=$(best "$ours" "$gemma" "$items")
b=$(best "$llama_py" "$reference" llama "$gemma" "$items")
causal_gemma=$(ratio "Gemma 3: gapwise-scorer vs llama.cpp" "$a" "$b")
echo "== masked: bert-base-sized random BERT, mask scoring, 50 items"
c=$(best "$ours" "$bert" "$items" mask)
d=$(best "$torch_py" "$reference" bert "$bert" "$items")
masked=$(ratio "gapwise-scorer vs PyTorch" "$c" "$d")
echo "$causal"
echo "$causal_gemma"
echo "$masked"
