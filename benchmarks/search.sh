#!/usr/bin/env bash
# Search at scale: builds an account of NOTES notes (default 1,000,000, about 200
# bytes each, 30% Chinese) and one of 2,205 notes of 63 KB (139 MB) straight through SQLite,
# lets the server build its search index (the migration's path: timed), then measures
# searches over REST one at a time: QUERIES queries of 3 or more characters and QUERIES of 1
# or 2, each a first page of 50 newest first and up to two keyset pages after it (p50/p99
# per class), the same over the 139 MB account, and durable adds per second through the
# legacy API (wrk, 64 connections, as benchmarks/run.sh) with and without the index.
#
#   benchmarks/search.sh                       # everything, about 10 minutes on 2 cores
#   NOTES=100000 QUERIES=100 benchmarks/search.sh
#
# Overrides: NOTES, QUERIES (per class, default 200), SEED, ADD_SECONDS (default 5),
# SUSTAINED_SECONDS (0 by default: one more round of adds this long, past the index's lag
# bound, so that its batches follow every commit),
# SERVER_BINARY (this checkout's release build otherwise), BASELINE_BINARY (a server without
# the search index, for the adds; otherwise built from the branch main), PREPARE_NICENESS
# (the niceness of filling the database and building the index, 0 by default: on a shared
# machine the measurements alone may then run at normal priority), DATABASE (where the
# database is made and kept; when it exists, filling and indexing are skipped).
# Targets: p99 <= 10 ms (3+ characters), <= 50 ms (1-2), 139 MB account <= 50 ms, adds with
# the index >= 90% of adds without.
set -euo pipefail
cd "$(dirname "$0")/.."
notes=${NOTES:-1000000}
queries=${QUERIES:-200}
seed=${SEED:-15}
add_seconds=${ADD_SECONDS:-5}
for value in "$notes" "$queries" "$seed" "$add_seconds" "${PREPARE_NICENESS:-0}" "${SUSTAINED_SECONDS:-0}"; do
    [[ $value =~ ^[0-9]+$ ]] || { echo "NOTES, QUERIES, SEED, ADD_SECONDS, SUSTAINED_SECONDS and PREPARE_NICENESS are whole numbers (got '$value')" >&2; exit 2; }
done
sudo_prefix() { [ "$(id -u)" = 0 ] || echo "${SUDO:-sudo}"; }
need() { # command package
    command -v "$1" >/dev/null && return
    echo "installing $2" >&2
    $(sudo_prefix) apt-get install -y -qq "$2" >/dev/null
}
need wrk wrk
need curl curl
need python3 python3
need sqlite3 sqlite3
need taskset util-linux

if [ -n "${SERVER_BINARY:-}" ]; then
    binary=$SERVER_BINARY
else
    swift build -c release --product mynotes-server >/dev/null
    binary=$(swift build -c release --show-bin-path)/mynotes-server
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ -n "${BASELINE_BINARY:-}" ]; then
    baseline=$BASELINE_BINARY
else
    git rev-parse --verify -q main >/dev/null || { echo "no branch main: set BASELINE_BINARY" >&2; exit 1; }
    mkdir "$work/baseline"
    git archive main | tar -x -C "$work/baseline"
    (cd "$work/baseline" && swift build -c release --product mynotes-server >/dev/null)
    baseline=$work/baseline/.build/release/mynotes-server
fi

