#!/usr/bin/env bash
# Configures and builds tarneeb (Release, warnings as errors) into build/release.
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DTARNEEB_WERROR=ON "$@" >/dev/null
cmake --build build/release -j "$jobs"
