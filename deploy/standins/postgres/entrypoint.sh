#!/bin/sh
# The official image's first start, as far as compose.yaml uses it: a cluster owned by
# $POSTGRES_USER with $POSTGRES_PASSWORD, the database $POSTGRES_DB, password logins
# from the network; then the command as the postgres user.
set -eu
user=${POSTGRES_USER:-postgres}
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >/tmp/pwfile
  chown postgres /tmp/pwfile
  runuser -u postgres -- initdb -D "$PGDATA" -U "$user" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm /tmp/pwfile
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  db=${POSTGRES_DB:-$user}
  [ "$db" = postgres ] || runuser -u postgres -- psql -q -U "$user" -d postgres -c "CREATE DATABASE \"$db\""
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w stop >/dev/null
fi
exec runuser -u postgres -- "$@"
