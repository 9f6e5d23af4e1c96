#!/usr/bin/env bash
# Search on PostgreSQL: a private cluster (initdb, fsync on, shared_buffers
# SHARED_BUFFERS, default 13GB, in huge pages when this script may reserve them: see below)
# with an account of NOTES notes (default 1,000,000, about 200 bytes each, 30% Chinese,
# the vocabulary of benchmarks/search-postgresql.py), written as a database of the
# release before the search chunks holds them (its search entries left empty); the server
# then migrates it (steps search-chunks, notes-lz4, search-triples and search-fives: the copy and the
# indexes' builds, timed, their progress lines shown), and it is vacuumed and its search
# relations loaded into shared buffers (pg_prewarm) and checkpointed as docs/SCALING.md
# advises. Then it measures
# searches over REST one at a time (QUERIES of 3 or more characters and QUERIES of 1 or 2,
# each a first page of 50 and up to two keyset pages after it: p50/p99, and what the
# checkpointer wrote meanwhile, what of the searched relations was missing from shared
# buffers at its start and what the kernel read from disk), and 40 of each
# over a second account of 2,205 notes of 63 KB (139 MB; twice: its first touch, then
# settled, its notes' TOAST loaded, with queries of their own), the first account's
# searches again with queries of their own (SEED + 1: none read before) while another
# account adds WRITE_RATE notes a second, shows the plans PostgreSQL used (auto_explain),
# and measures durable adds through the legacy API (wrk, 64 connections) with the indexes
# and without them (in a copy of the database with the search indexes dropped), in the
# order with, without, without, with, twice, after a round of each not counted, each round
# from a CHECKPOINT and followed by the indexer's catch-up (timed).
#
#   benchmarks/search-postgresql.sh                 # about 45 minutes on 2 cores
#   NOTES=100000 QUERIES=50 benchmarks/search-postgresql.sh
#
# Overrides: NOTES, QUERIES (per class, default 200), SEED, ADD_SECONDS (default 5),
# WRITE_RATE (another account's notes a second during the searches' second round, default 100),
# SERVER_BINARY (this checkout's release build otherwise), PG_BIN, PREPARE_NICENESS (of the
# filling and the first index build, default 0), PAUSE_COMMAND (run with `stop` before
# each timed part and `cont` after it, e.g. a script that pauses other work on the machine),
# KEEP_DATA=1 (keep the cluster's folder, to look into it afterwards), SHARED_BUFFERS
# (in PostgreSQL's units, default 13GB: the relations a search reads over a million notes
# are 11.7 GB, 12.0 GB with the notes' TOAST, which the 139 MB account's pages read; 12GB
# until 2026-12-07, 2GB until 2026-12-06).
# Targets: p99 <= 10 ms (3+ characters), <= 50 ms (1-2), 139 MB account <= 50 ms, adds with
# the indexes >= 90% of adds without.
set -euo pipefail
cd "$(dirname "$0")/.."
notes=${NOTES:-1000000}
queries=${QUERIES:-200}
seed=${SEED:-15}
add_seconds=${ADD_SECONDS:-5}
write_rate=${WRITE_RATE:-100}
shared_buffers=${SHARED_BUFFERS:-13GB}
[[ $shared_buffers =~ ^[0-9]+(kB|MB|GB)$ ]] || { echo "SHARED_BUFFERS is a size such as 12GB (got '$shared_buffers')" >&2; exit 2; }
for value in "$notes" "$queries" "$seed" "$add_seconds" "$write_rate" "${PREPARE_NICENESS:-0}"; do
    [[ $value =~ ^[0-9]+$ ]] || { echo "NOTES, QUERIES, SEED, ADD_SECONDS, WRITE_RATE and PREPARE_NICENESS are whole numbers (got '$value')" >&2; exit 2; }
done
source benchmarks/postgresql-setup.sh
postgresql_tools wrk curl python3
server_binary

