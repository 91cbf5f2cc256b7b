#!/usr/bin/env bash
# Gapwise for more than one server: N app servers (replicas) on one PostgreSQL, and
# nginx in front of them, holding the sign-in and proposal limits per client across
# the replicas (which take the client's address from it: GAPWISE_TRUSTED_PROXIES). Each replica is started, then waited for on /readyz (it
# answers 200 once its database answers); nginx keeps each player on one replica
# (a consistent hash of their session cookie, or of their address before they have
# one), so that the replica's memory of them (the servings it made, their view for
# the next choice, their progress fold) serves their next request, and takes a
# replica out for 10 s after 3 failed attempts (connection refused, reset or timed
# out; a request that got no answer is passed to the next replica, and its players
# go to the others), and the balancer is waited for in turn. On several machines run the same pieces there:
# `gapwise serve --addr 0.0.0.0:PORT` with DATABASE_URL=postgres://… on each app
# machine, and the nginx file this writes with their addresses in its upstream.
#
# Usage: scripts/cluster.sh up DIR DATABASE_URL N [CPUS [NGINX_CPUS]]
#          prints the balancer's URL; CPUS (taskset lists) pins the replicas: one
#          list (e.g. 1) for all of them, or one a replica split by / (e.g.
#          4-5/6-7/8-9: the first replica on 4-5, the second on 6-7...); nginx is
#          pinned to NGINX_CPUS, else to all of CPUS; DATABASE_URL `local` starts a PostgreSQL of the
#          cluster's own in DIR/pg (kept across a down and up) with a database
#          `gapwise`; the URL used is written to DIR/database_url
#        scripts/cluster.sh down DIR (stops DIR/pg too, when there is one)
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?up or down}
dir=${2:?a folder for the logs, pids and nginx.conf}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Waits until $1 answers 200, for at most 5 minutes (a first start loads the demo data).
ready() {
  for _ in $(seq 600); do
    curl -sf "$1" >/dev/null && return 0
    sleep 0.5
  done
  echo "$1 did not become ready; logs in $dir" >&2
  return 1
}

case "$action" in
  up)
    url=${3:?DATABASE_URL}
    replicas=${4:?number of replicas}
    IFS=/ read -r -a replica_cpus <<<"${5:-}"
    [ "${#replica_cpus[@]}" -gt 0 ] || replica_cpus=("")
    nginx_cpus=${6:-$(IFS=,; echo "${replica_cpus[*]}")}
    # the command that pins a process to the CPU list $1, if one is given
    pin() { if [ -n "$1" ]; then echo taskset -c "$1"; fi; }
    source scripts/env.sh
    bin=${GAPWISE_BIN:-$CARGO_TARGET_DIR/release/gapwise}
    if [ "$url" = local ]; then
      admin=$(scripts/postgres.sh start "$dir/pg" "$(free_port)")
      psql -qtA "$admin" -c "SELECT 1 FROM pg_database WHERE datname = 'gapwise'" | grep -q 1 || psql -q "$admin" -c "CREATE DATABASE gapwise"
      url=${admin%/postgres}/gapwise
    fi
    echo "$url" >"$dir/database_url"
    mkdir -p "$dir/nginx"
    upstream=""
    for n in $(seq "$replicas"); do
      port=$(free_port)
      cpus=${replica_cpus[(n - 1) % ${#replica_cpus[@]}]:-}
      DATABASE_URL=$url GAPWISE_TRUSTED_PROXIES=127.0.0.1 RUST_LOG=warn $(pin "$cpus") "$bin" serve --no-demo-models --addr "127.0.0.1:$port" >>"$dir/replica-$n.log" 2>&1 &
      echo $! >>"$dir/replicas.pid"
      ready "http://127.0.0.1:$port/readyz"
      upstream+="server 127.0.0.1:$port max_fails=3 fail_timeout=10s; "
    done
    balancer=$(free_port)
    cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
$( [ "$(id -u)" = 0 ] && echo "user root;" )
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/nginx/body;
  proxy_temp_path $dir/nginx/proxy;
  # what every nginx in front of the replicas does (deploy/nginx/: the player's
  # replica by their session cookie, the limits per client address)
  include $PWD/deploy/nginx/gapwise.conf;
  # it listens on loopback only: a local client (gapwise-load, one address a
  # simulated player) may name the address it plays from, as a TLS proxy would
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Forwarded-For;
  upstream gapwise { hash \$player consistent; $upstream keepalive 64; }
  server {
    listen 127.0.0.1:$balancer;
    include $PWD/deploy/nginx/routes.conf;
  }
}
EOF
    $(pin "$nginx_cpus") nginx -c "$dir/nginx.conf"
    ready "http://127.0.0.1:$balancer/readyz"
    echo "http://127.0.0.1:$balancer"
    ;;
  down)
    [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
    [ -f "$dir/replicas.pid" ] && xargs -r kill <"$dir/replicas.pid" 2>/dev/null || true
    rm -f "$dir/replicas.pid"
    if [ -d "$dir/pg" ]; then scripts/postgres.sh stop "$dir/pg"; fi
    ;;
esac
