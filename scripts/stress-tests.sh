#!/usr/bin/env bash
# Runs the tests that can race (the server's, the cluster's and the browser's) many times in a row
# on a loaded machine, to show that they wait for events and not for time (issue 25;
# docs/reliability.md "CI time"). Not part of scripts/test.sh: it takes about N times the
# suites' time.
#
# Usage: scripts/stress-tests.sh [N=20] [PART...]
#   N      how many times each test runs; the first failure stops the part (exit 1).
#   PART   cxx (every server, cluster, storage and accounts test of build/release, each N times:
#          `ctest --repeat until-fail:N`) and/or e2e (the Playwright suite N times in a row);
#          both when none is named.
# Environment:
#   TARNEEB_STRESS_LOAD_JOBS  compile jobs kept running beside the tests (default: nproc; 0 = no
#                             load). The load rebuilds the server library from scratch in
#                             build/stress-load, again and again, until the tests end.
#   TARNEEB_STRESS_JOBS       tests run at once (default: nproc, as scripts/test.sh).
# Needs the release build (scripts/build.sh), and for e2e the web client's packages (npm ci) and
# the WebAssembly engine (scripts/build-wasm.sh), as scripts/test.sh leaves them.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
shift || true
parts=("$@")
((${#parts[@]})) || parts=(cxx e2e)
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "stress-tests: N must be a positive whole number, not '$n'" >&2; exit 2; }
jobs=${TARNEEB_STRESS_JOBS:-$(nproc)}
load_jobs=${TARNEEB_STRESS_LOAD_JOBS:-$(nproc)}
[[ -x build/release/tarneeb ]] || { echo "stress-tests: build/release/tarneeb is missing: run scripts/build.sh" >&2; exit 2; }

# The server, cluster, storage and accounts suites (tests/server/*): every test that runs the
# server, a hall, shards, a cluster, Redis or PostgreSQL.
cxx_tests='^(Hall|HallTournament|HallGroupCommit|Protocol|Storage|StorageAnalysis|ClusterMessage|Names|StaticFiles|Tournament|Serve|Fault|Security|AnalysisHttp|TournamentFault|Accounts|Chat|Profiles|ClusterRedisUrl|ClusterNodeId|Cluster|ClusterAuth|ClusterServe|Loops|Threads/Reconnect)\.|^storage_tests$'

load_pid=
stop_load() {
  [[ -n $load_pid ]] || return 0
  kill -- -"$load_pid" 2>/dev/null || kill "$load_pid" 2>/dev/null || true
  wait "$load_pid" 2>/dev/null || true
  load_pid=
}
trap stop_load EXIT
start_load() {
  ((load_jobs > 0)) || return 0
  cmake -S . -B build/stress-load -G Ninja -DCMAKE_BUILD_TYPE=Release -DTARNEEB_BUILD_TESTS=OFF \
    -DTARNEEB_BUILD_BENCH=OFF -DTARNEEB_BUILD_LOADTEST=OFF >/dev/null
  # Its own process group, so that stop_load ends the compilers too.
  setsid bash -c 'while :; do ninja -C build/stress-load -t clean >/dev/null; ninja -C build/stress-load -j "$1" tarneeb_server tarneeb_net >/dev/null 2>&1 || true; done' \
    _ "$load_jobs" &
  load_pid=$!
  echo "stress-tests: load: $load_jobs compile jobs (build/stress-load), pid $load_pid"
}

status=0
start_load
for part in "${parts[@]}"; do
  start=$SECONDS
  case $part in
    cxx)
      echo "stress-tests: cxx: each server/cluster test up to $n times ($jobs at once)"
      if ctest --test-dir build/release -j "$jobs" --timeout 900 --repeat until-fail:"$n" --output-on-failure \
          -R "$cxx_tests"; then
        echo "stress-tests: cxx: passed $n times in a row ($((SECONDS - start)) s)"
      else
        echo "stress-tests: cxx: FAILED ($((SECONDS - start)) s)"; status=1
      fi ;;
    e2e)
      (cd web && npm run --silent build >/dev/null)
      passed=0
      for ((i = 1; i <= n; ++i)); do
        if (cd web && TARNEEB_BIN="$PWD/../build/release/tarneeb" node --test --test-concurrency=2 e2e/*.test.mjs \
              >"../build/stress-e2e.log" 2>&1); then
          passed=$i
          echo "stress-tests: e2e: run $i of $n passed"
        else
          echo "stress-tests: e2e: run $i of $n FAILED (build/stress-e2e.log):"; tail -60 build/stress-e2e.log; status=1
          break
        fi
      done
      echo "stress-tests: e2e: $passed of $n runs in a row passed ($((SECONDS - start)) s)" ;;
    *) echo "stress-tests: unknown part '$part' (cxx or e2e)" >&2; status=2 ;;
  esac
  ((status == 0)) || break
done
exit $status
