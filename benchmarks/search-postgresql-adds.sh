#!/usr/bin/env bash
# What each search index costs durable adds on PostgreSQL, now that the indexes
# are on search_chunks and kept by the servers' indexer off the adds' commits (it indexes
# a round's adds once the store is quiet, which the script waits for): one private cluster
# (initdb, fsync on, shared_buffers 2GB) with one database per variant, each filled with the
# same NOTES notes (default 100,000, the vocabulary of benchmarks/search-postgresql.py) and
# then stripped of the indexes the variant lacks, a server on each, and ROUNDS rounds of
# SECONDS seconds of legacy adds (wrk, 64 connections, one account) that go through the
# variants in turn, so that what drifts meanwhile weighs on all alike, each round followed by
# a wait until its server's indexer has read its adds. Prints each round and each variant's
# sum of rates against the first variant's, without and with the waits.
#
#   benchmarks/search-postgresql-adds.sh            # about 10 minutes on 2 cores
#   VARIANTS="none all" ROUNDS=4 benchmarks/search-postgresql-adds.sh
#
# Variants: none (no search index), triples (the three-character index alone), pieces (the
# piece index alone), fives (the five-character index alone), all; all-nofastupdate and
# all-pending32mb change every index's storage
# parameters. Overrides: NOTES, ROUNDS (default 6), SECONDS_EACH (default 6), VARIANTS,
# SERVER_BINARY (this checkout's release build otherwise), PG_BIN, DIFFERENT_CONTENT=1
# (every add a different note instead of the same one).
set -euo pipefail
cd "$(dirname "$0")/.."
notes=${NOTES:-100000}
rounds=${ROUNDS:-6}
seconds=${SECONDS_EACH:-6}
read -r -a variants <<<"${VARIANTS:-none triples pieces fives all}"
for value in "$notes" "$rounds" "$seconds"; do
    [[ $value =~ ^[0-9]+$ ]] || { echo "NOTES, ROUNDS and SECONDS_EACH are whole numbers (got '$value')" >&2; exit 2; }
done
indexes=(search_chunks_triples search_chunks_pieces search_chunks_fives)
declare -A drop=(
    [none]="DROP INDEX search_chunks_triples, search_chunks_pieces, search_chunks_fives"
    [triples]="DROP INDEX search_chunks_pieces, search_chunks_fives"
    [pieces]="DROP INDEX search_chunks_triples, search_chunks_fives"
    [fives]="DROP INDEX search_chunks_triples, search_chunks_pieces"
    [all]=""
    [all-nofastupdate]=$(printf 'ALTER INDEX %s SET (fastupdate = off);' "${indexes[@]}")
    [all-pending32mb]=$(printf 'ALTER INDEX %s SET (gin_pending_list_limit = 32768);' "${indexes[@]}")
)
for variant in "${variants[@]}"; do
    [[ -v "drop[$variant]" ]] || { echo "no variant '$variant' (none, triples, pieces, fives, all, all-nofastupdate, all-pending32mb)" >&2; exit 2; }
done
source benchmarks/postgresql-setup.sh
postgresql_tools wrk python3
server_binary

cluster_folder mynotes-search-adds
servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$work/initdb.log"
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -l "$work/postgres.log" -w -o \
    "-p $port -k $work -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=2GB -c log_autovacuum_min_duration=0" start >/dev/null
python3 benchmarks/search-postgresql.py notes "$notes" 200 30 15 >"$work/notes.tsv"

