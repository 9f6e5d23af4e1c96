#!/usr/bin/env bash
# Issue 9, item 9: h2o's event loop (libh2o-evloop) against libmicrohttpd 0.9.75 configured as
# HTTPCore is, both answering the same 600-byte JSON, with nginx serving those bytes statically
# as the ceiling in the same run. Server on core 0, `wrk -t1` on core 1.
#
# Per round, each scenario on a freshly started server:
#   - 64 connections: req/s, p50/p99, server CPU per request, for nginx and for both servers
#     answering inline (on the loop thread) and async (the answer made on a store thread and
#     handed back: h2o_multithread queue, or MHD suspend/resume);
#   - 1,000 and 4,000 keep-alive connections (MANY="1000 4000"): the same, plus the server's
#     VmRSS at the end of the run and VmHWM;
#   - 1,000 idle keep-alive connections, each having served one request (a short one, then one
#     with a 64 KiB target): the server's RSS growth per connection (idle.py).
# Rounds alternate the order of the servers. A table follows, with ratios to the same round's
# nginx. The cross-thread wake-up's cost is async minus inline CPU per request.
#
# Usage: spikes/evloop/run.sh [seconds per scenario, default 5] [rounds, default 2]
# Environment: MANY="1000 4000" (connection counts beyond 64), SKIP_CHECKS=1.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-5}
rounds=${2:-2}
many=${MANY:-1000 4000}
for value in "$seconds" "$rounds" $many; do
    [[ $value =~ ^[0-9]+$ ]] && [ "$value" -ge 1 ] ||
        { echo "usage: spikes/evloop/run.sh [seconds] [rounds] (got '$value')" >&2; exit 2; }
done
export PATH="$PATH:/usr/sbin:/sbin"
need() { # command package
    command -v "$1" >/dev/null && return
    echo "installing $2" >&2
    $([ "$(id -u)" = 0 ] || echo sudo) apt-get install -y -qq "$2" >/dev/null
}
need wrk wrk
need nginx nginx
need curl curl
need python3 python3
need taskset util-linux
need pkg-config pkg-config
dpkg -s libh2o-evloop-dev libmicrohttpd-dev >/dev/null 2>&1 ||
    $([ "$(id -u)" = 0 ] || echo sudo) apt-get install -y -qq libh2o-evloop-dev libmicrohttpd-dev >/dev/null
make -s all

largest=0
for n in $many 1000; do [ "$n" -gt "$largest" ] && largest=$n; done
want_fds=$((largest + 256))
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$want_fds" ]; then
    ulimit -Sn "$want_fds" 2>/dev/null || {
        echo "the hard limit on open files ($(ulimit -Hn)) is below $want_fds: lower MANY" >&2
        exit 1
    }
fi

