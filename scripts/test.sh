#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test:
#   1. Release build (warnings as errors), the CTest tests (GoogleTest + the shared examples) but
#      the server's threaded ones, which both sanitizer builds run, then the cluster fault test,
#      beside the ASan build (which builds the fuzz targets too);
#   2. the offline engine in WebAssembly (scripts/build-wasm.sh), the browser client's unit tests
#      and end-to-end tests in Chromium;
#   3. the C++ suite built with AddressSanitizer + UndefinedBehaviorSanitizer;
#   4. the server and multi-threaded tests built with ThreadSanitizer;
#   5. a short smoke run of every libFuzzer target (clang), beside the TSan tests.
# The benchmarks and load generators are built (not run) in the ASan + UBSan tree.
# Each stage prints its runner's summary line and its wall time; the script stops at the first
# failure. The sanitizer builds run beside the tests of the stage before them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Each stage prints its start; its wall time, and how busy the machine's CPUs were meanwhile
# (/proc/stat: everything running, the background builds too), are printed when the next
# begins, and all of them at the end ("stage times"), as docs/reliability.md "CI time" records
# them.
stage_name=
stage_start=$SECONDS
stage_times=()
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
cpu_ticks() {  # "busy total" clock ticks of all CPUs since boot (busy: not idle, not waiting for I/O)
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ < /proc/stat
  local total=$((user + nice + system + idle + iowait + irq + softirq + steal))
  echo "$((total - idle - iowait)) $total"
}
stage_cpu=$(cpu_ticks)
stage() {
  if [[ -n $stage_name ]]; then
    local now busy
    now=$(cpu_ticks)
    busy=$(( (${now% *} - ${stage_cpu% *}) * 100 / (${now#* } - ${stage_cpu#* } + 1) ))
    stage_times+=("$(mmss $((SECONDS - stage_start)))  CPU ${busy}%  $stage_name")
    printf '== %s took %s (CPU busy %d%%)\n' "$stage_name" "$(mmss $((SECONDS - stage_start)))" "$busy"
  fi
  stage_name=$1
  stage_start=$SECONDS
  stage_cpu=$(cpu_ticks)
  printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"
}

stage "set-up"
bash scripts/setup.sh

stage "tests wait for events (scripts/check-test-waits.sh)"
bash scripts/check-test-waits.sh

stage "release build"
# The executable and the tests only: the benchmarks and the load generators are built (not run)
# in the ASan + UBSan tree below, uninstrumented at -O0, only to check that they compile (GCC at
# -O3 took 235 CPU seconds for them; scripts/build.sh builds them for use).
#
# The tests of the server's threads, sockets and storage (`threaded`) run under both sanitizers:
# every test under ASan + UBSan, these under TSan too. The release run leaves them out, and the
# test programs that hold only them are not built here: a third run of the same tests, about 140
# CPU seconds (docs/reliability.md "CI time"). It runs the rest (the rules, records, bots,
# engines, solver, protocol encoding, the stored values they are compared with), the cluster
# fault test and the browser tests, all on the release build's code.
threaded='^(Hall|Serve|Loops|Fault|TournamentFault|Threads/Reconnect|Security|Simulate|AnalysisHttp|StorageAnalysis|Accounts|Cluster|NodeRequests|RoutedTables|storage_tests$|Pimc\.SameSeedSameCardWhateverTheThreads)'
sanitizers_only=(accounts_tests cluster_tests loops_serve_tests server_ws_tests storage_tests)
release_tests=(core_tests records_tests bots_tests engine_tests server_tests rating_tests social_tests
  solver_tests solver_oracle_tests fairplay_tests pimc_tests cluster_serve_tests)
bash scripts/build.sh --target tarneeb "${release_tests[@]/#/--target=}"

# The sanitizer and fuzz builds are CPU-bound; most tests are not (they wait for a server, a
# browser or a database). So each build runs in the background at the lowest priority while the
# stage before it tests, and takes the CPU the tests leave idle. It still slows them (the release
# tests took 2:31 beside it, 1:23 alone: two vCPUs share caches), but the whole run is shorter,
# and the tests' waits are for events, never for time. Each build's output goes to its log,
# shown if it fails. The sanitizer builds use clang at -O1 with line tables only (file:line in reports):
# about half the compile time of GCC's -O2 -g (docs/reliability.md "CI time"). Warnings are
# errors in every build: GCC's in the release build, clang's in these.
sanitizer_build() {  # DIR SANITIZERS [-DOPTION=VALUE...] [--target TARGET...]: configure and build
  local dir=$1 sanitizers=$2 options=()
  shift 2
  while [[ ${1:-} == -D* ]]; do options+=("$1"); shift; done
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DTARNEEB_WERROR=ON \
    -DTARNEEB_SANITIZE="$sanitizers" -DTARNEEB_BUILD_BENCH=OFF -DTARNEEB_BUILD_LOADTEST=OFF "${options[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs" "$@"
}
background_pid=
background_log=
in_background() {  # LOG COMMAND...: runs COMMAND (a function too) at nice 19 in the background
  background_log=$1
  shift
  mkdir -p build
  set -m  # its own process group, so that the trap below ends its compilers too
  (renice -n 19 -p "$BASHPID" >/dev/null && "$@") >"$background_log" 2>&1 &
  background_pid=$!
  set +m
}
trap '[[ -z $background_pid ]] || kill -- -"$background_pid" 2>/dev/null || true' EXIT
wait_background() {  # waits for the background build; its log's tail and exit 1 if it failed
  if ! wait "$background_pid"; then
    echo "background build failed ($background_log):"
    tail -60 "$background_log"
    exit 1
  fi
  tail -1 "$background_log"
}

# The ASan + UBSan tree also builds the libFuzzer targets (-DTARNEEB_FUZZ=ON: its objects get
# edge coverage, which the tests barely feel), so CI compiles the libraries for fuzzing once,
# not in a tree of their own, and the benchmarks and load generators (uninstrumented at -O0:
# CMakeLists.txt tarneeb_compile_check_only), so that they are known to compile.
in_background build/asan.log sanitizer_build build/asan address,undefined -DTARNEEB_FUZZ=ON \
  -DTARNEEB_BUILD_BENCH=ON -DTARNEEB_BUILD_LOADTEST=ON
# The cluster fault test (ClusterFaults.*: ~6 minutes of kills, pauses and restarts, mostly
# waiting for leases to expire) runs alone, in the release build only, beside the ASan build.
faults='^ClusterFaults\.'
not_built=$(IFS='|'; echo "^(${sanitizers_only[*]})(_NOT_BUILT)?\$")  # gtest_discover_tests' placeholders
stage "release tests (the ASan + UBSan build beside them)"
ctest --test-dir build/release --output-on-failure -j "$jobs" --timeout 900 -E "$faults|$threaded|$not_built"

stage "offline engine: WebAssembly (emscripten)"
JOBS="$jobs" bash scripts/build-wasm.sh

stage "browser client: unit tests (Vitest) and end-to-end tests (Chromium)"
(cd web && npm test && TARNEEB_BIN="$PWD/../build/release/tarneeb" npm run test:e2e)

stage "cluster fault test (the rest of the ASan + UBSan build beside it)"
ctest --test-dir build/release --output-on-failure --timeout 1200 -R "$faults"
wait_background
# ThreadSanitizer builds only what runs threads or the server: the executable (serve, simulate
# --threads), the server tests (hall, real WebSockets, fault tests, the analysis queue, the
# storage suite on SQLite and PostgreSQL), the simulate CLI tests and pimc's thread test, and the
# cluster's Redis layer (its lease keeper and subscriber threads), a real three-node cluster
# (cluster_serve_tests) and one process's event loops (loops_serve_tests; every server test runs
# two loops unless it says otherwise: tests/net/ws_harness.cpp). It runs the tests of these that
# use threads (`threaded` above): not the single-threaded encoding tests (Protocol.*,
# StaticFiles.*), which the release and ASan runs cover.
in_background build/tsan.log sanitizer_build build/tsan thread --target tarneeb server_tests server_ws_tests \
  bots_tests pimc_tests accounts_tests cluster_tests storage_tests cluster_serve_tests loops_serve_tests
stage "address and undefined-behaviour sanitizers: every test (the TSan build beside them)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1800 -E "$faults"

stage "thread sanitizer: the rest of the build"
wait_background
# The fuzz smoke (the targets of the ASan tree, each for TARNEEB_FUZZ_SECONDS), at the lowest
# priority beside the TSan tests, which mostly wait for leases, restarts and sockets. Starved,
# an input may take long: a minute before it counts as a hang.
fuzz_smoke() {
  TARNEEB_FUZZ_BUILD=build/asan TARNEEB_FUZZ_TIMEOUT=60 bash scripts/fuzz.sh "${TARNEEB_FUZZ_SECONDS:-15}"
}
in_background build/fuzz.log fuzz_smoke
stage "thread sanitizer: the server and the multi-threaded tests (the fuzz smoke beside them)"
TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1 \
  ctest --test-dir build/tsan --output-on-failure -j "$jobs" --timeout 1800 -E "$faults" -R "$threaded"

stage "fuzz smoke"
wait_background
grep '^fuzz: ' build/fuzz.log

stage "done"
echo "== stage times (wall, m:ss)"
printf '   %s\n' "${stage_times[@]}"
echo "   $(mmss "$SECONDS")  total"
