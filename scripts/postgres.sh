#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the tests and prints its URL.
# Usage: scripts/postgres.sh start <dir> <port> | stop <dir> | restart <dir> (a fast
# shutdown, as an operator's restart: sessions cut, committed work kept)
set -euo pipefail
action=${1:?start or stop}
dir=${2:?cluster folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
# PostgreSQL refuses to run as root: run it as the postgres user when we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$action" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
      -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 || true
    ;;
  restart)
    as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -m fast -w restart >/dev/null
    ;;
esac
