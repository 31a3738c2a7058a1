#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for the storage tests (Debian's
# postgresql package), in a temporary directory. Source it: it exports
# STUD8_TEST_POSTGRES_URL and PG_STOP (a command that stops the server).
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PGDATA=$(mktemp -d /tmp/stud8-pg.XXXXXX)
PGPORT=${STUD8_PG_PORT:-54329}
# A port already taken (another server left running on this machine) moves us up one.
while [ -z "${STUD8_PG_PORT:-}" ] && (exec 3<>"/dev/tcp/127.0.0.1/$PGPORT") 2>/dev/null; do
    PGPORT=$((PGPORT + 1))
done
chown postgres "$PGDATA"
su postgres -s /bin/sh -c "cd / && $PGBIN/initdb -D $PGDATA -A trust -U postgres" >/dev/null
su postgres -s /bin/sh -c "cd / && $PGBIN/pg_ctl -D $PGDATA -w -l $PGDATA/server.log \
    -o '-h 127.0.0.1 -p $PGPORT -k $PGDATA' start" >/dev/null
su postgres -s /bin/sh -c "cd / && $PGBIN/psql -h 127.0.0.1 -p $PGPORT -U postgres -q \
    -c 'CREATE DATABASE stud8_test'" >/dev/null
export STUD8_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$PGPORT/stud8_test"
export PG_STOP="su postgres -s /bin/sh -c 'cd / && $PGBIN/pg_ctl -D $PGDATA -m fast stop' >/dev/null"
