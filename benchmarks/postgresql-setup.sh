# What the PostgreSQL benchmarks (search-postgresql.sh, search-postgresql-adds.sh) share
# before they start their private cluster. Sourced, not run: it defines functions only.

# postgresql_tools TOOL...: sets pg_bin (PG_BIN, or Debian's PostgreSQL 15) and exits with 2,
# naming what to install, when initdb, pg_ctl, psql or one of TOOL is missing.
postgresql_tools() {
    pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
    local tool
    for tool in initdb pg_ctl psql; do
        [ -x "$pg_bin/$tool" ] || { echo "no $pg_bin/$tool: scripts/install-deps.sh --with-postgresql (or set PG_BIN)" >&2; exit 2; }
    done
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$tool is not installed (apt-get install $tool)" >&2; exit 2; }
    done
}

# server_binary: sets binary to SERVER_BINARY, or to this checkout's release build (built).
server_binary() {
    if [ -n "${SERVER_BINARY:-}" ]; then
        binary=$SERVER_BINARY
    else
        swift build -c release --product mynotes-server >/dev/null
        binary=$(swift build -c release --show-bin-path)/mynotes-server
    fi
}

# cluster_folder PREFIX: sets work to a new folder /tmp/PREFIX.XXXXXX that PostgreSQL may
# write, and as_postgres to the command that runs PostgreSQL's tools as its own user when
# this script runs as root (PostgreSQL refuses to run as root).
cluster_folder() {
    work=$(mktemp -d "/tmp/$1.XXXXXX")
    chmod 755 "$work"
    as_postgres=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$work"
        as_postgres=(runuser -u postgres --)
    fi
}

# reserve_huge_pages SETTING...: after initdb into $work/data, reserves as many huge pages
# as PostgreSQL says a cluster with those settings (name=value: shared_buffers and
# max_connections decide its shared memory) needs
# (`postgres -C shared_memory_size_in_huge_pages`) and sets huge_pages to on, when this
# script may (root: /proc/sys/vm/nr_hugepages); sets it to try otherwise, and when the
# kernel could not find that much memory free. release_huge_pages gives them back.
reserve_huge_pages() {
    huge_pages=try
    huge_pages_before=""
    local file=/proc/sys/vm/nr_hugepages wanted total setting options=()
    [ -w "$file" ] || return 0
    for setting in "$@"; do options+=(-c "$setting"); done
    wanted=$("${as_postgres[@]}" "$pg_bin/postgres" -D "$work/data" "${options[@]}" \
        -C shared_memory_size_in_huge_pages 2>/dev/null) || return 0
    [[ $wanted =~ ^[0-9]+$ ]] && [ "$wanted" -gt 0 ] || return 0
    huge_pages_before=$(cat "$file")
    total=$((huge_pages_before + wanted))
    echo "$total" >"$file" 2>/dev/null || true
    if [ "$(cat "$file")" -lt "$total" ]; then
        # Free memory in pieces of 2 MB: the kernel's cache given back and memory compacted
        # (before the cluster is filled, so no measure reads through an emptied cache).
        sync
        echo 1 >/proc/sys/vm/drop_caches 2>/dev/null || true
        echo 1 >/proc/sys/vm/compact_memory 2>/dev/null || true
        echo "$total" >"$file" 2>/dev/null || true
    fi
    if [ "$(cat "$file")" -ge "$total" ]; then
        huge_pages=on
    else
        release_huge_pages
    fi
}
release_huge_pages() {
    if [ -n "${huge_pages_before:-}" ]; then
        echo "$huge_pages_before" >/proc/sys/vm/nr_hugepages || true
        huge_pages_before=""
    fi
}
