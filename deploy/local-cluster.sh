#!/usr/bin/env bash
# The scaled setup on one machine: PostgreSQL, Redis and several `fives serve` processes
# behind one port (docs/cluster.md). Debian's `postgresql` and `redis-server` packages
# provide the servers; this script starts its own instances on free loopback ports, with
# their data under $FIVES_CLUSTER_DIR, and stops them when it is stopped (Ctrl-C).
#
#   bash deploy/local-cluster.sh                 # 3 workers on http://127.0.0.1:8000/
#   PORT=0 WORKERS=2 bash deploy/local-cluster.sh
#
# Settings (environment): PORT (8000; 0: any free port), HOST (127.0.0.1), WORKERS (3),
# FIVES_CLUSTER_DIR (build/cluster: the database's files, kept between runs), FIVES (the
# fives command: .venv/bin/fives). Anything after the script's name goes to `fives serve`.
set -euo pipefail

PORT=${PORT:-8000}
HOST=${HOST:-127.0.0.1}
WORKERS=${WORKERS:-3}
DIR=${FIVES_CLUSTER_DIR:-build/cluster}
FIVES=${FIVES:-.venv/bin/fives}
PYTHON=$(dirname "$FIVES")/python

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$pg_bin" ] || ! command -v redis-server >/dev/null; then
  echo "local-cluster: PostgreSQL and Redis are needed: apt-get install postgresql redis-server" >&2
  exit 1
fi
if [ ! -x "$FIVES" ]; then
  echo "local-cluster: $FIVES is missing: run 'make venv' first (or set FIVES)" >&2
  exit 1
fi

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# PostgreSQL refuses to run as root: as root it runs as the package's user
as_pg=()
if [ "$(id -u)" = 0 ]; then
  as_pg=(runuser -u postgres --)
  chown postgres "$DIR"
fi

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PG_PORT=$(free_port)
REDIS_PORT=$(free_port)

if [ ! -f "$DIR/pg/PG_VERSION" ]; then
  echo "local-cluster: creating the database in $DIR/pg"
  "${as_pg[@]}" "$pg_bin/initdb" -D "$DIR/pg" -U fives --auth=trust -E UTF8 --locale=C >/dev/null
fi

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  echo "local-cluster: stopped" >&2
}
trap cleanup EXIT
trap 'exit 0' INT TERM

"${as_pg[@]}" "$pg_bin/postgres" -D "$DIR/pg" -p "$PG_PORT" -k "$DIR" \
  -c listen_addresses=127.0.0.1 >"$DIR/postgres.log" 2>&1 &
pids+=($!)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DIR" --save "" --appendonly no \
  >"$DIR/redis.log" 2>&1 &
pids+=($!)

DB="postgresql://fives@127.0.0.1:$PG_PORT/fives"
for _ in $(seq 100); do
  psql "postgresql://fives@127.0.0.1:$PG_PORT/postgres" -qtAc 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.1
done
if ! psql "postgresql://fives@127.0.0.1:$PG_PORT/postgres" -qtAc \
     "SELECT 1 FROM pg_database WHERE datname = 'fives'" | grep -q 1; then
  psql "postgresql://fives@127.0.0.1:$PG_PORT/postgres" -qc 'CREATE DATABASE fives'
fi
"$FIVES" db upgrade --db "$DB"
echo "local-cluster: PostgreSQL on port $PG_PORT, Redis on port $REDIS_PORT"

"$FIVES" serve --db "$DB" --redis "redis://127.0.0.1:$REDIS_PORT/0" --workers "$WORKERS" \
  --host "$HOST" --port "$PORT" "$@" &
pids+=($!)
wait "${pids[-1]}"
