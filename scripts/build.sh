#!/usr/bin/env bash
# Configures and builds tarneeb (Release, warnings as errors) into build/release.
# Usage: scripts/build.sh [--serve-only] [--target NAME]... [extra cmake args...]
#   --serve-only   configure without the tests, benchmarks and load generators (their libraries,
#                  GoogleTest and Google Benchmark, need not be installed: scripts/run.sh);
#                  without it they are configured (scripts/test.sh)
#   --target NAME  build only NAME and what it needs (repeatable): scripts/run.sh builds only the
#                  `tarneeb` executable; without it every target is built.
# Other arguments go to the cmake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
targets=()
cmake_args=()
with_tests=ON
while (($#)); do
  case $1 in
    --serve-only) with_tests=OFF; shift ;;
    --target)
      (($# >= 2)) || { echo "scripts/build.sh: --target needs a target name" >&2; exit 2; }
      targets+=(--target "$2")
      shift 2 ;;
    --target=*) targets+=(--target "${1#--target=}"); shift ;;
    *) cmake_args+=("$1"); shift ;;
  esac
done
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DTARNEEB_WERROR=ON \
  -DTARNEEB_BUILD_TESTS=$with_tests -DTARNEEB_BUILD_BENCH=$with_tests -DTARNEEB_BUILD_LOADTEST=$with_tests ${cmake_args[@]+"${cmake_args[@]}"} >/dev/null
cmake --build build/release -j "$jobs" ${targets[@]+"${targets[@]}"}
