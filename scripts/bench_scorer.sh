#!/usr/bin/env bash
# Scorer throughput against the references, same items, same machine, same run:
#   causal: gapwise-scorer vs llama.cpp on the SmolLM2 and Gemma 3 GGUFs (log p of
#           both sentences);
#   masked: gapwise-scorer vs PyTorch transformers on a bert-base-sized random-weight
#           BERT with a 30,522-piece WordPiece vocabulary (mask scoring of target and
#           distractor), against PyTorch running every sentence's masked sequence and
#           against PyTorch sharing a sequence between two words as gapwise does.
# Items: the 50 WordNet items of scorer/fixtures/wordnet_sanity_items.tsv, then 239
# demo contexts in all five languages (scorer/fixtures/demo_bench_items.tsv). Each side
# runs 3 times and its best is kept; prints contexts/s, the ratio ours / reference, and
# the share of contexts whose two sentences shared work in gapwise-scorer.
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
bert=$HOME/.cache/gapwise/bench/bert-base-random-wordpiece
reference=scorer/benches/reference_throughput.py
[ -f "$bert/tokenizer.json" ] || "$torch_py" "$reference" make-bert "$bert"
cargo build --release --quiet -p gapwise-scorer --example throughput
ours="$CARGO_TARGET_DIR/release/examples/throughput"

best() { # best run of 3 of "$@": prints its contexts/s and share of contexts shared; its JSON line goes to stderr
  for _ in 1 2 3; do "$@"; done | python3 -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin if l.startswith("{")]
top = max(runs, key=lambda r: r["contexts_per_s"])
print(json.dumps(top), file=sys.stderr)
shared, n = top.get("contexts_shared"), top["contexts"]
print(top["contexts_per_s"], "n/a" if shared is None else f"{shared}/{n}")'
}
ratio() { python3 -c "import sys; print(f'{sys.argv[1]}: {float(sys.argv[2]):.2f} vs {float(sys.argv[4]):.2f} contexts/s, ratio {float(sys.argv[2]) / float(sys.argv[4]):.2f} (contexts shared: {sys.argv[3]})')" "$@"; }

summary=()
for items in scorer/fixtures/wordnet_sanity_items.tsv scorer/fixtures/demo_bench_items.tsv; do
  n=$(($(wc -l < "$items") - 1))
  echo "== $items: $n items"
  echo "-- causal: SmolLM2-135M Q4_1"
  read -r a shared < <(best "$ours" "$model" "$items")
  read -r b _ < <(best "$llama_py" "$reference" llama "$model" "$items")
  summary+=("$(ratio "$items SmolLM2: gapwise-scorer vs llama.cpp" "$a" "$shared" "$b")")
  echo "-- causal: Gemma 3 270M Q4_K_M"
  read -r a shared < <(best "$ours" "$gemma" "$items")
  read -r b _ < <(best "$llama_py" "$reference" llama "$gemma" "$items")
  summary+=("$(ratio "$items Gemma 3: gapwise-scorer vs llama.cpp" "$a" "$shared" "$b")")
  echo "-- masked: bert-base-sized random BERT, mask scoring"
  read -r c shared < <(best "$ours" "$bert" "$items" mask)
  read -r d _ < <(best "$torch_py" "$reference" bert "$bert" "$items" each)
  read -r e _ < <(best "$torch_py" "$reference" bert "$bert" "$items" shared)
  summary+=("$(ratio "$items BERT: gapwise-scorer vs PyTorch, each sentence" "$c" "$shared" "$d")")
  summary+=("$(ratio "$items BERT: gapwise-scorer vs PyTorch, shared as ours" "$c" "$shared" "$e")")
done
printf '%s\n' "${summary[@]}"
echo "== pairs whose two words have as many pieces (one masked sequence for both)"
cargo build --release --quiet -p gapwise-scorer --example piece_counts
"$CARGO_TARGET_DIR/release/examples/piece_counts" "$bert" "$model" "$gemma"
