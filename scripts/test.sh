#!/usr/bin/env bash
# The tests, in two tiers.
#
#   scripts/test.sh            the full run, what CI calls: the lint, every Swift suite
#                              (SQLite and PostgreSQL), the load suites alone, fuzzing,
#                              AddressSanitizer, the API's schema fuzzing, a soak, the web
#                              app's unit tests and the browser suite (35-45 minutes here)
#   scripts/test.sh --quick    the unit and in-process suites: no PostgreSQL, no browser,
#                              no sanitizer build, no load, no child processes (minutes)
#   scripts/test.sh ARGS...    `swift test` with ARGS on a fresh build, e.g. --filter RESTTests
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/test-suites.sh

if [ "${1:-}" = --quick ]; then
    shift
    scripts/install-deps.sh
    swift format lint --strict --parallel -r Sources Tests
    swift build --build-tests
    MYNOTES_TEST_SKIP_POSTGRESQL=1 swift test --skip-build \
        --skip "$load_suites|$time_limited_tests|$process_suites" "$@"
    exit
fi

scripts/install-deps.sh --with-browser --with-shells --with-postgresql
# promtool, openssl, systemd-analyze and prometheus-client, for OperationsTests.
scripts/operations-tools.sh
# A formatting finding fails the run before anything is built.
swift format lint --strict --parallel -r Sources Tests
swift build --build-tests
if [ $# -gt 0 ]; then
    swift test --skip-build "$@"
    exit
fi
# The load suites run alone, after the rest (scripts/test-suites.sh says why).
swift test --skip-build --skip "$load_suites"
swift test --skip-build --no-parallel --filter "$load_suites"
# The store suites above ran against SQLite and PostgreSQL, and the cluster suites ran
# server processes on PostgreSQL behind haproxy; each test process starts its own private
# cluster (initdb/pg_ctl as the postgres user, in a temporary folder). Here the legacy and
# REST rule suites run once more with every test server on PostgreSQL.
MYNOTES_TEST_STORE=postgresql swift test --skip-build \
    --filter 'MyNotesServiceTests|RESTTests' --skip "$load_suites"

# Every parser of outside input under libFuzzer for 20 s each (scripts/fuzz.sh), then the
# Swift suite under AddressSanitizer in a build of its own, without the load suites and the
# time-limited tests (scripts/test-suites.sh). Leak checking is off: at exit LeakSanitizer
# reports what Swift globals, unfinished tasks and Foundation's libcurl still hold, in every
# executable the suite starts (the fuzz targets keep it on). ThreadSanitizer is
# scripts/test-tsan.sh.
scripts/fuzz.sh all 20
swift build --build-tests --sanitize=address --scratch-path .build-asan
ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --sanitize=address --scratch-path .build-asan \
    --skip "$load_suites|$time_limited_tests"
scripts/test-schemathesis.sh
# A 30-second soak of every endpoint on the debug build made above (benchmarks/soak.sh): no
# errors, resident memory and open descriptors flat after the warm-up, the database sound.
SERVER_BINARY="$(swift build --show-bin-path)/mynotes-server" SOAK_INTERVAL=5 benchmarks/soak.sh 0.5
scripts/test-web-unit.sh
scripts/test-browser.sh
