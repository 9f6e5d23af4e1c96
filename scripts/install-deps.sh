#!/usr/bin/env bash
# Installs the C libraries MyNotes builds against, when missing, from Debian/Ubuntu
# packages (through sudo unless already root). Safe to run again.
set -euo pipefail
# libh2o-evloop-dev: h2o's event loop, HTTPCore's server (why h2o:
# docs/decisions/0001-h2o-event-loop.md); HTTPS is the OpenSSL it links (libssl-dev).
packages=(libh2o-evloop-dev libsqlite3-dev libssl-dev libpq-dev pkg-config)
for option in "$@"; do
    case "$option" in
        --with-test-tools) packages+=(wrk curl sqlite3) ;;
        # The shells and the man-page renderer the command-line tests run their output in.
        --with-shells) packages+=(bash zsh fish groff-base) ;;
        # The browser suite: Chromium and its driver, a CJK font for the screenshots,
        # and venv for the suite's Python packages.
        --with-browser) packages+=(chromium chromium-driver fonts-wqy-zenhei python3-venv) ;;
        # The browser app's type check (tsc) and unit tests (node --test).
        --with-node) packages+=(nodejs node-typescript) ;;
        # A PostgreSQL server for the PostgreSQL tests and scripts/serve-cluster.sh
        # (its initdb and pg_ctl; Debian does not start a cluster when policy-rc.d forbids
        # it, and the scripts start private ones), and haproxy in front of the instances.
        # Search's indexes need pg_trgm, one of the contrib modules, which Debian
        # ships in postgresql-15 itself (postgresql-contrib names them on every release).
        --with-postgresql) packages+=(postgresql postgresql-contrib haproxy) ;;
        # The operations tests: promtool (prometheus), openssl, curl,
        # systemd-analyze (systemd), python3-venv for prometheus-client.
        --with-operations) packages+=(prometheus openssl curl systemd python3-venv) ;;
    esac
done
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
