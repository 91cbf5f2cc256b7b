#!/usr/bin/env bash
# The container deployment, tested with podman: builds Gapwise's image (from the
# debug build, --release for the release one), brings deploy/compose.yaml up with 2
# replicas behind nginx on PostgreSQL, plays players through nginx with gapwise-load,
# kills one replica's container and restarts PostgreSQL's while they play, and passes
# only if the audit finds every acknowledged answer stored once. Brings the stack down
# (volumes too) whatever happens. Where no registry is reachable, the base images are
# built from Debian's packages under the names compose.yaml uses
# (deploy/standins/README.md).
#   scripts/container_test.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
cache=$GAPWISE_CACHE/containers
mkdir -p "$cache"
# runc: crun refuses these machines' hybrid cgroups; no default ulimits: the sandbox
# forbids raising them (../shared/ASSETS.md)
printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n[network]\nnetwork_backend = "netavark"\n' >"$cache/containers.conf"
export CONTAINERS_CONF=$cache/containers.conf

image_exists() { podman image exists "$1"; }
if ! image_exists docker.io/library/debian:bookworm-slim; then
  if [ ! -s "$cache/bookworm-minbase.tar" ]; then
    mirror=$( (grep -rhoE '^(URIs:|deb) +https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true) | awk '$2 ~ /\/debian\/?$/ {print $2}' | head -1)
    rootfs=$(mktemp -d)
    debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >"$cache/debootstrap.log"
    tar -C "$rootfs" -cf "$cache/bookworm-minbase.tar" .
    rm -rf "$rootfs"
  fi
  podman import --quiet "$cache/bookworm-minbase.tar" docker.io/library/debian:bookworm-slim >/dev/null
fi
for standin in postgres:15 nginx:1.27; do
  image_exists "docker.io/library/$standin" ||
    podman build --quiet --network host -t "docker.io/library/$standin" "deploy/standins/${standin%%:*}" >/dev/null
done
scripts/image.sh "$([ "${1:-}" = --release ] && echo --release || echo --debug)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export GAPWISE_PORT=$(free_port) GAPWISE_REPLICAS=2 POSTGRES_PASSWORD=test-only
project=gapwise-test-$$
pg_port=$(free_port)
# the test's own addition: PostgreSQL published on loopback, for the audit
override=$(mktemp --suffix=.yaml)
printf 'services:\n  postgres:\n    ports: ["127.0.0.1:%s:5432"]\n' "$pg_port" >"$override"
compose() { (cd deploy && podman-compose --project-name "$project" -f compose.yaml -f "$override" "$@"); }
single() { (cd deploy && podman-compose --project-name "$project-sqlite" -f compose.sqlite.yaml "$@"); }
load=""
down() {
  if [ -n "$load" ]; then kill "$load" 2>/dev/null || true; fi
  compose down --volumes >/dev/null 2>&1 || true
  single down --volumes >/dev/null 2>&1 || true
  podman volume rm -f "${project}_pgdata" "$project-sqlite_data" >/dev/null 2>&1 || true
  # podman-compose 1.0.3 leaves the networks behind
  podman network rm -f "${project}_default" "$project-sqlite_default" >/dev/null 2>&1 || true
  rm -f "$override"
}
trap down EXIT
# Waits up to 5 minutes for $1/readyz to answer 200.
ready() {
  for _ in $(seq 300); do
    curl -sf "$1/readyz" >/dev/null && return 0
    sleep 1
  done
  echo "$1 did not become ready"; podman ps -a; return 1
}
load() { "$CARGO_TARGET_DIR/debug/gapwise-load" "$@"; }

echo "== one container on SQLite (deploy/compose.sqlite.yaml)"
single up -d >"$cache/compose-up.log" 2>&1 || { cat "$cache/compose-up.log"; exit 1; }
ready "http://127.0.0.1:$GAPWISE_PORT" || { single logs | tail -30; exit 1; }
data=$(podman volume inspect "$project-sqlite_data" --format '{{.Mountpoint}}')
load --annotators 4 --seconds 5 --url "http://127.0.0.1:$GAPWISE_PORT" --database-url "sqlite://$data/gapwise.db"
single down --volumes >/dev/null 2>&1

echo "== PostgreSQL, 2 replicas behind nginx (deploy/compose.yaml)"
compose up -d >"$cache/compose-up.log" 2>&1 || { cat "$cache/compose-up.log"; exit 1; }
base=http://127.0.0.1:$GAPWISE_PORT
ready "$base" || { compose logs | tail -50; exit 1; }
podman ps --filter "label=io.podman.compose.project=$project" --format '{{.Names}} {{.Status}}'

# players play for 40 s through nginx; meanwhile one replica dies and PostgreSQL restarts
load --annotators 8 --seconds 40 --url "$base" \
  --database-url "postgres://gapwise:$POSTGRES_PASSWORD@127.0.0.1:$pg_port/gapwise" >"$cache/load.log" 2>&1 &
load=$!
sleep 10
echo "killing ${project}_gapwise_1"
podman kill "${project}_gapwise_1" >/dev/null
sleep 10
echo "restarting ${project}_postgres_1"
podman restart "${project}_postgres_1" >/dev/null
status=0
wait "$load" || status=$?
cat "$cache/load.log"
if [ "$status" != 0 ]; then
  for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}'); do
    echo "== $c"; podman logs "$c" 2>&1 | tail -n 15
  done
fi
exit "$status"
