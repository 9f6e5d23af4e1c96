#!/usr/bin/env bash
# The idle-connection memory of the real server, measured as run.sh measures the spike's
# servers: N keep-alive connections (1,000 by default) that have each been answered one
# request and then stay idle (idle.py), against nginx serving a file in the same run.
# Prints each server's VmRSS before and after, its VmHWM, and the growth per connection.
#
#   spikes/evloop/idle-server.sh [connections]
# Optional environment: SERVER_BINARY=path (else a release build of this checkout).
set -euo pipefail
cd "$(dirname "$0")"
count=${1:-1000}
[[ $count =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] || { echo "usage: idle-server.sh [connections]" >&2; exit 2; }
export PATH="$PATH:/usr/sbin:/sbin"
want_fds=$((count + 256))
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$want_fds" ]; then
    ulimit -Sn "$want_fds"
fi
if [ -n "${SERVER_BINARY:-}" ]; then
    binary=$SERVER_BINARY
else
    (cd ../.. && swift build -c release --product mynotes-server >/dev/null)
    binary=$(cd ../.. && swift build -c release --show-bin-path)/mynotes-server
fi

work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_answer() { # url: up to 10 s
    for _ in $(seq 500); do curl -sf -o /dev/null "$1" && return 0; sleep 0.02; done
    echo "no answer from $1" >&2
    exit 1
}
report() { # name port pid
    read -r before after hwm per < <(python3 idle.py "$2" "$3" "$count" 100)
    printf '%-15s VmRSS %6d -> %6d kB, VmHWM %6d kB, %5.1f KiB per idle connection\n' \
        "$1" "$before" "$after" "$hwm" "$per"
}

# nginx, configured as run.sh configures it, serving a 600-byte file.
mkdir -p "$work/www" "$work/tmp"
head -c 600 /dev/zero | tr '\0' 'x' >"$work/www/answer"
nginx_port=$(free_port)
cat >"$work/nginx.conf" <<CONF
daemon off;
master_process on;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx.error.log warn;
worker_rlimit_nofile $want_fds;
events { worker_connections $want_fds; }
http {
    access_log off;
    keepalive_timeout 65s;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;
    types { }
    default_type application/json;
    server {
        listen 127.0.0.1:$nginx_port backlog=4096;
        root $work/www;
        location / { try_files /answer =404; }
    }
}
CONF
nginx -p "$work/" -c "$work/nginx.conf" -e "$work/nginx.error.log" >>"$work/nginx.out" 2>&1 &
pids+=($!)
wait_answer "http://127.0.0.1:$nginx_port/"
report nginx "$nginx_port" "$(pgrep -P "${pids[0]}" | head -n 1)"

# The server, with its default configuration; "/" is the browser app's page.
server_port=$(free_port)
"$binary" serve --port "$server_port" --database "$work/notes.sqlite" >"$work/server.log" 2>&1 &
pids+=($!)
wait_answer "http://127.0.0.1:$server_port/"
report mynotes-server "$server_port" "${pids[1]}"
