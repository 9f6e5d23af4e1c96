#!/usr/bin/env bash
# Installs what is missing, builds a release mynotes-server and runs it on the
# embedded SQLite default (./mynotes.sqlite). Extra arguments go to the server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product mynotes-server
exec "$(swift build -c release --show-bin-path)/mynotes-server" serve "$@"
