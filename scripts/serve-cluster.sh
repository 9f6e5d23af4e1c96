#!/usr/bin/env bash
# The scale-out tour on one machine: a private PostgreSQL cluster (initdb/pg_ctl in a
# temporary folder, as the postgres user when run as root, since PostgreSQL refuses root),
# N mynotes-server instances on it (2 by default), and haproxy in front of them with health
# checks. Ctrl-C (or SIGTERM) stops them all and deletes the folder.
#
# Usage: scripts/serve-cluster.sh [N]
# Environment: PORT (the balancer's, default 8080), DB_POOL (--db-pool of each instance),
#   SERVER_ARGS (more `serve` options), SERVER_BINARY (a build to run instead of building),
#   KEEP_DATA=1 (keep the folder), PG_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
instances=${1:-2}
[[ $instances =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/serve-cluster.sh [N ≥ 1]" >&2; exit 2; }
port=${PORT:-8080}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
export PATH="$PATH:/usr/sbin:/sbin"
scripts/install-deps.sh --with-postgresql
if [ -n "${SERVER_BINARY:-}" ]; then
    binary=$SERVER_BINARY
else
    swift build -c release --product mynotes-server >/dev/null
    binary=$(swift build -c release --show-bin-path)/mynotes-server
fi

work=$(mktemp -d /tmp/mynotes-cluster.XXXXXX)
chmod 755 "$work"
as_postgres=()
if [ "$(id -u)" = 0 ]; then
    chown postgres "$work"
    as_postgres=(runuser -u postgres --)
fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pids=()
haproxy_pid=""
cleanup() {
    trap - INT TERM EXIT
    echo "stopping" >&2
    [ -n "$haproxy_pid" ] && kill -TERM "$haproxy_pid" 2>/dev/null
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}" $haproxy_pid; do wait "$pid" 2>/dev/null || true; done
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
    if [ "${KEEP_DATA:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup INT TERM EXIT

# --- PostgreSQL: a cluster of our own, durable (fsync on) ------------------------------
pg_port=$(free_port)
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/data" -A trust -U postgres -E UTF8 \
    --locale=C.UTF-8 >"$work/initdb.log"
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -l "$work/postgres.log" -w -o \
    "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c max_connections=$((instances * 64 + 20))" \
    start >/dev/null
"$pg_bin/psql" -q "postgres://postgres@127.0.0.1:$pg_port/postgres" -c "CREATE DATABASE mynotes"
database="postgres://postgres@127.0.0.1:$pg_port/mynotes"
echo "PostgreSQL: $database (log: $work/postgres.log)"

# --- the instances: started together, they migrate once under the advisory lock --------
server_ports=()
for i in $(seq "$instances"); do
    # shellcheck disable=SC2086 # SERVER_ARGS is a list of words by design
    "$binary" serve --port 0 --database "$database" ${DB_POOL:+--db-pool "$DB_POOL"} \
        ${SERVER_ARGS:-} >"$work/server-$i.out" 2>"$work/server-$i.log" &
    pids+=($!)
done
for i in $(seq "$instances"); do
    for _ in $(seq 300); do
        grep -qs "listening on" "$work/server-$i.out" && break
        kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { cat "$work/server-$i.log" >&2; exit 1; }
        sleep 0.1
    done
    server_port=$(grep -o 'http://[^ ]*' "$work/server-$i.out" | head -n 1 | sed 's/.*://')
    [ -n "$server_port" ] || { echo "instance $i did not start" >&2; cat "$work/server-$i.log" >&2; exit 1; }
    server_ports+=("$server_port")
    echo "instance $i: http://127.0.0.1:$server_port (pid ${pids[$((i - 1))]}, log $work/server-$i.log)"
done

# --- haproxy: deploy/haproxy.cfg (round robin, /readyz checked every 200 ms, an instance
# out after two failures), one `server` line per instance appended to its backend -----------
{
    cat deploy/haproxy.cfg
    for i in "${!server_ports[@]}"; do
        echo "    server s$((i + 1)) 127.0.0.1:${server_ports[$i]} check"
    done
} >"$work/haproxy.cfg"
MYNOTES_BALANCER_PORT=$port haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/v1/openapi.json" && break
    kill -0 "$haproxy_pid" 2>/dev/null || { cat "$work/haproxy.log" >&2; exit 1; }
    sleep 0.1
done
echo "MyNotes cluster listening on http://127.0.0.1:$port ($instances instances behind haproxy)"
echo "accounts: $binary accounts add EMAIL --database $database"
echo "Ctrl-C stops everything."
wait "$haproxy_pid"
