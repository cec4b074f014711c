#!/usr/bin/env bash
# The run command: installs what is missing, builds, then shows the engine at work:
# a reproducible deal, a shared example record replayed, and the engine benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bin=build/release/tarneeb
echo "== tarneeb deal --seed 1 --count 2"
"$bin" deal --seed 1 --count 2
echo "== tarneeb replay tests/data/records/rec0002.json"
"$bin" replay tests/data/records/rec0002.json | head -c 400; echo " ..."
echo "== tarneeb bench"
"$bin" bench
