#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test:
#   1. Release build (warnings as errors), every CTest test (GoogleTest + the shared examples);
#   2. the offline engine in WebAssembly (scripts/build-wasm.sh), the browser client's unit tests
#      and end-to-end tests in Chromium;
#   3. the C++ suite built with AddressSanitizer + UndefinedBehaviorSanitizer;
#   4. the server and multi-threaded tests built with ThreadSanitizer;
#   5. a short smoke run of every libFuzzer target (clang).
# Each stage prints its runner's summary line; the script stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Each stage prints its start; its wall time is printed when the next begins, and all of them
# at the end ("stage times"), as docs/reliability.md "CI time" records them.
stage_name=
stage_start=$SECONDS
stage_times=()
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
stage() {
  if [[ -n $stage_name ]]; then
    stage_times+=("$(mmss $((SECONDS - stage_start)))  $stage_name")
    printf '== %s took %s\n' "$stage_name" "$(mmss $((SECONDS - stage_start)))"
  fi
  stage_name=$1
  stage_start=$SECONDS
  printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"
}

stage "set-up"
bash scripts/setup.sh

stage "tests wait for events (scripts/check-test-waits.sh)"
bash scripts/check-test-waits.sh

stage "release build"
bash scripts/build.sh
stage "release tests"
ctest --test-dir build/release --output-on-failure -j "$jobs" --timeout 900

stage "offline engine: WebAssembly (emscripten)"
JOBS="$jobs" bash scripts/build-wasm.sh

stage "browser client: unit tests (Vitest) and end-to-end tests (Chromium)"
(cd web && npm test && TARNEEB_BIN="$PWD/../build/release/tarneeb" npm run test:e2e)

stage "address and undefined-behaviour sanitizers: build"
# The sanitizer builds use clang at -O1 with line tables only (file:line in reports): about half
# the compile time of GCC's -O2 -g (docs/reliability.md "CI time"). Warnings are enforced by the
# release build.
sanitizer_build() {  # DIR SANITIZERS
  CC=clang CXX=clang++ cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DTARNEEB_WERROR=OFF \
    -DTARNEEB_SANITIZE="$2" -DTARNEEB_BUILD_BENCH=OFF -DTARNEEB_BUILD_LOADTEST=OFF >/dev/null
}
sanitizer_build build/asan address,undefined
cmake --build build/asan -j "$jobs"
stage "address and undefined-behaviour sanitizers: every test"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1800

stage "thread sanitizer: build of the server and the multi-threaded tests"
# Only what runs threads or the server: the executable (serve, simulate --threads), the server
# tests (hall, real WebSockets, fault tests, the analysis queue, the storage suite on SQLite and
# PostgreSQL), the simulate CLI tests and pimc's thread test, and the cluster's Redis layer (its
# lease keeper and subscriber threads), a real three-node cluster (cluster_serve_tests) and one
# process's shards (shard_serve_tests, and ShardRouting in-process; every server test runs a shard per core).
sanitizer_build build/tsan thread
cmake --build build/tsan -j "$jobs" --target tarneeb server_tests server_ws_tests bots_tests pimc_tests accounts_tests \
  cluster_tests storage_tests cluster_serve_tests shard_serve_tests
stage "thread sanitizer: the server and the multi-threaded tests"
TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1 \
  ctest --test-dir build/tsan --output-on-failure -j "$jobs" --timeout 1800 \
    -R '^(Hall|Protocol|Serve|Shards|ShardRouting|Fault|Security|StaticFiles|Simulate|AnalysisHttp|StorageAnalysis|Accounts|Cluster|storage_tests$|Pimc\.SameSeedSameCardWhateverTheThreads)'

stage "fuzz smoke"
bash scripts/fuzz.sh "${TARNEEB_FUZZ_SECONDS:-15}"

stage "done"
echo "== stage times (wall, m:ss)"
printf '   %s\n' "${stage_times[@]}"
echo "   $(mmss "$SECONDS")  total"
