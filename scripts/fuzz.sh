#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS.
# Usage: scripts/fuzz.sh [--build-only] [SECONDS=20] [TARGET...]
#   (targets: record notation actions protocol engine; --build-only: build them, run nothing)
# New inputs go to build/fuzz/corpus/<target> (the committed seeds in fuzz/corpus stay
# untouched); crashes to fuzz/findings/<target>/ (gitignored). Exit 1 if any target crashed.
# TARNEEB_FUZZ_TIMEOUT: seconds one input may take (default 10; raise it on a loaded machine, where
# a run under `nice` can be starved past it).
# TARNEEB_FUZZ_BUILD: a build tree configured with -DTARNEEB_FUZZ=ON whose targets are already
# built (scripts/test.sh: its ASan + UBSan tree, edge coverage only): nothing is configured or
# built, the targets run from there. Default: build/fuzz, configured and built here with full
# instrumentation (edges and comparisons), for fuzzing in earnest.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [[ ${1:-} == --build-only ]]; then  # scripts/test.sh builds the targets beside other stages
  build_only=1
  shift
fi
seconds=${1:-20}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(record notation actions protocol engine)
build=${TARNEEB_FUZZ_BUILD:-}
if [[ -z $build ]]; then
  build=build/fuzz
  # -O1 with line tables, as the sanitizer stages of scripts/test.sh: about half the compile time
  # of -O2 -g, with file:line in every report.
  CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTARNEEB_FUZZ=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DTARNEEB_BUILD_TESTS=OFF -DTARNEEB_BUILD_BENCH=OFF >/dev/null
  cmake --build build/fuzz -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
fi
((build_only)) && exit 0
# One target per core at a time (TARNEEB_FUZZ_JOBS, default nproc); each writes its own log.
fuzz_one() {  # TARGET: 0 when it found nothing
  mkdir -p "build/fuzz/corpus/$1" "fuzz/findings/$1"
  "$build/fuzz/fuzz_$1" -max_total_time="$seconds" -max_len=65536 -timeout="${TARNEEB_FUZZ_TIMEOUT:-10}" -rss_limit_mb=4096 \
    -artifact_prefix="fuzz/findings/$1/" -print_final_stats=1 "build/fuzz/corpus/$1" "fuzz/corpus/$1" \
    2>"build/fuzz/$1.log"
}
jobs=${TARNEEB_FUZZ_JOBS:-$(nproc)}
declare -A pid_of=()
running=()
for t in "${targets[@]}"; do
  if ((${#running[@]} >= jobs)); then
    wait "${running[0]}" || true  # its status is read below
    running=("${running[@]:1}")
  fi
  echo "fuzz: $t for ${seconds}s"
  fuzz_one "$t" &
  pid_of[$t]=$!
  running+=("$!")
done
status=0
for t in "${targets[@]}"; do
  if ! wait "${pid_of[$t]}"; then
    echo "fuzz: $t FAILED (see build/fuzz/$t.log and fuzz/findings/$t)"; tail -30 "build/fuzz/$t.log"; status=1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "build/fuzz/$t.log" | sed "s/^/fuzz: $t /" || true
done
exit $status
