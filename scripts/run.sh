#!/usr/bin/env bash
# The run command: installs what is missing to build and serve (not the test toolchain: that is
# scripts/test.sh's), builds the engine and the browser client, and starts the game server on
# port 8080 with the SQLite database tarneeb.db. PORT=9000 scripts/run.sh picks another port;
# ADDRESS=127.0.0.1 scripts/run.sh keeps it to this machine (by default it listens on every
# interface, so a phone on the same network can play: the address to open is printed).
# Only the `tarneeb` executable and the offline engine in WebAssembly (web/public/wasm) are
# built; scripts/test.sh builds every target, tests and benchmarks included.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
step "set-up: Debian packages for building and serving, the browser client's npm packages"
bash scripts/setup.sh run
step "build: the tarneeb executable"
bash scripts/build.sh --serve-only --target tarneeb
step "build: the offline engine (WebAssembly)"
bash scripts/build-wasm.sh   # the offline engine that the page and its service worker ship
step "build: the browser client"
(cd web && npm run build --silent)
port=${PORT:-8080}
address=${ADDRESS:-0.0.0.0}
step "tarneeb serve (database tarneeb.db; Ctrl-C stops it)"
echo "   open http://localhost:$port in a browser on this machine"
if [[ $address == 0.0.0.0 ]]; then
  # Every interface: from a phone or another computer on the same network, this machine's address.
  for ip in $(hostname -I 2>/dev/null); do
    [[ $ip == *:* ]] || echo "   or http://$ip:$port from a phone on the same network"
  done
  echo "   (it listens on every interface; ADDRESS=127.0.0.1 scripts/run.sh keeps it to this machine)"
fi
echo "   (to play in this terminal instead: build/release/tarneeb play)"
exec build/release/tarneeb serve --address "$address" --port "$port" --db tarneeb.db --static web/dist
