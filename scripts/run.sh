#!/usr/bin/env bash
# The run command: installs what is missing, builds the engine and the browser client, and
# starts the game server on http://localhost:8080 with the SQLite database tarneeb.db.
# PORT=9000 scripts/run.sh picks another port.
# Only the `tarneeb` executable (and the offline engine in WebAssembly, web/public/wasm) is built (serve and play need nothing else); scripts/test.sh
# builds every target, tests and benchmarks included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh --target tarneeb
bash scripts/build-wasm.sh   # the offline engine (WebAssembly) that the page and its service worker ship
(cd web && npm run build --silent)
port=${PORT:-8080}
echo "== tarneeb serve on http://localhost:$port (database tarneeb.db; Ctrl-C stops it)"
echo "   (to play in this terminal instead: build/release/tarneeb play)"
exec build/release/tarneeb serve --port "$port" --db tarneeb.db --static web/dist
