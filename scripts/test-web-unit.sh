#!/usr/bin/env bash
# Checks the browser app's ES modules (Sources/MyNotesService/Web/Assets/*.js) without a
# browser: their JSDoc types with tsc (every module starts with `// @ts-check`; the
# settings are Tests/WebUnit/tsconfig.json), then the unit tests of the pure helpers —
# dates, text, messages, the state store, the API's errors over a fake fetch — with node's
# own test runner (Tests/WebUnit/*.test.mjs import the real modules). Installs nodejs and
# node-typescript from Debian when missing. Extra arguments go to `node --test`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-node
echo "tsc $(tsc --version | sed 's/^Version //'): type-checking the modules" >&2
tsc -p Tests/WebUnit
echo "node $(node --version): unit tests" >&2
node --test --test-reporter=dot "$@" Tests/WebUnit/*.test.mjs
