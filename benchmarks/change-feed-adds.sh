#!/usr/bin/env bash
# What the change feed costs a durable add (SQLite, synchronous=FULL, on disk).
# One release build and two databases: "feed", as the server migrates it, and "no-feed",
# where the change-feed triggers are swapped back for the usage-only triggers of before. The
# binary is the same, so only the SQL each add runs differs. The two alternate for ROUNDS
# rounds (default 3) of SECONDS (default 10) of legacy adds over 64 connections, the server
# pinned to core 0 and wrk to core 1, as benchmarks/run.sh does; the figure is the ratio of
# the medians, feed / no-feed, of adds/s and of the server's CPU time per add (on a shared,
# loaded machine the rate follows the load; the CPU time per add much less so).
#
# Usage: benchmarks/change-feed-adds.sh [seconds] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
connections=64
command -v wrk >/dev/null || { echo "needs wrk" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "needs sqlite3" >&2; exit 2; }
binary=${SERVER_BINARY:-}
if [ -z "$binary" ]; then
    swift build -c release --product mynotes-server >/dev/null
    binary="$(swift build -c release --show-bin-path)/mynotes-server"
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The usage triggers as migration account-usage-totals made them.
no_feed_sql="
DROP TRIGGER notes_after_insert; DROP TRIGGER notes_after_update; DROP TRIGGER notes_after_delete;
CREATE TRIGGER notes_usage_after_insert AFTER INSERT ON notes BEGIN
    UPDATE accounts SET note_count = note_count + 1,
        note_bytes = note_bytes + length(CAST(NEW.content AS BLOB))
    WHERE id = NEW.account_id;
END;
CREATE TRIGGER notes_usage_after_delete AFTER DELETE ON notes BEGIN
    UPDATE accounts SET note_count = note_count - 1,
        note_bytes = note_bytes - length(CAST(OLD.content AS BLOB))
    WHERE id = OLD.account_id;
END;
CREATE TRIGGER notes_usage_after_update AFTER UPDATE OF content ON notes BEGIN
    UPDATE accounts SET note_bytes = note_bytes
        - length(CAST(OLD.content AS BLOB)) + length(CAST(NEW.content AS BLOB))
    WHERE id = NEW.account_id;
END;"

declare -A tokens
for variant in feed no-feed; do
    tokens[$variant]=$("$binary" accounts add writer@example.com --database "sqlite:$work/$variant.sqlite" | tail -n 1)
done
sqlite3 "$work/no-feed.sqlite" "$no_feed_sql"

run() { # variant → "adds/s CPU-µs-per-add"
    local variant=$1 base output ticks
    taskset -c 0 "$binary" serve --port 0 --database "sqlite:$work/$variant.sqlite" --quota 0 \
        >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do grep -qs "listening on" "$work/server.log" && break; sleep 0.1; done
    base=$(grep -o 'http://[^ ]*' "$work/server.log" | head -n 1)
    local path="/mynotes/webservice.php?email=writer@example.com&token=${tokens[$variant]}&action=add&date=2026-11-29+12:00&content=Benchmark+note"
    output=$(taskset -c 1 wrk -t1 -c"$connections" -d"${seconds}s" "$base$path")
    # utime + stime, in clock ticks, of the whole server process.
    ticks=$(awk '{ print $14 + $15 }' "/proc/$server_pid/stat")
    echo "$output" | awk -v ticks="$ticks" -v hz="$(getconf CLK_TCK)" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rate = $2 }
        END { printf "%d %.1f\n", rate, ticks / hz * 1e6 / requests }'
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

declare -A results cpu
for round in $(seq 1 "$rounds"); do
    for variant in no-feed feed; do
        out=$(run "$variant")
        read -r rate micros <<<"$out"
        results[$variant]+="$rate "
        cpu[$variant]+="$micros "
        echo "round $round $variant: $rate adds/s, $micros µs of server CPU per add"
    done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
feed=$(echo "${results[feed]}" | median)
plain=$(echo "${results[no-feed]}" | median)
stored=$(sqlite3 "$work/feed.sqlite" "SELECT (SELECT count(*) FROM notes) = (SELECT count(*) FROM note_changes)")
echo "median adds/s: feed $feed, no-feed $plain; ratio feed/no-feed $(awk -v f="$feed" -v p="$plain" 'BEGIN { printf "%.3f", f / p }')"
feed_cpu=$(echo "${cpu[feed]}" | median)
plain_cpu=$(echo "${cpu[no-feed]}" | median)
echo "median server CPU per add: feed $feed_cpu µs, no-feed $plain_cpu µs; ratio feed/no-feed $(awk -v f="$feed_cpu" -v p="$plain_cpu" 'BEGIN { printf "%.3f", f / p }')"
echo "every add stored has its feed row: $([ "$stored" = 1 ] && echo yes || echo NO)"
