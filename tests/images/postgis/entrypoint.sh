#!/bin/sh
# Entrypoint of the local PostGIS image, behaving like the official postgres
# image where testcontainers relies on it: POSTGRES_USER / POSTGRES_PASSWORD /
# POSTGRES_DB, init scripts, and on a fresh data directory a temporary server
# before the real one (so "ready to accept connections" is logged twice).
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_PASSWORD:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
: "${PGDATA:=/var/lib/postgresql/data}"
export PGDATA
[ "${1:-postgres}" = postgres ] && [ $# -gt 0 ] && shift
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp); printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"; chown postgres "$pwfile"
  as_pg initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start
  psql() { as_pg /usr/lib/postgresql/15/bin/psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$POSTGRES_USER" -q "$@"; }
  if [ "$POSTGRES_DB" != postgres ]; then psql -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\""; fi
  for db in template1 "$POSTGRES_DB"; do psql -d "$db" -c "CREATE EXTENSION IF NOT EXISTS postgis"; done
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) psql -d "$POSTGRES_DB" -f "$f" ;;
      *.sh) . "$f" ;;
    esac
  done
  as_pg pg_ctl -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
  postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql "$@"