echo "== $notes notes in each of ${#variants[@]} databases (load average $(cut -d' ' -f1-3 /proc/loadavg))"
declare -A base token sums
for variant in "${variants[@]}"; do
    name=db_${variant//-/_}
    "$pg_bin/psql" -qX "postgres://postgres@127.0.0.1:$port/postgres" -c "CREATE DATABASE $name"
    database="postgres://postgres@127.0.0.1:$port/$name"
    sql() { "$pg_bin/psql" -qAtX -v ON_ERROR_STOP=1 "$database" "$@"; }
    "$binary" accounts add many@example.com --database "$database" >/dev/null
    token[$variant]=$("$binary" accounts add writer@example.com --database "$database" | tail -n 1)
    account=$(sql -c "SELECT id FROM accounts WHERE email = 'many@example.com'")
    # Straight into the table, the change feed's trigger off, as search-postgresql.sh fills.
    sql -c "CREATE UNLOGGED TABLE incoming (date text, content text, folded text)"
    sql -c "COPY incoming FROM STDIN" <"$work/notes.tsv"
    sql <<SQL
ALTER TABLE notes DISABLE TRIGGER notes_written;
INSERT INTO notes (account_id, date, sort_key, content, folded_content, created_at, updated_at)
    SELECT $account, date, date, content, folded, 0, 0 FROM incoming ORDER BY date;
ALTER TABLE notes ENABLE TRIGGER notes_written;
INSERT INTO search_chunks (account_id, note_id, chunk, sort_key, version, folded_content)
    SELECT n.account_id, n.id, c.chunk, n.sort_key, n.version, c.text
    FROM notes n CROSS JOIN LATERAL mynotes_text_chunks(n.folded_content) c;
DROP TABLE incoming;
${drop[$variant]};
VACUUM ANALYZE;
SQL
    "$binary" serve --port 0 --database "$database" --quota 0 --quota-bytes 0 >"$work/server-$variant.log" 2>&1 &
    servers+=($!)
    for _ in $(seq 3000); do
        grep -qs "listening on" "$work/server-$variant.log" && break
        kill -0 "${servers[-1]}" 2>/dev/null || { cat "$work/server-$variant.log" >&2; exit 1; }
        sleep 0.02
    done
    base[$variant]=$(grep -o 'http://[^ ]*' "$work/server-$variant.log" | head -n 1)
    [ -n "${base[$variant]}" ] || { echo "the server of $variant did not start" >&2; exit 1; }
    echo "$variant: $(sql -c "SELECT string_agg(indexname, ', ' ORDER BY indexname) FROM pg_indexes WHERE tablename IN ('notes', 'search_chunks')")"
done
"$pg_bin/psql" -qX "postgres://postgres@127.0.0.1:$port/postgres" -c CHECKPOINT

# Every request a note of its own: wrk's script appends a counter and a random number.
cat >"$work/different.lua" <<'LUA'
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", wrk.path .. "+" .. counter .. "+" .. math.random(1, 1000000000))
end
LUA
script=()
[ -n "${DIFFERENT_CONTENT:-}" ] && script=(-s "$work/different.lua")
# indexed VARIANT: waits until the variant's indexer has read every change of the writer's
# account (at most 10 minutes) and prints how long that took, so that a round's deferred
# index work runs before the next round, not during another variant's.
indexed() {
    local database="postgres://postgres@127.0.0.1:$port/db_${1//-/_}" began=$EPOCHREALTIME lag
    for _ in $(seq 6000); do
        lag=$("$pg_bin/psql" -qAtX "$database" -c "SELECT a.change_seq - coalesce(p.indexed_seq, 0)
            FROM accounts a LEFT JOIN search_chunks_progress p ON p.account_id = a.id
            WHERE a.email_key = 'writer@example.com'")
        [ "$lag" = 0 ] && break
        sleep 0.1
    done
    awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}
declare -A waits
echo "== durable adds, legacy API, wrk 64 connections, ${seconds}s each, then the wait until indexed"
for round in $(seq "$rounds"); do
    line="round $round:"
    for variant in "${variants[@]}"; do
        path="/mynotes/webservice.php?email=writer@example.com&token=${token[$variant]}&action=add&date=2026-11-29+12:00&content=Benchmark+note+%E4%BC%9A%E8%AE%AE+meeting"
        rate=$(wrk -t1 -c64 -d"${seconds}s" "${script[@]}" "${base[$variant]}$path" | awk '/Requests\/sec/ { print $2 }')
        wait=$(indexed "$variant")
        sums[$variant]=$(awk -v a="${sums[$variant]:-0}" -v b="$rate" 'BEGIN { print a + b }')
        waits[$variant]=$(awk -v a="${waits[$variant]:-0}" -v b="$wait" 'BEGIN { print a + b }')
        line+=" $variant $rate (indexed ${wait} s after)"
    done
    echo "$line"
done
# Adds/s with the wait: the round's adds over the round's seconds plus the wait, the rate a
# stream of adds would keep if the indexer's work could not wait for quiet.
first=${variants[0]}
for variant in "${variants[@]}"; do
    awk -v v="$variant" -v s="${sums[$variant]}" -v f="${sums[$first]}" -v r="$rounds" -v first="$first" \
        -v t="$seconds" -v w="${waits[$variant]}" -v fw="${waits[$first]}" 'BEGIN {
        printf "%-18s %8.0f adds/s on average, %.2fx %s; counting the waits %8.0f adds/s, %.2fx\n",
            v, s / r, s / f, first, s * t / (r * t + w), (s * t / (r * t + w)) / (f * t / (r * t + fw)) }'
done
# PostgreSQL's own work beside the adds: each autovacuum run (a vacuum or an ANALYZE, which
# computes the indexes' expressions for its sample unless their statistics are off) of the
# variants' tables, with its CPU time.
echo "== autovacuum during the run"
awk '/automatic (vacuum|analyze) of table "db_/ {
        kind = ($0 ~ /automatic vacuum/) ? "vacuum" : "analyze"
        table = $0; sub(/.*of table "/, "", table); sub(/".*/, "", table)
    }
    /system usage: CPU/ && table != "" {
        cpu = $0; sub(/.*user: /, "", cpu); sub(/ s,.*/, "", cpu)
        elapsed = $0; sub(/.*elapsed: /, "", elapsed); sub(/ s.*/, "", elapsed)
        if (elapsed + 0 >= 0.1) printf "%-8s %-36s CPU %6s s, elapsed %6s s\n", kind, table, cpu, elapsed
        table = ""
    }' "$work/postgres.log"
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
