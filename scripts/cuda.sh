#!/usr/bin/env bash
# Builds Gapwise with its scorer on CUDA (the `cuda` feature) on a machine with no
# GPU and no CUDA toolkit: CUDA 13.0's compiler, headers and libraries come from
# NVIDIA's PyPI wheels, unpacked once into ~/.cache/gapwise/cuda-13.0.
#
#   scripts/cuda.sh build [cargo args]   cargo build --release --features cuda (the gapwise binary)
#   scripts/cuda.sh check                cargo check --features cuda (what the test command runs)
#   scripts/cuda.sh env                  the exports, for `eval "$(scripts/cuda.sh env)"`
#
# The kernels are compiled for compute capability $CUDA_COMPUTE_CAP (default 80:
# Ampere; newer GPUs run them through the driver's PTX compiler). The binary links
# the driver's libcuda.so.1 and CUDA 13's cuBLAS, cuRAND, NVRTC and runtime
# libraries: at run time they come from the machine's CUDA 13 install or its
# PyTorch (docs/src/models/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

root="${GAPWISE_CUDA_DIR:-$GAPWISE_CACHE/cuda-13.0}"
cuda="$root/nvidia/cu13"
wheels=(nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-runtime==13.0.96
  nvidia-cuda-cccl==13.0.85 nvidia-cuda-nvrtc==13.0.88 nvidia-cublas==13.0.2.14 nvidia-curand==10.4.5.25)

install() {
  [ -x "$cuda/bin/nvcc" ] && [ -e "$cuda/lib64/libcuda.so" ] && return
  # only a folder this script made (or none) is emptied
  if [ -e "$root" ] && [ ! -e "$root/.gapwise-cuda" ]; then
    echo "cuda.sh: $root exists and was not made by this script: set GAPWISE_CUDA_DIR to a new folder" >&2
    exit 1
  fi
  echo "cuda.sh: fetching CUDA 13.0 from PyPI into $root (about 700 MB)" >&2
  rm -rf "$root" && mkdir -p "$root/wheels" && touch "$root/.gapwise-cuda"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_12_x86_64 --platform manylinux2010_x86_64 -d "$root/wheels" "${wheels[@]}"
  for w in "$root"/wheels/*.whl; do python3 -m zipfile -e "$w" "$root"; done
  rm -rf "$root/wheels"
  chmod +x "$cuda"/bin/* "$cuda"/nvvm/bin/*
  # The linker wants unversioned names. The driver's libcuda.so.1 is never in a
  # wheel: a stub that defines the driver API's functions (as the toolkit's own
  # lib64/stubs/libcuda.so does) lets the binary link; the real one is loaded at run time.
  mkdir -p "$cuda/lib64"
  for lib in "$cuda"/lib/lib*.so.*; do
    name="$(basename "$lib")"
    ln -sf "$lib" "$cuda/lib64/${name%%.so.*}.so"
  done
  # (every cuXxx name in cuda.h: the functions and the _v2/_ptsz names its macros pick)
  grep -ohE '\bcu[A-Z][A-Za-z0-9_]*' "$cuda/include/cuda.h" | sort -u | sed 's/.*/void &(void) {}/' >"$root/libcuda_stub.c"
  gcc -shared -fPIC -o "$cuda/lib64/libcuda.so" -Wl,-soname,libcuda.so.1 "$root/libcuda_stub.c"
}

exports() {
  echo "export CUDA_HOME='$cuda' PATH='$cuda/bin':\"\$PATH\" CUDA_COMPUTE_CAP='${CUDA_COMPUTE_CAP:-80}'" \
    "LIBRARY_PATH='$cuda/lib64'\${LIBRARY_PATH:+:\$LIBRARY_PATH} NVCC_CCBIN='${NVCC_CCBIN:-gcc}'"
}

install
eval "$(exports)"
case "${1:-build}" in
  env) exports ;;
  check) cargo check -p gapwise-server --features cuda --bins "${@:2}" ;;
  build) cargo build --release -p gapwise-server --bin gapwise --features cuda "${@:2}" ;;
  *) echo "usage: scripts/cuda.sh build|check|env" >&2; exit 2 ;;
esac
