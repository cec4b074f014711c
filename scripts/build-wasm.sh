#!/usr/bin/env bash
# Builds the offline engine (wasm/offline.cpp: rules engine, game room, the bots of three levels, records)
# to WebAssembly with Debian's emscripten (3.1.6): web/public/wasm/tarneeb-offline.{mjs,wasm},
# which Vite copies into web/dist and the page loads for "Play offline" (web/src/engine.ts).
# Generated, never committed (web/.gitignore). Objects go to build/wasm and are rebuilt only
# when a source is newer; the sources compile in parallel (JOBS, default 2).
#
# Debian ships emscripten's system libraries prebuilt (/usr/share/emscripten/cache, a frozen
# cache), so nothing is built into a cache on a clean machine. Debian's emcc runs its JS tools
# with /usr/bin/node, which does not search Debian's node modules (acorn) by itself: NODE_PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v emcc >/dev/null; then
  echo "build-wasm: emcc not found (apt-get install emscripten; scripts/setup.sh does it)" >&2
  exit 1
fi
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

out=web/public/wasm
opt="${WASM_OPT:--O2}"   # -O2 (default) or -Os: docs/performance.md compares them
obj="build/wasm${WASM_OPT:+-${WASM_OPT#-}}"
mkdir -p "$out" "$obj/include"
# nlohmann json (header-only, Debian's nlohmann-json3-dev) without the rest of /usr/include.
ln -sfn /usr/include/nlohmann "$obj/include/nlohmann"

# The rules (core), records and the game room (room/: table, journal, protocol) whole; of the
# bots, the one loop, the heuristic, the weakened heuristic and the learned card player with the
# holder model it reads (levels medium, easy and hard; pimc, the expert level, needs DDS and
# threads, engines need processes).
sources=(
  src/core/*.cpp src/records/*.cpp src/room/*.cpp
  src/bots/loop.cpp src/bots/arena.cpp src/bots/heuristic_bot.cpp src/bots/weakened_bot.cpp src/bots/auction_read.cpp src/bots/bid_model.cpp
  src/bots/holder_model.cpp src/bots/holder_weights.cpp src/bots/card_policy.cpp src/bots/card_policy_weights.cpp src/bots/learned_bot.cpp
  wasm/offline.cpp
)
flags=(-std=c++20 "$opt" -ffp-contract=off -fexceptions -Iinclude -isystem "$obj/include" -Wall -Wextra -Werror
       -Wno-unused-command-line-argument -Wno-missing-braces)

objects=()
pids=()
jobs="${JOBS:-2}"
for src in "${sources[@]}"; do
  o="$obj/$(echo "$src" | tr / _).o"
  objects+=("$o")
  # Rebuild when the source or any header under include/ is newer than the object.
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find include src wasm -newer "$o" -name '*.hpp' -print -quit)" ]; then
    em++ "${flags[@]}" -c "$src" -o "$o" &
    pids+=($!)
    if ((${#pids[@]} >= jobs)); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done

js="$out/tarneeb-offline.mjs"
stamp="$obj/linked.stamp"  # this object directory's link is the one in $out (not another WASM_OPT's)
if [ -f "$js" ] && [ -f "$out/tarneeb-offline.wasm" ] && [ -f "$stamp" ] && ! [ "$js" -nt "$stamp" ] &&
   [ -z "$(find "${objects[@]}" -newer "$stamp" -print -quit)" ]; then
  echo "build-wasm: $out is up to date"
  exit 0
fi
em++ "$opt" -fexceptions --bind "${objects[@]}" -o "$js" \
  -sMODULARIZE -sEXPORT_ES6 -sENVIRONMENT=web,node -sALLOW_MEMORY_GROWTH -sEXPORT_NAME=TarneebOffline
touch "$stamp"
echo "build-wasm: $(stat -c %s "$out/tarneeb-offline.wasm") bytes in $out/tarneeb-offline.wasm"
