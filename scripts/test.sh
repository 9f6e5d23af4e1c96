#!/usr/bin/env bash
# Installs what is missing and runs every test: unit tests and integration tests
# that start real servers on ephemeral loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-browser
swift build --build-tests
swift test --skip-build "$@"
scripts/test-schemathesis.sh
scripts/test-web-unit.sh
scripts/test-browser.sh
