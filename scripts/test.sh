#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests and integration tests
# that start real servers on ephemeral loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-browser
# Issue 13: promtool, openssl, systemd-analyze and prometheus-client for OperationsTests.
scripts/operations-tools.sh
swift build --build-tests
# Suites that measure latency while the server is under attack or load run alone, after
# the rest: on two cores the other suites' work would count against their time limits,
# and tests that block threads would starve the tasks they measure. The query memory suite
# sends 100 MB answers, which would count against the others.
load_suites='ConnectionLimitTests|StreamingResponseTests|SignUpFloodTests|SignUpCostTests|QueryTokenFirstTests|QueryMemoryTests'
if [ $# -gt 0 ]; then
    swift test --skip-build "$@"
else
    swift test --skip-build --skip "$load_suites"
    swift test --skip-build --no-parallel --filter "$load_suites"
fi
scripts/test-schemathesis.sh
scripts/test-web-unit.sh
scripts/test-browser.sh
