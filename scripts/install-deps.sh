#!/usr/bin/env bash
# Installs the C libraries MyNotes builds against, when missing, from Debian/Ubuntu
# packages (through sudo unless already root). Safe to run again.
set -euo pipefail
packages=(libmicrohttpd-dev libsqlite3-dev libssl-dev pkg-config)
[ "${1:-}" = "--with-test-tools" ] && packages+=(wrk curl sqlite3)
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
