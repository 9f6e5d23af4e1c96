#!/usr/bin/env bash
# The consumers the operations tests (Tests/OperationsTests) check the server against:
# Debian's prometheus package (promtool), openssl, curl and systemd-analyze from
# install-deps.sh, and PyPI's prometheus-client (its text-format parser) and nothing else
# in .build/venv-operations. Safe to run again: it rebuilds the venv only when
# scripts/operations-requirements.txt changed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-operations
venv=.build/venv-operations
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if [ ! -x "$venv/bin/python" ] || ! cmp -s scripts/operations-requirements.txt "$venv/requirements.txt"; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/operations-requirements.txt
    cp scripts/operations-requirements.txt "$venv/requirements.txt"
fi
