#!/usr/bin/env bash
# Runs the browser suite (Tests/Browser): headless Chromium, driven by selenium through
# chromedriver, against a real mynotes-server from the built products. Expects the
# products built (scripts/test.sh builds them) and Chromium installed
# (scripts/install-deps.sh --with-browser). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/venv-browser
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if [ ! -x "$venv/bin/pytest" ] || ! cmp -s Tests/Browser/requirements.txt "$venv/requirements.txt"; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/Browser/requirements.txt
    cp Tests/Browser/requirements.txt "$venv/requirements.txt"
fi
rm -rf .build/browser-failures
PYTHONDONTWRITEBYTECODE=1 MYNOTES_PRODUCTS="$(swift build --show-bin-path)" \
    exec "$venv/bin/pytest" -p no:cacheprovider -q Tests/Browser "$@"
