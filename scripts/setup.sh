#!/usr/bin/env bash
# Installs the Debian 12 packages tarneeb needs to build, test and run (only those missing).
# Used by scripts/run.sh and scripts/test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake ninja-build pkg-config python3
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev
  libdds-dev libsqlite3-dev libicu-dev libboost1.81-dev
  libsodium-dev libmimalloc-dev
  postgresql-15 libpqxx-dev libpq-dev
  redis-server libhiredis-dev
  clang libclang-rt-14-dev
  nodejs chromium fonts-dejavu-core
  emscripten
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The browser client's packages, from its committed lock file (web/package-lock.json).
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
