#!/usr/bin/env bash
# Query and durable add through haproxy, with N mynotes-server instances on one
# PostgreSQL (scripts/serve-cluster.sh N: a private cluster, fsync on, deploy/haproxy.cfg).
# Nothing is pinned: the instances, PostgreSQL's backends, haproxy and wrk share the
# machine's cores, so on one small machine this measures the cores as much as the design.
#
# Usage: benchmarks/cluster.sh [instances, default 2] [seconds, default 10] [connections, default 64]
# Environment: SERVER_BINARY (a build to run instead of building this checkout), DB_POOL.
# The adds go to an account of their own; at the end the script checks that every
# acknowledged add is stored.
set -euo pipefail
cd "$(dirname "$0")/.."
instances=${1:-2}
seconds=${2:-10}
connections=${3:-64}
for value in "$instances" "$seconds" "$connections"; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "usage: benchmarks/cluster.sh [instances] [seconds] [connections]" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ -z "${SERVER_BINARY:-}" ]; then
    swift build -c release --product mynotes-server >/dev/null
    SERVER_BINARY=$(swift build -c release --show-bin-path)/mynotes-server
fi
export SERVER_BINARY
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
# --quota 0: no note-count limit, as benchmarks/run.sh (the adds write more than 100,000).
PORT=$port SERVER_ARGS="--quota 0" scripts/serve-cluster.sh "$instances" >"$log" 2>&1 &
cluster_pid=$!
cleanup() {
    kill -TERM "$cluster_pid" 2>/dev/null || true
    wait "$cluster_pid" 2>/dev/null || true
    rm -f "$log"
}
trap cleanup EXIT
for _ in $(seq 600); do
    grep -q "cluster listening" "$log" && break
    kill -0 "$cluster_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
grep -q "cluster listening" "$log" || { echo "the cluster did not start in 60 s:" >&2; cat "$log" >&2; exit 1; }
database=$(sed -n 's/^PostgreSQL: \([^ ]*\).*/\1/p' "$log")
base="http://127.0.0.1:$port"
reader_token=$("$SERVER_BINARY" accounts add bench@example.com --database "$database" | tail -n 1)
writer_token=$("$SERVER_BINARY" accounts add writer@example.com --database "$database" | tail -n 1)
path=/mynotes/webservice.php
for i in $(seq 10); do
    curl -sf -o /dev/null "$base$path?email=bench@example.com&token=$reader_token&action=add&date=2026-11-$((10 + i))&content=Note+$i"
done
query_url="$base$path?email=bench@example.com&token=$reader_token&type=JSON&action=query"
add_url="$base$path?email=writer@example.com&token=$writer_token&action=add&date=2026-11-29+12:00&content=Benchmark+note"
stored() {
    "$pg_bin/psql" -qAt "$database" -c "SELECT count(*) FROM notes WHERE account_id = (SELECT id FROM accounts WHERE email = 'writer@example.com')"
}
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
run() { # name url
    local out
    out=$(wrk -t1 -c"$connections" -d"${seconds}s" --timeout 10s --latency "$2")
    printf '%-6s %7s req/s  p50 %9s  p99 %9s  %s\n' "$1" \
        "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' <<<"$out")" \
        "$(awk '$1 == "50%" { print $2 }' <<<"$out")" "$(awk '$1 == "99%" { print $2 }' <<<"$out")" \
        "$(grep -E "Non-2xx|Socket errors" <<<"$out" | tr -s ' ' | paste -sd ';')"
    last_requests=$(awk '/requests in/ { print $1 }' <<<"$out")
}
echo "$instances instance(s) of $("$SERVER_BINARY" --version 2>/dev/null | head -n 1 || echo mynotes-server) behind haproxy on one PostgreSQL," \
    "${seconds}s per scenario, $connections connections, $(nproc) cores shared by all, load average $load_start"
wrk -t1 -c"$connections" -d1s "$query_url" >/dev/null
run query "$query_url"
before=$(stored)
run add "$add_url"
added=$(($(stored) - before))
echo "adds acknowledged by wrk $last_requests, stored $added"
[ "$added" -ge "$last_requests" ] || { echo "CHECK FAILED: acknowledged adds are missing" >&2; exit 1; }
echo "load average at the end $(cut -d ' ' -f 1-3 /proc/loadavg)"
