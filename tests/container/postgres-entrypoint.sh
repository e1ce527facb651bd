#!/bin/sh
# The PostgreSQL stand-in's entrypoint: on an empty PGDATA, creates the cluster as the official
# image does from POSTGRES_USER (default postgres), POSTGRES_PASSWORD (required) and POSTGRES_DB
# (default: the user's name); then runs the command, `postgres` by default.
set -eu
user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
	password_file="$(mktemp)"
	printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$password_file"
	initdb --username="$user" --pwfile="$password_file" --auth-local=trust \
		--auth-host=scram-sha-256 --encoding=UTF8 -D "$PGDATA" >/dev/null
	rm -f "$password_file"
	echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
	echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
	if [ "$database" != postgres ]; then
		pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
		createdb --username="$user" "$database"
		pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
	fi
fi
if [ "${1:-}" = postgres ]; then shift; exec postgres -D "$PGDATA" "$@"; fi
exec "$@"
