#!/usr/bin/env bash
# A room on several nodes on this machine, for trying it out, tests and benchmarks:
# a throwaway PostgreSQL and Redis on 127.0.0.1 and N nodes (`stud8 serve --redis`)
# on successive ports, each with its log; and stopping them all.
#
#   scripts/cluster.sh start [N=2] [FIRST_PORT=8001]   start (prints the nodes' URLs)
#   scripts/cluster.sh stop                            stop the nodes, Redis, PostgreSQL
#   scripts/cluster.sh status                          what runs
#
# Everything lives in $STUD8_CLUSTER_DIR (default /tmp/stud8-cluster): data, logs, pids.
# Needs Debian's postgresql and redis-server (apt-get install postgresql redis-server)
# and stud8 installed with its server extra (`stud8` on the PATH, or .venv/bin/stud8).
# The environment's STUD8_* settings (operators, ready tables...) reach the nodes.
set -euo pipefail

DIR=${STUD8_CLUSTER_DIR:-/tmp/stud8-cluster}
PG_PORT=${STUD8_CLUSTER_PG_PORT:-55432}
REDIS_PORT=${STUD8_CLUSTER_REDIS_PORT:-56379}
HERE=$(cd "$(dirname "$0")/.." && pwd)
STUD8=$(command -v stud8 || echo "$HERE/.venv/bin/stud8")
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

as_postgres() {
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "cd / && $*"; else sh -c "$*"; fi
}

start() {
    local n=${1:-2} first=${2:-8001}
    if [ -e "$DIR/nodes" ]; then
        echo "a cluster already runs in $DIR (scripts/cluster.sh stop first)" >&2
        exit 1
    fi
    [ -n "$PGBIN" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
    command -v redis-server >/dev/null || { echo "redis-server is not installed" >&2; exit 1; }
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    mkdir -p "$DIR/pg"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DIR/pg"; fi
    as_postgres "$PGBIN/initdb -D $DIR/pg -A trust -U postgres" >/dev/null
    as_postgres "$PGBIN/pg_ctl -D $DIR/pg -w -l $DIR/pg/server.log \
        -o '-h 127.0.0.1 -p $PG_PORT -k $DIR/pg' start" >/dev/null
    as_postgres "$PGBIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -q -c 'CREATE DATABASE stud8'"
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
        --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --dir "$DIR"
    local db="postgresql://postgres@127.0.0.1:$PG_PORT/stud8"
    local redis="redis://127.0.0.1:$REDIS_PORT/0"
    echo "$db" >"$DIR/database"
    echo "$redis" >"$DIR/redis"
    : >"$DIR/nodes"
    for i in $(seq 1 "$n"); do
        local port=$((first + i - 1)) name="node$i"
        "$STUD8" serve --host 127.0.0.1 --port "$port" --database "$db" --redis "$redis" \
            --node "$name" >"$DIR/$name.log" 2>&1 &
        echo "$name $! $port" >>"$DIR/nodes"
        # the first node migrates the database; the others wait for it
        if [ "$i" = 1 ]; then wait_up "$port" "$name"; fi
    done
    while read -r name _pid port; do wait_up "$port" "$name"; done <"$DIR/nodes"
    echo "database $db"
    echo "redis    $redis"
    while read -r name _pid port; do echo "$name    http://127.0.0.1:$port  (log $DIR/$name.log)"; done <"$DIR/nodes"
}

wait_up() {
    local port=$1 name=$2
    for _ in $(seq 1 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "$name did not start: see $DIR/$name.log" >&2
    exit 1
}

stop() {
    if [ -e "$DIR/nodes" ]; then
        while read -r _name pid _port; do kill -INT "$pid" 2>/dev/null || true; done <"$DIR/nodes"
        for _ in $(seq 1 300); do
            alive=0
            while read -r _name pid _port; do kill -0 "$pid" 2>/dev/null && alive=1; done <"$DIR/nodes"
            [ "$alive" = 0 ] && break
            sleep 0.1
        done
        while read -r _name pid _port; do kill -KILL "$pid" 2>/dev/null || true; done <"$DIR/nodes"
        rm -f "$DIR/nodes"
    fi
    if [ -e "$DIR/redis.pid" ]; then
        kill "$(cat "$DIR/redis.pid")" 2>/dev/null || true
        rm -f "$DIR/redis.pid"
    fi
    if [ -e "$DIR/pg/postmaster.pid" ]; then
        as_postgres "$PGBIN/pg_ctl -D $DIR/pg -m fast stop" >/dev/null || true
    fi
    rm -rf "$DIR"
}

status() {
    if [ ! -e "$DIR/nodes" ]; then echo "no cluster in $DIR"; return 0; fi
    echo "database $(cat "$DIR/database")"
    echo "redis    $(cat "$DIR/redis")"
    while read -r name pid port; do
        if kill -0 "$pid" 2>/dev/null; then state=running; else state=stopped; fi
        echo "$name    http://127.0.0.1:$port  pid $pid  $state"
    done <"$DIR/nodes"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) stop ;;
    status) status ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
