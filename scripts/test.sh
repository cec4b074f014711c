#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
# Prints CTest's summary ("100% tests passed, 0 tests failed out of N").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build/release --output-on-failure -j "$jobs" --timeout 900
