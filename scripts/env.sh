# Sourced by the run and test scripts: where builds go, and the environment
# cargo-leptos compiles with. Plain cargo gets the same LEPTOS_* variables and
# RUSTFLAGS so that `cargo test` and `cargo leptos build` share one build (and the
# server always knows its bundle's name, which is baked in at compile time).
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/gapwise/target}"
export LEPTOS_OUTPUT_NAME=gapwise LEPTOS_SITE_ROOT=target/site LEPTOS_SITE_PKG_DIR=pkg \
  LEPTOS_SITE_ADDR="${LEPTOS_SITE_ADDR:-127.0.0.1:3000}" LEPTOS_RELOAD_PORT=3001 LEPTOS_LIB_DIR=app \
  LEPTOS_BIN_DIR=server LEPTOS_JS_MINIFY=false LEPTOS_HASH_FILES=false
export RUSTFLAGS="--cfg erase_components"
# No incremental caches: they grew the shared build folder by ~10 GB and each build
# here is a fresh one anyway.
export CARGO_INCREMENTAL=0
