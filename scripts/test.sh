#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests and integration tests
# that start real servers on ephemeral loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-browser --with-shells --with-postgresql
# Issue 13: promtool, openssl, systemd-analyze and prometheus-client for OperationsTests.
scripts/operations-tools.sh
swift build --build-tests
# The load suites run alone, after the rest (scripts/test-suites.sh says why).
source scripts/test-suites.sh
if [ $# -gt 0 ]; then
    swift test --skip-build "$@"
else
    swift test --skip-build --skip "$load_suites"
    swift test --skip-build --no-parallel --filter "$load_suites"
    # --- Issue 11: PostgreSQL ------------------------------------------------------------
    # The store suites above ran against SQLite and PostgreSQL, and the cluster suites ran
    # server processes on PostgreSQL behind haproxy; each test process starts its own
    # private cluster (initdb/pg_ctl as the postgres user, in a temporary folder). Here the
    # legacy and REST rule suites run once more with every test server on PostgreSQL.
    MYNOTES_TEST_STORE=postgresql swift test --skip-build \
        --filter 'MyNotesServiceTests|RESTTests' --skip "$load_suites"
    # --- end of issue 11 -----------------------------------------------------------------
fi
# --- Fuzzing and sanitizers (issue 10) --------------------------------------------------
# Every parser of outside input under libFuzzer for 20 s each (scripts/fuzz.sh), then the
# Swift suite under AddressSanitizer in a build of its own, without the load suites and
# the time-limited tests (scripts/test-suites.sh). Leak checking is off:
# at exit LeakSanitizer reports what Swift globals, unfinished tasks and Foundation's
# libcurl still hold, in every executable the suite starts (the fuzz targets keep it on).
# README, "Fuzzing and sanitizers", has the times; ThreadSanitizer is scripts/test-tsan.sh.
scripts/fuzz.sh all 20
swift build --build-tests --sanitize=address --scratch-path .build-asan
ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --sanitize=address --scratch-path .build-asan \
    --skip "$load_suites|$time_limited_tests"
# --- end of fuzzing and sanitizers -----------------------------------------------------------
scripts/test-schemathesis.sh
# --- Issue 10 (faults-soak): a 30-second soak of every endpoint on the debug build already
# built above (benchmarks/soak.sh; README "Soak"): 0 errors, RSS and open descriptors flat
# after the warm-up, the database sound afterwards.
SERVER_BINARY="$(swift build --show-bin-path)/mynotes-server" SOAK_INTERVAL=5 benchmarks/soak.sh 0.5
# --- end of issue 10's soak
scripts/test-web-unit.sh
scripts/test-browser.sh
