#!/usr/bin/env bash
# The server's CPU per action against the floor, on this machine (issue 26; docs/performance.md
# "The floor"): `tarneeb serve` played as fast as it answers by tarneeb-loadtest (20 tables of
# four clients, no bots, SQLite in a temporary directory), its process CPU time (utime + stime
# from /proc) divided by the actions it applied (/metrics.json "actions_total");
# then tarneeb-fanout-floor, a bare Beast fan-out of a frame of the same size to the same
# clients. Prints one line per measure and the ratio.
#
# Usage: bench/floor_ratio.sh [THREADS=1] [SECONDS=10]   (needs the release build: scripts/build.sh)
#        SERVE_ARGS="--journal-gather false" bench/floor_ratio.sh 1 5   (more `tarneeb serve` options)
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-1}
seconds=${2:-10}
bin=build/release
for b in tarneeb tarneeb-loadtest tarneeb-fanout-floor; do
  [[ -x $bin/$b ]] || { echo "floor_ratio: $bin/$b is missing: run scripts/build.sh" >&2; exit 2; }
done
dir=$(mktemp -d)
server=
trap '[[ -n $server ]] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT

"$bin/tarneeb" serve --address 127.0.0.1 --port 0 --threads "$threads" --db "$dir/floor.db" --no-static \
  --log-level warn --grace 600 --rate 100000 --max-connections-per-address 100000 \
  --max-waiting-tables-per-address 100000 --max-playing-tables-per-address 100000 --max-new-guests-per-address 0 ${SERVE_ARGS:-} > "$dir/out" 2> "$dir/log" &
server=$!
for _ in $(seq 1 200); do
  grep -q "listening on" "$dir/out" 2>/dev/null && break
  sleep 0.05
done
port=$(sed -n 's/^listening on .*:\([0-9]*\).*/\1/p' "$dir/out")
[[ -n $port ]] || { echo "floor_ratio: the server did not start: $(cat "$dir/log")" >&2; exit 1; }

metrics() {  # actions_total
  curl -sf "http://127.0.0.1:$port/metrics.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["actions_total"])'
}
journal() {  # the group commit's figures since the start
  curl -sf "http://127.0.0.1:$port/metrics.json" | python3 -c '
import json, sys
j = json.load(sys.stdin)["journal"]
print("journal: %d writes in %d transactions (%.2f per transaction)" % (j["writes"], j["batches"], j["writes_per_batch"]))'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

ticks=$(getconf CLK_TCK)
a0=$(metrics); c0=$(cpu_ticks)
"$bin/tarneeb-loadtest" --port "$port" --tables 20 --interval-ms 0 --duration "$seconds" > "$dir/load.json"
a1=$(metrics); c1=$(cpu_ticks)
journal
floor=$("$bin/tarneeb-fanout-floor" --tables 20 --duration "$seconds")
python3 - "$a0" "$a1" "$c0" "$c1" "$ticks" "$threads" "$floor" "$dir/load.json" <<'EOF'
import json, sys
a0, a1, c0, c1, ticks, threads = (int(x) for x in sys.argv[1:7])
floor = json.loads(sys.argv[7])
load = json.load(open(sys.argv[8]))
actions = a1 - a0
server_us = (c1 - c0) / ticks * 1e6 / actions if actions else float("nan")
print(f"server (--threads {threads}): {actions} actions, {load['actions_per_second']:.0f} actions/s, "
      f"{server_us:.1f} µs of CPU per action")
print(f"floor (bare Beast fan-out, {floor['frame_bytes']} bytes to 4 clients): {floor['actions']} actions, "
      f"{floor['actions_per_second']:.0f} actions/s, {floor['server_cpu_us_per_action']:.1f} µs of CPU per action")
print(f"ratio: {server_us / floor['server_cpu_us_per_action']:.1f}x the floor")
EOF
