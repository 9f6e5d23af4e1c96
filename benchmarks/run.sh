#!/usr/bin/env bash
# Benchmarks the legacy protocol: a release build of mynotes-server pinned to core 0,
# wrk pinned to core 1, against `query` (an account with 10 notes) and `add`.
# Prints requests/s and p50/p99 latency. Usage: benchmarks/run.sh [seconds] [connections]
# BULK_NOTES=1000000 first fills the database with that many notes of another account,
# to show that a query's cost does not depend on the size of the database.
# SERVER_BINARY=path runs that build instead of building this checkout, so that two
# builds can be compared in alternating runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-32}
query_threads=${QUERY_THREADS:-1}
add_threads=${ADD_THREADS:-32}

command -v wrk >/dev/null || { echo "installing wrk" >&2; ${SUDO:-$([ "$(id -u)" = 0 ] || echo sudo)} apt-get install -y -qq wrk >/dev/null; }
if [ -n "${SERVER_BINARY:-}" ]; then
    binary=$SERVER_BINARY
else
    swift build -c release --product mynotes-server >/dev/null
    binary=$(swift build -c release --show-bin-path)/mynotes-server
fi

work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

database="sqlite:$work/bench.sqlite"
token=$("$binary" accounts add bench@example.com --database "$database" | tail -n 1)
if [ -n "${BULK_NOTES:-}" ]; then
    "$binary" accounts add bulk@example.com --database "$database" >/dev/null
    command -v sqlite3 >/dev/null || ${SUDO:-$([ "$(id -u)" = 0 ] || echo sudo)} apt-get install -y -qq sqlite3 >/dev/null
    sqlite3 "$work/bench.sqlite" "
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < $BULK_NOTES)
        INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at)
        SELECT (SELECT id FROM accounts WHERE email = 'bulk@example.com'),
            '2026-01-01', '2026-01-01 00:00:00', 'bulk note ' || x, 0, 0 FROM n;"
fi

start_server() { # threads
    taskset -c 0 "$binary" serve --port 0 --database "$database" --threads "$1" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.05; done
    url=$(grep -o 'http://[^ ]*' "$work/server.log")
    endpoint="$url/mynotes/webservice.php"
}
stop_server() { kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }

run_wrk() { # name url
    local out before after
    before=$(cpu_ticks)
    out=$(taskset -c 1 wrk -t1 -c"$connections" -d"${seconds}s" --latency "$2")
    after=$(cpu_ticks)
    local rps p50 p99 errors requests cpu
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1=="50%" {print $2}' <<<"$out")
    p99=$(awk '$1=="99%" {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    errors=$(grep -E "Non-2xx|Socket errors" <<<"$out" || true)
    # Server CPU time per request: what a dedicated core could sustain, even when
    # something else competes for the machine during the run.
    cpu=$(awk -v t=$((after - before)) -v n="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
    printf '%-6s %10s req/s   p50 %8s   p99 %8s   server CPU %6s us/request   %s\n' \
        "$1" "$rps" "$p50" "$p99" "$cpu" "$errors"
}

start_server "$query_threads"
for i in $(seq 10); do
    curl -sf "$endpoint?email=bench@example.com&token=$token&action=add&date=2026-11-$((10 + i))&content=Note+$i" >/dev/null
done
echo "mynotes-server $(git rev-parse --short HEAD 2>/dev/null || echo '?'): ${seconds}s, $connections connections, server on core 0, wrk on core 1, $(sqlite3 "$work/bench.sqlite" 'SELECT count(*) FROM notes' 2>/dev/null || echo '?') notes in the database"
run_wrk query "$endpoint?email=bench@example.com&token=$token&type=JSON&action=query"
stop_server

start_server "$add_threads"
run_wrk add "$endpoint?email=bench@example.com&token=$token&action=add&date=2026-11-29+12:00&content=Benchmark+note"
stop_server
echo "notes in the database after the run: $(sqlite3 "$work/bench.sqlite" 'SELECT count(*) FROM notes' 2>/dev/null || echo '?')"
