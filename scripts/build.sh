#!/usr/bin/env bash
# Builds the site as `cargo leptos build` does for this project, with nothing but
# cargo, wasm-bindgen and (release) wasm-opt, so that no build tool has to be compiled
# before the first page (docs/src/decisions.md, "The build without cargo-leptos"):
#   - the server: gapwise-server's `gapwise` binary (the app with `ssr`);
#   - the front end: gapwise-app's library for wasm32 with `hydrate` (the
#     `wasm-release` profile in release), bound by `wasm-bindgen --target web` into
#     target/site/pkg/gapwise.js and gapwise.wasm, shrunk by `wasm-opt -Oz` in release;
#   - style/main.css as target/site/pkg/gapwise.css, and assets/ into target/site.
# The two cargo builds run side by side (their locks differ: the host's and wasm32's),
# and beside them the first build compiles wasm-bindgen-cli (scripts/setup.sh).
#   scripts/build.sh [--release] [--front-only | --server-only] [--timings]
# cargo-leptos still serves for `cargo leptos watch` while developing (not installed
# by the scripts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
release=false front=true server=true timings=()
for arg in "$@"; do
  case $arg in
    --release) release=true ;;
    --front-only) server=false ;;
    --server-only) front=false ;;
    --timings) timings=(--timings) ;;
    *) echo "build.sh: unknown argument $arg (--release, --front-only, --server-only, --timings)" >&2; exit 2 ;;
  esac
done

site=$LEPTOS_SITE_ROOT pkg=$LEPTOS_SITE_ROOT/$LEPTOS_SITE_PKG_DIR name=$LEPTOS_OUTPUT_NAME

build_front() {
  local profile=debug profile_args=()
  if $release; then profile=wasm-release profile_args=(--profile wasm-release); fi
  cargo build --package gapwise-app --lib --target wasm32-unknown-unknown --no-default-features \
    --features hydrate "${profile_args[@]}" "${timings[@]}" &
  local wasm=$!
  # wasm-bindgen-cli, compiled once, beside the builds that do not need it yet
  scripts/setup.sh wasm-bindgen || { wait "$wasm"; return 1; }
  wait "$wasm" || return 1
  mkdir -p "$pkg"
  wasm-bindgen --target web --out-name "$name" --out-dir "$pkg" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$profile/gapwise_app.wasm"
  # leptos's hydration script loads `<name>.wasm`
  mv "$pkg/${name}_bg.wasm" "$pkg/$name.wasm"
  if $release; then
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int "$pkg/$name.wasm" -o "$pkg/$name.wasm"
  fi
  cp style/main.css "$pkg/$name.css"
  cp -R assets/. "$site/"
}

build_server() {
  local profile_args=()
  if $release; then profile_args=(--release); fi
  cargo build --package gapwise-server --bin gapwise --no-default-features "${profile_args[@]}" "${timings[@]}"
}

pids=()
if $front; then build_front & pids+=($!); fi
if $server; then build_server & pids+=($!); fi
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
