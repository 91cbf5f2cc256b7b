#!/usr/bin/env bash
# Builds Gapwise's container image `localhost/gapwise:latest` (deploy/Containerfile)
# from the release build (scripts/build.sh --release), or with --debug from the
# debug build the test command makes. Uses podman where it is installed, else docker.
# Prints the image's size.
#   scripts/image.sh [--debug]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
engine=${CONTAINER_ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}
profile=release
if [ "${1:-}" = --debug ]; then
  profile=debug
  [ -x "$CARGO_TARGET_DIR/debug/gapwise" ] || scripts/build.sh
else
  scripts/setup.sh run
  scripts/build.sh --release
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp deploy/Containerfile "$context/"
cp "$CARGO_TARGET_DIR/$profile/gapwise" "$context/gapwise"
strip "$context/gapwise"
cp -r target/site "$context/site"
# podman writes OCI images unless told otherwise, and OCI has no HEALTHCHECK
format=(); [ "$engine" = podman ] && format=(--format docker)
$engine build --quiet "${format[@]}" --network host -t localhost/gapwise:latest -f "$context/Containerfile" "$context" >/dev/null
$engine image inspect localhost/gapwise:latest --format '{{.Size}}' | awk -v p="$profile" '{printf "localhost/gapwise:latest (%s build): %.0f MB\n", p, $1 / 1e6}'