work=$(mktemp -d)
chmod 755 "$work"
pid=""
nginx_master=""
stop_pid() { # pid: SIGTERM, then SIGKILL after 5 s
    kill -TERM "$1" 2>/dev/null || return 0
    for _ in $(seq 250); do kill -0 "$1" 2>/dev/null || break; sleep 0.02; done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
cleanup() {
    [ -n "$pid" ] && stop_pid "$pid"
    [ -n "$nginx_master" ] && stop_pid "$nginx_master"
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_answer() { # url: up to 5 s
    for _ in $(seq 250); do curl -sf -o /dev/null "$1" && return 0; sleep 0.02; done
    echo "no answer from $1" >&2
    exit 1
}

# --- nginx: the same bytes, statically, configured as benchmarks/run.sh does --------------------
mkdir -p "$work/www" "$work/tmp"
start_nginx() { # sets port and pid (the worker) and nginx_master
    port=$(free_port)
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
    sendfile off;
    keepalive_timeout 65s;
    keepalive_requests 1000000000;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;
    types { }
    default_type application/json;
    server {
        listen 127.0.0.1:$port backlog=4096;
        root $work/www;
        location / { try_files /answer =404; }
    }
}
CONF
    taskset -c 0 nginx -p "$work/" -c "$work/nginx.conf" -e "$work/nginx.error.log" >>"$work/nginx.out" 2>&1 &
    nginx_master=$!
    wait_answer "http://127.0.0.1:$port/"
    pid=$(pgrep -P "$nginx_master" | head -n 1)
}
stop_nginx() { stop_pid "$nginx_master"; nginx_master=""; pid=""; }

start_server() { # h2o|mhd inline|async: sets port and pid
    port=$(free_port)
    taskset -c 0 "./$1_server" "$port" "$2" >"$work/server.log" 2>&1 &
    pid=$!
    wait_answer "http://127.0.0.1:$port/"
}
stop_server() { stop_pid "$pid"; pid=""; }

start() { # variant: nginx | h2o-inline | h2o-async | mhd-inline | mhd-async
    if [ "$1" = nginx ]; then start_nginx; else start_server "${1%-*}" "${1#*-}"; fi
}
stop() { if [ "$1" = nginx ]; then stop_nginx; else stop_server; fi; }

# --- correctness: same bytes everywhere; the limits ------------------------------------------------
start h2o-inline
curl -sf -o "$work/www/answer" "http://127.0.0.1:$port/"
chmod 644 "$work/www/answer"
stop h2o-inline
raw_status() { # port target-bytes: the status line, or "closed"
    python3 - "$@" <<'PY'
import socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port), timeout=5)
try:
    s.sendall(b"GET /?" + b"a" * (n - 2) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
except OSError:
    pass  # refused before all was sent: the answer may still be there
try:
    line = s.recv(200).split(b"\r\n", 1)[0].decode()
except OSError as e:
    line = ""
print(line or "closed without an answer")
PY
}
if [ -z "${SKIP_CHECKS:-}" ]; then
    echo "checks (same bytes; request target limit 64 KiB → 414; headers 16 KiB → 431; keep-alive):"
    for variant in nginx h2o-inline h2o-async mhd-inline mhd-async; do
        start "$variant"
        curl -sf -o "$work/check" "http://127.0.0.1:$port/" && cmp -s "$work/check" "$work/www/answer" ||
            { echo "$variant: not the same answer" >&2; exit 1; }
        type=$(curl -sf -o /dev/null -w '%{content_type}' "http://127.0.0.1:$port/")
        reused=$(curl -sv -o /dev/null -o /dev/null "http://127.0.0.1:$port/a" "http://127.0.0.1:$port/b" 2>&1 | grep -c 'Re-using' || true)
        line="  $variant: 600-byte answer ok, $type, keep-alive reused $reused"
        if [ "$variant" != nginx ]; then
            printf 'url = "http://127.0.0.1:%s/?%s"\n' "$port" "$(head -c 65534 /dev/zero | tr '\0' a)" >"$work/url64k"
            printf 'url = "http://127.0.0.1:%s/?%s"\n' "$port" "$(head -c 65535 /dev/zero | tr '\0' a)" >"$work/url64k1"
            at=$(curl -s -o /dev/null -w '%{http_code}' -K "$work/url64k")
            over=$(curl -s -o /dev/null -w '%{http_code}' -K "$work/url64k1")
            headers=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 17000 /dev/zero | tr '\0' b)" "http://127.0.0.1:$port/")
            [ "$at" = 200 ] && [ "$over" = 414 ] && [ "$headers" = 431 ] ||
                { echo "$variant: target 65,536 → $at, 65,537 → $over, 17 kB header → $headers" >&2; exit 1; }
            line="$line; curl: target 65,536 B → $at, 65,537 B → $over, 17 kB header → $headers;"
            line="$line 500 kB target → $(raw_status "$port" 500000)"
        fi
        echo "$line"
        stop "$variant"
    done
fi

# --- measurements ---------------------------------------------------------------------------------
hz=$(getconf CLK_TCK)
TIMEFORMAT='%3U %3S' # bash's `time`: wrk's CPU seconds, user and system
process_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
core_ticks() { awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
others() { # before after mine-percent
    awk -v b="$1" -v a="$2" -v mine="$3" 'BEGIN { split(b, x, " "); split(a, y, " ")
        busy = y[1] - x[1]; all = busy + y[2] - x[2]; o = (all > 0 ? busy / all * 100 : 0) - mine
        printf "%.0f", (o > 0 ? o : 0) }'
}
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    f = u == "us" ? 0.001 : u == "ms" ? 1 : u == "s" ? 1000 : u == "m" ? 60000 : -1
    if (f < 0) print "?"; else printf "%.2f", n * f }'; }
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

