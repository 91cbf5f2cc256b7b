#!/usr/bin/env bash
# The scorer on an NVIDIA GPU: equal to the CPU path, and its speed against PyTorch on
# the same GPU. Runs on a machine with the GPU, its driver, CUDA 13's libraries (a CUDA
# 13 toolkit, or PyTorch's nvidia-* packages) and PyTorch with transformers; it needs no
# Rust and no network. Prepare the binaries here first:
#
#   scripts/gpu_check.sh build          # into .gpu/ (git ignores it): gpu_check, throughput
#
# then, on the GPU machine, from a checkout with .gpu/ beside it:
#
#   scripts/gpu_check.sh run [ITEMS]    # ITEMS: contexts for the speed test (default 4000)
#
# It prints, per fixture stand-in, CUDA f32 and bf16 against the CPU and a context
# scored alone against in a batch (gpu_check's JSON lines), then contexts/s of
# gapwise-scorer and of PyTorch transformers on a random-weight model of Llama 2 7B's
# shape in bf16, and their ratio. $OUT, when set, gets the log.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.gpu

if [ "${1:-run}" = build ]; then
  source scripts/env.sh
  eval "$(scripts/cuda.sh env)"
  cargo build --release -p gapwise-scorer --features cuda --example gpu_check --example throughput
  mkdir -p "$bin"
  # xz: both travel in about 15 MB (a device call carries at most 64 MB)
  for b in gpu_check throughput; do
    strip -o "$bin/$b" "$CARGO_TARGET_DIR/release/examples/$b"
    xz -T2 -6 -f "$bin/$b"
  done
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo /.gpu/ >>.git/info/exclude
  ls -la "$bin"
  exit
fi

items=${2:-4000}
work=${GPU_CHECK_WORK:-/tmp/gapwise-gpu}
log=${OUT:-$work}/gpu_check.log
mkdir -p "$work/bin" "$(dirname "$log")"
exec > >(tee "$log") 2>&1
for b in gpu_check throughput; do
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$bin/$b.xz" "$work/bin/$b"
  chmod +x "$work/bin/$b"
done
bin="$work/bin"

# CUDA 13's libraries: a toolkit's, else those of PyTorch's wheels
libs=$(find /usr/local /opt /usr/lib -xdev \( -name 'libcublas.so.13' -o -name 'libcurand.so.10' -o -name 'libnvrtc.so.13' \
  -o -name 'libcudart.so.13' \) -printf '%h\n' 2>/dev/null | sort -u | paste -sd: || true)
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c 'import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__)'
if ldd "$bin/gpu_check" | grep 'not found'; then
  echo "gpu_check.sh: libraries missing (searched $libs); on this machine:" >&2
  find / -xdev \( -name 'libcublas.so*' -o -name 'libnvrtc.so*' -o -name 'libcuda.so*' \) 2>/dev/null | head -20 >&2
  exit 1
fi

echo "== CUDA against the CPU, on the fixture stand-ins"
python3 - "$work/standins" <<'EOF'
# each stand-in as the Hub ships it: its folder plus the files it shares with another
import json, shutil, sys
from pathlib import Path
out = Path(sys.argv[1]); shutil.rmtree(out, ignore_errors=True); out.mkdir(parents=True)
for root in (Path("scorer/fixtures/families"), Path("scorer/fixtures/mlm")):
    shared = json.loads((root / "reference.json").read_text()).get("shared", {})
    for d in sorted(p for p in root.iterdir() if (p / "config.json").is_file()):
        dst = out / d.name
        shutil.copytree(d, dst)
        for f in shared.get(d.name, {}).get("files", []):
            shutil.copy(root / shared[d.name]["from"] / f, dst / f)
    for g in root.glob("*.gguf"):
        shutil.copy(g, out / g.name)
shutil.copytree("scorer/fixtures/hf_llama", out / "hf_llama")
EOF
equal=0
"$bin/gpu_check" cuda scorer/fixtures/wordnet_sanity_items.tsv "$work"/standins/* || equal=$?

echo "== speed: a random-weight model of Llama 2 7B's shape, bf16, $items contexts"
model="$work/llama-7b-shape"
[ -f "$model/config.json" ] || python3 scorer/benches/gpu_reference.py make-llama "$model"
python3 scorer/benches/gpu_reference.py items scorer/fixtures/wordnet_sanity_items.tsv "$work/items.tsv" "$items"
ours=$("$bin/throughput" "$model" "$work/items.tsv" mask cuda auto | tail -1)
echo "$ours"
theirs=$(python3 scorer/benches/gpu_reference.py causal "$model" "$work/items.tsv" | tail -1)
echo "$theirs"
python3 - "$ours" "$theirs" <<'EOF'
import json, sys
a, b = (json.loads(x) for x in sys.argv[1:3])
print(f"gapwise-scorer {a['contexts_per_s']:.1f} vs PyTorch {b['contexts_per_s']:.1f} contexts/s on {b['gpu']}: "
      f"ratio {a['contexts_per_s'] / b['contexts_per_s']:.2f}; target preferred {a['target_preferred']} vs {b['target_preferred']}")
EOF
exit "$equal"
