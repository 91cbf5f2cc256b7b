#!/usr/bin/env bash
# Builds llama-cpp-python 0.3.36 from PyPI into the virtualenv whose pip is $1.
# Usage: scripts/llama_cpp_install.sh PIP [server] [avx512-if-present]
#   server             also its OpenAI-compatible server (the [server] extra)
#   avx512-if-present  AVX-512 where this CPU has it (benchmarks); by default off, so
#                      that a cached build runs on AVX2 and AVX-512 machines alike
# llama.cpp's native build crashes on AMX where the CPU reports it but it can't be used
# (see ../shared/ASSETS.md), so the instruction sets are named, GGML_NATIVE off.
# Its multimodal library (LLAVA_BUILD: clip and mtmd, loaded only for image chat
# formats) is left out: used by nothing here.
# Without "server" the package goes in without its dependencies (they would replace
# numpy in a virtualenv with torch); these are the ones it imports.
set -euo pipefail
pip=$1; shift
server=no avx512=OFF
for arg in "$@"; do
  case $arg in
    server) server=yes ;;
    avx512-if-present) grep -qw avx512f /proc/cpuinfo && avx512=ON ;;
    *) echo "unknown argument $arg" >&2; exit 2 ;;
  esac
done
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=$avx512 -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAVA_BUILD=OFF"
if [ "$server" = yes ]; then
  "$pip" install --quiet --no-cache-dir 'llama-cpp-python[server]==0.3.36'
else
  "$pip" install --quiet --no-cache-dir --force-reinstall --no-deps llama-cpp-python==0.3.36
  "$pip" install --quiet numpy diskcache jinja2 typing-extensions
fi