start_server() { # binary database
    : >"$work/server.log" # emptied before the server starts: the last server's line is gone
    taskset -c 0 "$1" serve --port 0 --database "sqlite:$2" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 3000); do
        grep -qs "listening on" "$work/server.log" && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
        sleep 0.02
    done
    base=$(grep -o 'http://[^ ]*' "$work/server.log" | head -n 1)
    [ -n "$base" ] || { echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
}
stop_server() {
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

echo "== load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
prepare() { nice -n "${PREPARE_NICENESS:-0}" "$@"; }
db=${DATABASE:-$work/search.sqlite}
if [ -n "${DATABASE:-}" ] && [ -f "$DATABASE" ]; then
    echo "== reusing $db (filled and indexed by an earlier run): new tokens"
    token=$("$binary" accounts reset-token many@example.com --database "sqlite:$db" | tail -n 1)
    large_token=$("$binary" accounts reset-token large@example.com --database "sqlite:$db" | tail -n 1)
    prepare "$binary" accounts list --database "sqlite:$db" >/dev/null
else
    token=$("$binary" accounts add many@example.com --database "sqlite:$db" | tail -n 1)
    large_token=$("$binary" accounts add large@example.com --database "sqlite:$db" | tail -n 1)
    echo "== filling the database"
    prepare python3 benchmarks/search.py fill "$db" many@example.com "$notes" 200 30 "$seed"
    prepare python3 benchmarks/search.py fill "$db" large@example.com 2205 63000 30 "$((seed + 1))"
    echo "== building the search index (what an upgraded database does once when it opens)"
    began=$EPOCHREALTIME
    prepare "$binary" accounts list --database "sqlite:$db" 2>&1 >/dev/null | tail -n 1
    awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { printf "index built in %.1f s\n", b - a }'
fi
prepare sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
ls -l "$db" | awk '{ printf "database: %.0f MB (after a checkpoint)\n", $5 / 1e6 }'
prepare sqlite3 "$db" "SELECT name, round(sum(pgsize) / 1e6) || ' MB' FROM dbstat
    WHERE name LIKE 'notes_trigrams%' OR name LIKE 'notes_grams%' OR name LIKE 'notes_fives%' OR name IN ('notes', 'notes_folded', 'note_changes')
    GROUP BY name HAVING sum(pgsize) > 1e6 ORDER BY sum(pgsize) DESC" 2>/dev/null | tr '\n' ' ' | sed 's/|/: /g; s/$/\n/' || true

echo "== searches, one at a time (load average $(cut -d' ' -f1-3 /proc/loadavg))"
start_server "$binary" "$db"
python3 benchmarks/search.py measure "$base" "$token" "$queries" "$seed" 3 "1M notes:" "$db" many@example.com
python3 benchmarks/search.py measure "$base" "$large_token" 40 "$seed" 1 "139 MB:  " "$db" large@example.com
stop_server

echo "== durable adds, legacy API, wrk 64 connections, ${add_seconds}s each, alternating (load average $(cut -d' ' -f1-3 /proc/loadavg))"
adds() { # binary seconds [probe]: adds/s; with probe, then searches while the notes wait
    local fresh=$work/adds-$RANDOM.sqlite add_token rate
    add_token=$("$1" accounts add writer@example.com --database "sqlite:$fresh" | tail -n 1)
    start_server "$1" "$fresh"
    local path="/mynotes/webservice.php?email=writer@example.com&token=$add_token&action=add&date=2026-11-29+12:00&content=Benchmark+note+%E4%BC%9A%E8%AE%AE+$RANDOM"
    rate=$(taskset -c 1 wrk -t1 -c64 -d"${2}s" "$base$path" | awk '/Requests\/sec/ { print $2 }')
    if [ -n "${3:-}" ]; then
        # Searches for absent words (past the walk, every waiting note tested), at once.
        probe=$(python3 benchmarks/search.py probe "$base" "$add_token" 5)
        waiting=$(sqlite3 "$fresh" "SELECT count(*) FROM notes WHERE id > (SELECT indexed_through FROM notes_search_state)" 2>/dev/null || echo "?")
        echo "   searches right after the burst: $probe; notes still waiting after them: $waiting" >&2
    fi
    stop_server
    rm -f "$fresh" "$fresh-wal" "$fresh-shm"
    echo "$rate"
}
ratio() { # with… / without…
    awk -v a="$1" -v b="$2" -v label="$3" 'BEGIN {
        n = split(a, w, " "); split(b, o, " "); sw = 0; so = 0
        for (i = 1; i <= n; i++) { sw += w[i]; so += o[i] }
        printf "%s with the index / without: %.2f (target >= 0.90)\n", label, sw / so }'
}
with=() without=()
for round in 1 2; do
    without+=("$(adds "$baseline" "$add_seconds")")
    with+=("$(adds "$binary" "$add_seconds" probe)")
    echo "round $round: without the index ${without[-1]} adds/s, with it ${with[-1]} adds/s"
done
ratio "${with[*]}" "${without[*]}" "adds (${add_seconds}s bursts)"
if [ "${SUSTAINED_SECONDS:-0}" -gt 0 ]; then
    # Long enough for the index's batches to follow every commit (SQLiteSearchIndexer).
    without=("$(adds "$baseline" "$SUSTAINED_SECONDS")")
    with=("$(adds "$binary" "$SUSTAINED_SECONDS" probe)")
    echo "sustained, ${SUSTAINED_SECONDS}s: without the index ${without[0]} adds/s, with it ${with[0]} adds/s"
    ratio "${with[*]}" "${without[*]}" "adds (${SUSTAINED_SECONDS}s)"
fi
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
