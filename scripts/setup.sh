#!/usr/bin/env bash
# Installs the Debian 12 packages tarneeb needs (only those missing); safe to run again.
# Usage: scripts/setup.sh [run|test]
#   run   what building and serving need (scripts/run.sh): the compiler, the libraries the
#         `tarneeb` executable links, Node.js and emscripten for the browser client;
#   test  (the default) all of that and what the tests need (scripts/test.sh): GoogleTest,
#         Google Benchmark, the PostgreSQL and Redis servers the cluster tests start, clang for
#         the sanitizer and fuzz builds, Chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-test}
case $profile in
  run|test) ;;
  *) echo "scripts/setup.sh: unknown profile '$profile' (run or test)" >&2; exit 2 ;;
esac

packages=(
  g++ cmake ninja-build pkg-config python3
  nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev
  libdds-dev libsqlite3-dev libicu-dev libboost1.81-dev
  libsodium-dev libmimalloc-dev
  libpqxx-dev libpq-dev libhiredis-dev
  nodejs emscripten
)
if [[ $profile == test ]]; then
  packages+=(
    libgtest-dev libgmock-dev libbenchmark-dev
    postgresql-15 redis-server
    clang libclang-rt-14-dev
    chromium fonts-dejavu-core
  )
fi

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
