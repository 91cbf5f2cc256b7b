#!/usr/bin/env bash
# The scorer on a CPU without AVX-512. Its vector code picks AVX-512 or AVX2 at run
# time (multiversion in ops/, gemm under candle), so a machine with AVX-512 never runs
# the AVX2 paths. This runs the scorer's unit tests and the integration tests of every
# model family against their references (PyTorch, lm-evaluation-harness, minicons,
# batch invariance, the shared masked pass) in qemu-user as an Intel Haswell CPU: AVX2
# and FMA, no AVX-512 (checked below, not assumed). It checks numbers, not speed: the
# emulator runs 15-20 times slower than the machine. The tests of the real GGUF models
# are left out for that reason; they run on the same matrix code as the tiny models.
# Needs qemu-user (scripts/setup.sh test installs it). Prints the test runner's
# summary; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
command -v qemu-x86_64 >/dev/null || { echo "qemu-x86_64 is missing: install Debian's qemu-user (scripts/setup.sh test)"; exit 1; }
cpu=Haswell
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# what the emulated CPU says it has, asked the way the scorer's code asks
rustc -O -o "$work/features" - <<'EOF'
fn main() {
    let has = |f: bool| if f { "yes" } else { "no" };
    println!(
        "avx2 {} fma {} avx512f {}",
        has(is_x86_feature_detected!("avx2")),
        has(is_x86_feature_detected!("fma")),
        has(is_x86_feature_detected!("avx512f"))
    );
}
EOF
features=$(qemu-x86_64 -cpu "$cpu" "$work/features" 2> >(grep -v '^qemu-x86_64: warning' >&2)) \
  || { echo "qemu-x86_64 could not run a program as $cpu"; exit 1; }
echo "the emulated $cpu CPU: $features"
[ "$features" = "avx2 yes fma yes avx512f no" ] || { echo "the emulated CPU is not AVX2-only"; exit 1; }

# the scorer's test programs, as the workspace's test build makes them (the test
# command has built them already; a build of the scorer alone would settle its
# dependencies' features otherwise and build it again)
cargo test --workspace --no-run --message-format=json-render-diagnostics >"$work/build.json" \
  || { echo "the test build failed"; exit 1; }
mapfile -t programs < <(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if (m.get("reason") == "compiler-artifact" and m.get("executable") and m["manifest_path"].endswith("/scorer/Cargo.toml")
            and m["target"]["name"] in ("gapwise_scorer", "it")):
        print(m["target"]["name"], m["executable"])' "$work/build.json")
[ "${#programs[@]}" = 2 ] || { echo "expected the scorer's unit and integration test programs, found: ${programs[*]}"; exit 1; }

export CARGO_MANIFEST_DIR=$PWD/scorer
cd scorer
status=0
for entry in "${programs[@]}"; do
  read -r name program <<<"$entry"
  if [ "$name" = it ]; then
    filters=(masked_reference family_reference conventions baseline_reference causal_reference::hf_llama
      causal_reference::unsupported batch_invariance::masked batch_invariance::hugging_face shared_passes::masked)
  else
    filters=()
  fi
  echo "== $name (as $cpu)"
  # one test at a time: rayon's threads spin slowly under the emulator
  # (the emulator warns once a thread of the CPU features it leaves out, none of them
  # vector ones)
  qemu-x86_64 -cpu "$cpu" "$program" --test-threads=1 "${filters[@]}" 2>&1 \
    | sed -E "/^qemu-x86_64: warning/d; s/qemu-x86_64: warning: TCG doesn't support requested feature: [^]]*\]//g" || status=1
done
exit $status
