#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests and integration tests
# that start real servers on ephemeral loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-browser --with-shells
# Issue 13: promtool, openssl, systemd-analyze and prometheus-client for OperationsTests.
scripts/operations-tools.sh
swift build --build-tests
# Suites that measure latency while the server is under attack or load run alone, after
# the rest: on two cores the other suites' work would count against their time limits,
# and tests that block threads would starve the tasks they measure. The query memory suite
# sends 100 MB answers, which would count against the others.
load_suites='ConnectionLimitTests|StreamingResponseTests|SignUpFloodTests|SignUpCostTests|QueryTokenFirstTests|QueryMemoryTests|SignInTimingTests'
if [ $# -gt 0 ]; then
    swift test --skip-build "$@"
else
    swift test --skip-build --skip "$load_suites"
    swift test --skip-build --no-parallel --filter "$load_suites"
fi
scripts/test-schemathesis.sh
# --- Issue 10 (faults-soak): a 30-second soak of every endpoint on the debug build already
# built above (benchmarks/soak.sh; README "Soak"): 0 errors, RSS and open descriptors flat
# after the warm-up, the database sound afterwards.
SERVER_BINARY="$(swift build --show-bin-path)/mynotes-server" SOAK_INTERVAL=5 benchmarks/soak.sh 0.5
# --- end of issue 10's soak
scripts/test-web-unit.sh
scripts/test-browser.sh
