#!/usr/bin/env bash
# The soak (docs/TESTING.md, Soak): a release mynotes-server with its default configuration
# (sign-up and sign-in rate limits lifted: every client here is 127.0.0.1) under a fixed-seed
# mix of every endpoint for [minutes] (default 5; decimals allowed, e.g. 0.5). The driver,
# benchmarks/soak.py, prints the requests, errors, the server's RSS and open descriptors and
# the latency percentiles every 30 s, then the percentiles per operation. Exit status 1 when
# any request failed, when RSS or the descriptor count moved by more than 10% after the
# warm-up (the first two samples), or when the database fails PRAGMA integrity_check.
#
# Usage: benchmarks/soak.sh [minutes]
# Optional environment:
#   SOAK_INTERVAL=30     seconds between samples (CI's short run uses 5)
#   SOAK_WORKERS=8       clients, each with its own account and keep-alive connection
#   SOAK_SEED=10         the mix's seed
#   SERVER_BINARY=path   run that build instead of building this checkout in release mode
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-5}
[[ $minutes =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "usage: benchmarks/soak.sh [minutes] (got '$minutes')" >&2; exit 2; }
seconds=$(python3 -c "print(round($minutes * 60, 1))")
interval=${SOAK_INTERVAL:-30}

if [ -n "${SERVER_BINARY:-}" ]; then
    binary=$SERVER_BINARY
else
    swift build -c release --product mynotes-server >/dev/null
    binary=$(swift build -c release --show-bin-path)/mynotes-server
fi

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"
        wait "$server_pid" || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$binary" serve --port 0 --database "sqlite:$work/soak.sqlite" --auth-rate-limits unlimited \
    --log-level warning >"$work/out" 2>"$work/err" &
server_pid=$!
for _ in $(seq 1 300); do
    grep -q "listening on" "$work/out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
    sleep 0.1
done
port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$work/out" | head -n 1)
[ -n "$port" ] || { echo "the server did not say where it listens" >&2; cat "$work/err" >&2; exit 1; }

echo "soak: ${minutes} min, server pid $server_pid on port $port, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
python3 benchmarks/soak.py --port "$port" --pid "$server_pid" --seconds "$seconds" \
    --interval "$interval" --workers "${SOAK_WORKERS:-8}" --seed "${SOAK_SEED:-10}" || status=$?
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

kill -TERM "$server_pid"
wait "$server_pid" || { echo "the server did not stop cleanly" >&2; status=1; }
server_pid=
if grep -E " (error|critical) " "$work/err" >/dev/null; then
    echo "the server logged errors:" >&2
    grep -E " (error|critical) " "$work/err" | head -n 5 >&2
    status=1
fi
integrity=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$work/soak.sqlite")
echo "integrity_check: $integrity"
[ "$integrity" = ok ] || status=1
exit "$status"