results="$work/results"
: >"$results"
# One measurement: a fresh server, wrk for $seconds; a line of key=value into $results.
measure() { # round variant connections
    local round=$1 variant=$2 conns=$3
    start "$variant"
    taskset -c 1 wrk -t1 -c"$conns" -d1s "http://127.0.0.1:$port/" >/dev/null 2>&1 || true # warm-up
    local before c0 c1 rss_mid
    before=$(process_ticks "$pid")
    c0=$(core_ticks 0)
    c1=$(core_ticks 1)
    { time taskset -c 1 wrk -t1 -c"$conns" -d"${seconds}s" --timeout 10s --latency "http://127.0.0.1:$port/" \
        >"$work/wrk.out" 2>&1; } 2>"$work/wrk.time" &
    local wrk_pid=$!
    sleep "$(awk -v s="$seconds" 'BEGIN { print s - 0.5 }')"
    rss_mid=$(status_kb "$pid" VmRSS) # all connections open and busy
    wait "$wrk_pid" || { echo "wrk failed:" >&2; cat "$work/wrk.out" >&2; exit 1; }
    local after a0 a1 hwm
    after=$(process_ticks "$pid")
    a0=$(core_ticks 0)
    a1=$(core_ticks 1)
    hwm=$(status_kb "$pid" VmHWM)
    local out rps n p50 p99 errs cpu_us core others0 others1
    out=$(<"$work/wrk.out")
    rps=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' <<<"$out")
    n=$(awk '/requests in/ { print $1 }' <<<"$out")
    p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
    p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
    errs=$(awk '/Non-2xx/ { e += $NF } /Socket errors/ { gsub(/,/, ""); e += $4 + $6 + $8 + $10 } END { print e + 0 }' <<<"$out")
    cpu_us=$(awk -v t=$((after - before)) -v n="$n" -v hz="$hz" 'BEGIN { printf "%.1f", (n > 0 ? t / hz * 1e6 / n : 0) }')
    core=$(awk -v t=$((after - before)) -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.0f", t / hz / s * 100 }')
    others0=$(others "$c0" "$a0" "$core")
    local wrk_core
    wrk_core=$(awk -v s="$seconds" '{ printf "%.0f", ($1 + $2) / s * 100 }' "$work/wrk.time")
    others1=$(others "$c1" "$a1" "$wrk_core")
    echo "round=$round variant=$variant conns=$conns rps=$rps p50=$p50 p99=$p99 cpu=$cpu_us core=$core others0=$others0 wrk=$wrk_core others1=$others1 rss=$rss_mid hwm=$hwm errors=$errs" |
        tee -a "$results"
    stop "$variant"
}
idle() { # round variant target-bytes: RSS per idle keep-alive connection
    local round=$1 variant=$2 target=$3 out
    start "$variant"
    out=$(python3 idle.py "$port" "$pid" 1000 "$target")
    read -r rss_before rss_after hwm per <<<"$out"
    echo "round=$round variant=$variant idle_target=$target rss_before=$rss_before rss_after=$rss_after hwm=$hwm per_conn=$per" |
        tee -a "$results"
    stop "$variant"
}

variants=(nginx h2o-inline mhd-inline h2o-async mhd-async)
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo
echo "${seconds}s per scenario, $rounds rounds, server on core 0, wrk -t1 on core 1; load average $load_start on $(nproc) cores"
echo "(core: the server's share of core 0, others0: what the rest of the machine took of core 0; wrk, others1: the same on core 1)"
for round in $(seq "$rounds"); do
    order=("${variants[@]}")
    if [ $((round % 2)) = 0 ]; then # alternate: reverse the servers, nginx still first
        order=(nginx mhd-async h2o-async mhd-inline h2o-inline)
    fi
    for conns in 64 $many; do
        for variant in "${order[@]}"; do measure "$round" "$variant" "$conns"; done
    done
    for variant in nginx h2o-inline mhd-inline; do
        idle "$round" "$variant" 100
        # nginx refuses a 64 KiB target with its default large_client_header_buffers (8 KiB)
        [ "$variant" = nginx ] || idle "$round" "$variant" 65536
    done
done
load_end=$(cut -d ' ' -f 1-3 /proc/loadavg)

# --- the table ------------------------------------------------------------------------------------
echo
echo "load average: $load_start at the start, $load_end at the end ($(nproc) cores)"
awk '
function field(line, key,   i, n, kv) { n = split(line, kv, " "); for (i = 1; i <= n; i++) if (index(kv[i], key "=") == 1) return substr(kv[i], length(key) + 2); return "" }
{ r = field($0, "round"); v = field($0, "variant"); c = field($0, "conns"); t = field($0, "idle_target")
  if (c != "") { k = r SUBSEP v SUBSEP c; rps[k] = field($0, "rps"); cpu[k] = field($0, "cpu"); p50[k] = field($0, "p50"); p99[k] = field($0, "p99")
                 rss[k] = field($0, "rss"); hwm[k] = field($0, "hwm"); err[k] = field($0, "errors"); core[k] = field($0, "core"); o0[k] = field($0, "others0"); o1[k] = field($0, "others1"); wk[k] = field($0, "wrk")
                 if (!(c in seen)) { seen[c] = 1; cs[++nc] = c } if (!(r in rs)) { rs[r] = 1; rounds[++nr] = r } }
  else { k = r SUBSEP v SUBSEP t; per[k] = field($0, "per_conn"); idle_base[k] = field($0, "rss_before"); idle_after[k] = field($0, "rss_after") } }
END {
  split("nginx h2o-inline mhd-inline h2o-async mhd-async", vs, " ")
  printf "\n| round | conns | server | req/s | ×nginx | CPU µs/req | nginx CPU ÷ its | p50 ms | p99 ms | server core (others) | wrk core (others) | VmRSS MiB (busy) | VmHWM MiB | errors |\n"
  printf "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
  for (i = 1; i <= nr; i++) for (j = 1; j <= nc; j++) for (m = 1; m <= 5; m++) {
    r = rounds[i]; c = cs[j]; v = vs[m]; k = r SUBSEP v SUBSEP c; n = r SUBSEP "nginx" SUBSEP c
    if (!(k in rps)) continue
    printf "| %s | %s | %s | %s | %.2f | %s | %.2f | %s | %s | %s%% (%s%%) | %s%% (%s%%) | %.1f | %.1f | %s |\n", r, c, v, rps[k], (rps[n] > 0 ? rps[k] / rps[n] : 0), cpu[k],
      (cpu[k] > 0 ? cpu[n] / cpu[k] : 0), p50[k], p99[k], core[k], o0[k], wk[k], o1[k], rss[k] / 1024, hwm[k] / 1024, err[k]
  }
  printf "\nCross-thread wake-up (async − inline CPU per request, same round and connections):\n\n| round | conns | h2o µs | MHD µs |\n| --- | --- | --- | --- |\n"
  for (i = 1; i <= nr; i++) for (j = 1; j <= nc; j++) {
    r = rounds[i]; c = cs[j]
    printf "| %s | %s | %+.1f | %+.1f |\n", r, c, cpu[r SUBSEP "h2o-async" SUBSEP c] - cpu[r SUBSEP "h2o-inline" SUBSEP c], cpu[r SUBSEP "mhd-async" SUBSEP c] - cpu[r SUBSEP "mhd-inline" SUBSEP c]
  }
  printf "\nIdle keep-alive connections (1,000, each after one request): server RSS growth per connection\n\n| round | server | after a short request | after a 64 KiB request target | RSS before → after (short), MiB |\n| --- | --- | --- | --- | --- |\n"
  split("nginx h2o-inline mhd-inline", is, " ")
  for (i = 1; i <= nr; i++) for (m = 1; m <= 3; m++) {
    r = rounds[i]; v = is[m]; k = r SUBSEP v SUBSEP 100; l = r SUBSEP v SUBSEP 65536
    printf "| %s | %s | %.1f KiB | %s | %.1f → %.1f |\n", r, v, per[k], (l in per ? sprintf("%.1f KiB", per[l]) : "— (refused)"), idle_base[k] / 1024, idle_after[k] / 1024
  }
}' "$results"