cluster_folder mynotes-search-pg
server_pid=""
writer_pid=""
paused=0
pause() { if [ -n "${PAUSE_COMMAND:-}" ] && [ "$paused" = 0 ]; then $PAUSE_COMMAND stop >&2; paused=1; fi; }
resume() { if [ "$paused" = 1 ]; then $PAUSE_COMMAND cont >&2; paused=0; fi; }
cleanup() {
    resume
    if [ -n "$writer_pid" ]; then kill -TERM "$writer_pid" 2>/dev/null || true; fi
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
    release_huge_pages
    if [ -n "${KEEP_DATA:-}" ]; then
        echo "the cluster is kept in $work/data (port $port; the logs beside it; database mynotes, and mynotes_without, its copy without the search indexes, if the adds rounds ran: their definitions are in $work/indexes.sql)" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
prepare() { nice -n "${PREPARE_NICENESS:-0}" "$@"; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$work/initdb.log"
# Shared buffers in huge pages (docs/SCALING.md): in 4 KB pages every backend takes a page
# fault the first time it touches each page of them, and a search's backends are new
# whenever a server starts (a year of one character's chunks, every page in shared
# buffers: 45 ms and 2,679 faults in a new backend, 26 ms after; in huge pages 17 ms
# either way). Reserved when this script may (root), and given back at the end.
memory_settings=("max_connections=200" "shared_buffers=$shared_buffers")
reserve_huge_pages "${memory_settings[@]}"
# Started at PREPARE_NICENESS (its backends fill the table and build the index), and set
# back to niceness 0 for the measurements.
prepare "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/data" -l "$work/postgres.log" -w -o \
    "-p $port -k $work -c listen_addresses=127.0.0.1 $(printf -- '-c %s ' "${memory_settings[@]}")-c huge_pages=$huge_pages" start >/dev/null
echo "shared_buffers $shared_buffers, huge_pages $huge_pages"
postmaster=$(head -n 1 "$work/data/postmaster.pid")
renice_cluster() { renice -n "$1" -p "$postmaster" $(pgrep -P "$postmaster") >/dev/null 2>&1 || true; }
"$pg_bin/psql" -qX "postgres://postgres@127.0.0.1:$port/postgres" -c "CREATE DATABASE mynotes"
database="postgres://postgres@127.0.0.1:$port/mynotes"
sql() { "$pg_bin/psql" -qAtX -v ON_ERROR_STOP=1 "$database" "$@"; }

# wait_for_indexer EMAIL: until the indexer has taken every change of the account, at most
# ten minutes.
wait_for_indexer() {
    local lag
    for _ in $(seq 6000); do
        lag=$(sql -c "SELECT a.change_seq - coalesce(p.indexed_seq, 0) FROM accounts a
            LEFT JOIN search_chunks_progress p ON p.account_id = a.id WHERE a.email = '$1'")
        [ "$lag" -le 0 ] && return 0
        sleep 0.1
    done
    echo "the indexer did not catch up with $1 in 10 minutes" >&2
    exit 1
}
start_server() {
    "$binary" serve --port 0 --database "$database" --quota 0 --quota-bytes 0 >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 30000); do
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

echo "== load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $notes notes"
token=$("$binary" accounts add many@example.com --database "$database" | tail -n 1)
check_token=$("$binary" accounts add check@example.com --database "$database" | tail -n 1)
writer_token=$("$binary" accounts add writer@example.com --database "$database" | tail -n 1)
account=$(sql -c "SELECT id FROM accounts WHERE email = 'many@example.com'")
large_token=$("$binary" accounts add large@example.com --database "$database" | tail -n 1)
large_account=$(sql -c "SELECT id FROM accounts WHERE email = 'large@example.com'")
# The database as the release before the indexes left it: no search index, no search
# entries, no record of their steps.
index_definitions=$(sql -c "SELECT pg_get_indexdef('search_chunks_triples'::regclass) || ';'
    || pg_get_indexdef('search_chunks_pieces'::regclass) || ';'
    || pg_get_indexdef('search_chunks_fives'::regclass) || ';'")
drop_indexes="DROP INDEX search_chunks_triples, search_chunks_pieces, search_chunks_fives"
echo "$index_definitions" >"$work/indexes.sql"
# The previous release's search entries stay, empty (they would hold the notes there; the
# step that makes the chunks reads the notes alone): its step is the one timed, with
# notes-lz4, which writes the notes compressed with pglz again with lz4.
sql -c "DROP TABLE search_chunks; DROP TABLE search_chunks_progress;
    DROP FUNCTION mynotes_text_chunks; DROP FUNCTION mynotes_chunk_pieces;
    DROP FUNCTION mynotes_chunk_triples; DROP FUNCTION mynotes_chunk_fives;
    ALTER TABLE notes ALTER COLUMN content SET COMPRESSION pglz,
        ALTER COLUMN folded_content SET COMPRESSION pglz;
    DELETE FROM schema_migrations
    WHERE name IN ('search-chunks', 'notes-lz4', 'search-triples', 'search-fives')"

# fill ACCOUNT_ID COUNT AVERAGE_BYTES SEED: straight into the table, the change feed's
# trigger off (one UPDATE of the account's row per note would take hours in one
# transaction); the totals and the feed as its migration makes them.
fill() {
    sql -c "CREATE UNLOGGED TABLE incoming (date text, content text, folded text)"
    prepare python3 benchmarks/search-postgresql.py notes "$2" "$3" 30 "$4" |
        sql -c "COPY incoming FROM STDIN"
    prepare "$pg_bin/psql" -qAtX -v ON_ERROR_STOP=1 "$database" <<SQL
ALTER TABLE notes DISABLE TRIGGER notes_written;
INSERT INTO notes (account_id, date, sort_key, content, folded_content, created_at, updated_at)
    SELECT $1, date, date, content, folded, 0, 0 FROM incoming ORDER BY date;
INSERT INTO note_changes (account_id, note_id, seq, created_seq, version, deleted, changed_at)
    SELECT account_id, id, row_number() OVER w, row_number() OVER w, version, false, updated_at
    FROM notes WHERE account_id = $1 WINDOW w AS (ORDER BY id);
UPDATE accounts SET note_count = t.count, note_bytes = t.bytes, change_seq = t.count
    FROM (SELECT count(*) AS count, sum(octet_length(content)) AS bytes FROM notes
        WHERE account_id = $1) t WHERE id = $1;
ALTER TABLE notes ENABLE TRIGGER notes_written;
DROP TABLE incoming;
VACUUM ANALYZE;
SQL
}
# The seconds since BEGAN (an $EPOCHREALTIME), with DECIMALS (default 1) places.
seconds_since() {
    awk -v a="$1" -v b="$EPOCHREALTIME" -v places="${2:-1}" 'BEGIN { printf "%.*f", places, b - a }'
}
echo "== filling the accounts"
began=$EPOCHREALTIME
fill "$account" "$notes" 200 "$seed"
# The second account: 2,205 long notes, 63 KB on average (139 MB).
fill "$large_account" 2205 63000 "$((seed + 1))"
echo "filled in $(seconds_since "$began" 0) s"
for id in "$account" "$large_account"; do
    sql -c "SELECT count(*) || ' notes, ' || round(sum(octet_length(content)) / 1e6) || ' MB of content, '
        || round(avg(octet_length(content))) || ' bytes each, '
        || round(100.0 * count(*) FILTER (WHERE content ~ '[一-龥]') / count(*)) || '% Chinese'
        FROM notes WHERE account_id = $id"
done

echo "== the server migrates the database (steps search-chunks: the chunks, their trigram index and their piece index; notes-lz4; search-triples: the three-character index, and the trigram index dropped; search-fives: the five-character index)"
began=$EPOCHREALTIME
prepare "$binary" accounts list --database "$database" 2>&1 >/dev/null | sed 's/^/    /'
echo "migrated in $(seconds_since "$began") s"
sql -c "SELECT 'table ' || pg_size_pretty(pg_table_size('notes')) || ', chunks '
    || pg_size_pretty(pg_table_size('search_chunks')) || ', triple index '
    || pg_size_pretty(pg_relation_size('search_chunks_triples')) || ', piece index '
    || pg_size_pretty(pg_relation_size('search_chunks_pieces')) || ', five index '
    || pg_size_pretty(pg_relation_size('search_chunks_fives')) || ', page index '
    || pg_size_pretty(pg_relation_size('notes_by_account_newest'))"

# What docs/SCALING.md tells an operator to do after the upgrade: notes-lz4 wrote every note
# again, and the new chunks have neither statistics nor a visibility map yet.
echo "== VACUUM ANALYZE after the upgrade, as docs/SCALING.md advises"
began=$EPOCHREALTIME
sql -c "VACUUM ANALYZE"
echo "vacuumed in $(seconds_since "$began") s"
# Also advised there: the search indexes, the chunks and the notes (not their TOAST, which
# the 139 MB account's pages read: it is loaded before that account's settled pass)
# loaded into shared buffers after an upgrade.
echo "== the search relations loaded into shared buffers (pg_prewarm)"
searched_relations="'search_chunks_triples', 'search_chunks_pieces', 'search_chunks_fives',
    'search_chunks', 'search_chunks_pkey', 'notes', 'notes_by_account_newest', 'notes_pkey'"
began=$EPOCHREALTIME
sql -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" \
    -c "SELECT string_agg(r || ' ' || pg_size_pretty(pg_prewarm(r::regclass) * 8192), ', ')
        FROM unnest(ARRAY[$searched_relations]) r"
echo "loaded in $(seconds_since "$began") s"
# And flushed: the indexes' builds left their last pages dirty in shared buffers, which the
# checkpointer would otherwise write out over the next minutes, while the first searches run.
echo "== CHECKPOINT before the server serves, as docs/SCALING.md advises"
sql -c "CREATE EXTENSION IF NOT EXISTS pg_buffercache" \
    -c "SELECT count(*) FILTER (WHERE isdirty) || ' dirty buffers ('
        || pg_size_pretty(count(*) FILTER (WHERE isdirty) * 8192) || ')' FROM pg_buffercache"
began=$EPOCHREALTIME
sql -c "CHECKPOINT"
echo "written in $(seconds_since "$began") s"
# And the machine's own: the page cache's dirty pages (the builds' files, anything else on
# the machine) written before the first pass rather than during it (see `checkpoints`).
dirty_page_cache() {
    awk '$1 == "Dirty:" || $1 == "Writeback:" { s += $2 } END { printf "%.0f MB", s / 1024 }' \
        /proc/meminfo
}
echo "== sync: $(dirty_page_cache) of dirty page cache"
began=$EPOCHREALTIME
sync
echo "written in $(seconds_since "$began") s"
# What the checkpointer and the kernel wrote while a pass ran: `checkpoints` before it,
# `checkpointed` after. On this 2-core machine a pass right after a gigabyte of dirty page
# cache (written with dd) ran at p99 17.3 ms, its next run 6.9 ms (the kept million notes,
# seed 15, 2026-12-06): the kernel's writeback and reclaim are shown so that a slow pass
# can be told from a slow search.
checkpoint_counts() {
    sql -c "SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter"
}
# Pages the kernel wrote out, pages its reclaim scanned (kswapd, then direct), major
# faults (code and data of mapped files read back from disk when first touched, after the
# kernel dropped them: this machine runs a DAMON scheme that pages out file pages no
# process maps once unused for a minute), and what it read from disk (pgpgin), which
# covers PostgreSQL's reads of pages its shared buffers lack: those are `read` calls, not
# faults.
kernel_counts() {
    awk '$1 == "pgpgout" { o = $2 } $1 == "pgscan_kswapd" { k = $2 } $1 == "pgscan_direct" { d = $2 }
        $1 == "pgmajfault" { m = $2 } $1 == "pgpgin" { i = $2 } END { print o, k, d, m, i }' /proc/vmstat
}
# How much of the relations a search reads is missing from shared buffers: each missing
# page is read from the kernel, from disk if the kernel dropped it too. The kept million
# notes with notes_pkey, notes_by_account_newest and search_chunks_pkey left out of
# pg_prewarm: a pass's first run had p99 12.2 ms and read 216 pages (2.6 MB from disk), the same queries again 6.2 ms;
# with every relation loaded, 8.2 ms and 6.8 ms (seed 23, 2026-12-07).
not_resident() {
    sql -c "WITH resident AS (
            SELECT relfilenode, count(*) AS pages FROM pg_buffercache
            WHERE reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
            GROUP BY relfilenode)
        SELECT coalesce(string_agg(r.name || ' ' || pg_size_pretty(r.missing * 8192), ', '), 'none')
        FROM (SELECT CASE WHEN c.relkind = 't' THEN 'notes'' TOAST' ELSE c.relname END AS name,
                pg_relation_size(c.oid) / 8192 - coalesce(b.pages, 0) AS missing
            FROM pg_class c LEFT JOIN resident b ON b.relfilenode = pg_relation_filenode(c.oid)
            WHERE c.oid = ANY(ARRAY[$searched_relations]::regclass[])
                OR c.oid = (SELECT reltoastrelid FROM pg_class WHERE oid = 'notes'::regclass)) r
        WHERE r.missing > 0"
}
checkpoints() {
    checkpoints_before=$(checkpoint_counts)
    kernel_before=$(kernel_counts)
    echo "dirty page cache at the start: $(dirty_page_cache); not in shared buffers: $(not_resident)"
}
checkpointed() {
    local after kernel
    after=$(checkpoint_counts)
    kernel=$(kernel_counts)
    echo "checkpoints during the pass: $(( ${after%%|*} - ${checkpoints_before%%|*} )),"\
        "$(( ${after##*|} - ${checkpoints_before##*|} )) buffers written"
    awk -v before="$kernel_before" -v after="$kernel" 'BEGIN { split(before, b); split(after, a)
        printf "the kernel meanwhile: %.0f MB read from disk, %.0f MB written out, %d pages"\
            " scanned by kswapd, %d by direct reclaim, %d major faults\n", (a[5] - b[5]) / 1024,
            (a[1] - b[1]) / 1024, a[2] - b[2], a[3] - b[3], a[4] - b[4] }'
}

renice_cluster 0
echo "== the fold of the filled notes is the store's: 300 of them written again over REST"
start_server
sql -c "SELECT content FROM notes WHERE account_id = $account ORDER BY random() LIMIT 300" >"$work/check.txt"
python3 - "$base" "$check_token" "$work/check.txt" <<'PY'
import http.client, json, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
connection = http.client.HTTPConnection(url.hostname, url.port)
for line in open(sys.argv[3], encoding="utf-8"):
    body = json.dumps({"content": line.rstrip("\n"), "date": "2026-01-01 00:00:00"})
    connection.request("POST", "/api/v1/notes", body, {"Authorization": f"Bearer {sys.argv[2]}", "Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 201, response.status
PY
# The indexer takes the check's notes once their stream pauses: it is done before the
# pass, which would otherwise share the machine with it.
began=$EPOCHREALTIME
wait_for_indexer check@example.com
echo "the indexer caught up $(seconds_since "$began") s after"
differing=$(sql -c "SELECT count(*) FROM notes c JOIN notes m ON m.content = c.content
    AND m.account_id = $account AND m.folded_content <> c.folded_content
    WHERE c.account_id = (SELECT id FROM accounts WHERE email = 'check@example.com')")
written=$(sql -c "SELECT count(*) FROM notes WHERE account_id = (SELECT id FROM accounts WHERE email = 'check@example.com')")
echo "$written written, $differing with a fold other than the filled one"
[ "$differing" = 0 ] || { echo "CHECK FAILED: the filled folded_content is not the store's" >&2; exit 1; }
sql -c "SELECT content FROM notes WHERE account_id = $account ORDER BY random() LIMIT 500" >"$work/sample.txt"

echo "== searches over REST, one at a time (load average $(cut -d' ' -f1-3 /proc/loadavg))"
pause
checkpoints
python3 benchmarks/search-postgresql.py measure "$base" "$token" "$queries" "$seed" 3 "$work/sample.txt"
checkpointed
resume
sql -c "SELECT left(content, 2000) FROM notes WHERE account_id = $large_account ORDER BY random() LIMIT 200" >"$work/large-sample.txt"
echo "== the 139 MB account: 40 queries of each class, first pages (load average $(cut -d' ' -f1-3 /proc/loadavg))"
pause
checkpoints
python3 benchmarks/search-postgresql.py measure "$base" "$large_token" 40 "$seed" 1 "$work/large-sample.txt" "139 MB: "
checkpointed
# The pass above is the account's first touch since the million-note searches filled the
# caches (a query's notes read from disk: 52 ms against 29 - 37 ms in one run); this one
# comes once its pages are in memory, as they are on a server in use, with queries of its
# own: the same ones again would read only pages the first pass brought into shared buffers
# (the million-note account's queries repeated: p99 7.3 ms, against 25.9 ms the first
# time, 2026-12-06). Its notes' text is in the notes' TOAST, which the first pass read only
# in part: new queries' pages read the rest from disk (the kept cluster, seed 18: p99
# 50.1 ms and 29 MB read from disk; the same queries again 36.4 ms), so it is loaded first.
echo "== the notes' TOAST loaded into shared buffers: $(sql -c "SELECT pg_size_pretty(pg_prewarm(reltoastrelid) * 8192) FROM pg_class WHERE oid = 'notes'::regclass")"
echo "== the 139 MB account again, settled, new queries (load average $(cut -d' ' -f1-3 /proc/loadavg))"
checkpoints
python3 benchmarks/search-postgresql.py measure "$base" "$large_token" 40 "$((seed + 1))" 1 "$work/large-sample.txt" "139 MB, settled: "
checkpointed
resume
# Other users write while people search: their notes go through the indexer's batches and
# the GIN indexes' pending lists, which every search's lookups read. New queries, as above.
echo "== searches again, new queries, while another account adds $write_rate notes a second over REST (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 benchmarks/search-postgresql.py write "$base" "$writer_token" "$write_rate" "$seed" >"$work/writes.txt" &
writer_pid=$!
pause
checkpoints
python3 benchmarks/search-postgresql.py measure "$base" "$token" "$queries" "$((seed + 1))" 3 "$work/sample.txt" "under writes: "
checkpointed
resume
kill -TERM "$writer_pid"
wait "$writer_pid" || { echo "the writer failed" >&2; exit 1; }
writer_pid=""
cat "$work/writes.txt"
stop_server

echo "== the plans PostgreSQL chose for the server's statements (auto_explain)"
sql -c "LOAD 'auto_explain'" -c "ALTER SYSTEM SET session_preload_libraries = 'auto_explain'" \
    -c "ALTER SYSTEM SET auto_explain.log_min_duration = 0" -c "SELECT pg_reload_conf()" >/dev/null
start_server
: >"$work/postgres.log"
for query in "" "q=meeting" "q=zqxj" "q=%E5%A4%87%E5%BF%98%E5%BD%95" "q=%E4%BC%9A%E8%AE%AE" "q=ka"; do
    curl -sf -o /dev/null -H "Authorization: Bearer $token" "$base/api/v1/notes?limit=50&$query"
    echo "-- GET /api/v1/notes?limit=50&$query"
    # The statements on notes (not the token check), each with its plan's main lines.
    awk '/Query Text:/ { text = $0; sub(/.*Query Text: /, "", text); gsub(/[ \t]+/, " ", text)
            shown = text ~ /FROM notes|FROM \($|note_count/; if (shown) print "   " substr(text, 1, 90) }
        /Query Text: SELECT set_config/ { shown = 0 }
        shown && /(Scan|Sort|Limit|BitmapAnd).*cost=|Index Cond|Recheck Cond/ {
            line = $0; sub(/^[ \t]*/, "", line); print "      " substr(line, 1, 110) }' \
        "$work/postgres.log"
    : >"$work/postgres.log"
done
stop_server
sql -c "LOAD 'auto_explain'" -c "ALTER SYSTEM RESET session_preload_libraries" \
    -c "ALTER SYSTEM RESET auto_explain.log_min_duration" \
    -c "SELECT pg_reload_conf()" >/dev/null

# Without the indexes: a copy of the database (its notes, accounts and tokens) with the
# search indexes dropped, so that the rounds alternate without building the indexes again
# between them (25 minutes, whose WAL's checkpoints then ran during the next round: 2,736
# adds/s against 4,616 - 7,157 in the others, at 21b70c1).
echo "== the database copied, its copy without the search indexes"
began=$EPOCHREALTIME
sql -c "CHECKPOINT"
"$pg_bin/psql" -qX "postgres://postgres@127.0.0.1:$port/postgres" \
    -c "CREATE DATABASE mynotes_without TEMPLATE mynotes STRATEGY FILE_COPY"
with_database=$database
without_database="postgres://postgres@127.0.0.1:$port/mynotes_without"
"$pg_bin/psql" -qAtX -v ON_ERROR_STOP=1 "$without_database" -c "$drop_indexes"
echo "copied in $(seconds_since "$began") s"

echo "== durable adds, legacy API, wrk 64 connections, ${add_seconds}s each (load average $(cut -d' ' -f1-3 /proc/loadavg))"
# adds DATABASE: one round, from a checkpoint (none of the round before left to write);
# sets rate (adds a second) and caught_up (how long the indexer then took to catch up,
# the server idle: it leaves a stream of adds alone until the stream pauses).
adds() {
    local database=$1 began
    sql -c "CHECKPOINT"
    start_server
    local path="/mynotes/webservice.php?email=writer@example.com&token=$writer_token&action=add&date=2026-11-29+12:00&content=Benchmark+note+%E4%BC%9A%E8%AE%AE+meeting+$RANDOM"
    pause
    rate=$(wrk -t1 -c64 -d"${add_seconds}s" "$base$path" | awk '/Requests\/sec/ { print $2 }')
    resume
    began=$EPOCHREALTIME
    wait_for_indexer writer@example.com
    caught_up=$(seconds_since "$began")
    stop_server
}
# round with|without [LABEL]: one round in that database, printed.
round() {
    if [ "$1" = with ]; then adds "$with_database"; else adds "$without_database"; fi
    echo "${2:-}$1 the indexes: $rate adds/s; the indexer caught up $caught_up s after"
}
# A round of each first, not counted: the first round after the copy ran at 0.64 times
# the rate of the last ones (NOTES=20000).
round with "warm-up, "
round without "warm-up, "
with=() without=()
for which in with without without with with without without with; do
    round "$which"
    if [ "$which" = with ]; then with+=("$rate"); else without+=("$rate"); fi
done
echo "adds/s with the indexes ${with[*]}, without them ${without[*]}"
awk -v a="${with[*]}" -v b="${without[*]}" 'BEGIN {
    n = split(a, w, " "); split(b, o, " "); sw = 0; so = 0
    for (i = 1; i <= n; i++) { sw += w[i]; so += o[i] }
    printf "adds with the indexes / without: %.2f (target >= 0.90)\n", sw / so }'
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
