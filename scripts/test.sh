#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests and integration tests
# that start real servers on ephemeral loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-browser
swift build --build-tests
# One test at a time: many tests start servers and processes and measure timeouts, and
# on two cores running them side by side starves the others' timers. It costs nothing:
# the suites spend their time waiting on I/O, not computing.
swift test --skip-build --no-parallel "$@"
scripts/test-schemathesis.sh
scripts/test-web-unit.sh
scripts/test-browser.sh
