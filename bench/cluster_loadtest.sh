#!/usr/bin/env bash
# A throwaway local cluster under load (docs/scaling.md "Measured"): a PostgreSQL 15 and a
# redis-server in a temp directory, NODES `tarneeb serve` nodes on loopback, then
# tarneeb-loadtest against all of them (seats of each table spread over the nodes), then each
# node's /metrics.json; everything is stopped and removed at the end.
#
#   bench/cluster_loadtest.sh [NODES] [LOADTEST ARGS...]
#   bench/cluster_loadtest.sh 3 --tables 2500 --interval-ms 2000 --duration 30 --ramp-ms 20000
#
# Needs build/release (tarneeb, tarneeb-loadtest) and what scripts/setup.sh installs. As root,
# PostgreSQL runs as `nobody` (it refuses root). PG_OPTS adds server settings (e.g.
# PG_OPTS="-c synchronous_commit=off" to see what the commit flushes cost). TARNEEB_BIN_DIR runs
# the executables of another build (default build/release: e.g. a copy of an older build, to
# compare); SERVE_OPTS adds `tarneeb serve` options (e.g. SERVE_OPTS="--journal-batch 1").
# KILL_AFTER=S kills node KILL_NODE (default 1) with SIGKILL S seconds after the load starts (give
# the load generator --reconnect so that its clients sign in again on another node); the killed
# node's /metrics.json is then skipped. KEEP_LOGS=DIR copies the nodes' logs there at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-3}
shift || true
bin=${TARNEEB_BIN_DIR:-build/release}
pgbin=${TARNEEB_PG_BINDIR:-/usr/lib/postgresql/15/bin}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tarneeb-cluster-XXXXXX")
as=""
if [ "$(id -u)" = 0 ]; then chown nobody:nogroup "$dir"; as="setpriv --reuid=nobody --regid=nogroup --clear-groups"; fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  (cd "$dir" && $as "$pgbin/pg_ctl" -D "$dir/data" stop -m immediate >/dev/null 2>&1) || true
  rm -rf "$dir"
}
trap cleanup EXIT

pgport=$(free_port)
(cd "$dir" && $as "$pgbin/initdb" -D "$dir/data" -A trust -U tarneeb -E UTF8 --locale=C --no-sync >/dev/null)
(cd "$dir" && $as "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 ${PG_OPTS:-}" start >/dev/null)
redisport=$(free_port)
redis-server --port "$redisport" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" --logfile "$dir/redis.log" &
pids+=($!)
sleep 0.5
ports=()
node_pids=()
for i in $(seq 1 "$nodes"); do
  out="$dir/node$i.out"
  "$bin/tarneeb" serve --address 127.0.0.1 --port 0 --no-static --postgres "postgresql://tarneeb@127.0.0.1:$pgport/postgres" \
    --redis "redis://127.0.0.1:$redisport" --node "n$i" --bot-delay-ms 0 --rate 1000 --max-connections-per-address 100000 \
    --max-waiting-tables-per-address 100000 --max-playing-tables-per-address 100000 --max-new-guests-per-address 0 --log-level warn ${SERVE_OPTS:-} >"$out" 2>"$dir/node$i.log" &
  pids+=($!)
  node_pids+=($!)
  for _ in $(seq 1 100); do grep -q "listening on" "$out" 2>/dev/null && break; sleep 0.1; done
  ports+=("$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$out")")
done
args=()
for p in "${ports[@]}"; do args+=(--port "$p"); done
echo "nodes: ${ports[*]} (load average: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
killed=0
if [[ -n ${KILL_AFTER:-} ]]; then
  killed=${KILL_NODE:-1}
  victim=${node_pids[$((killed - 1))]}
  (sleep "$KILL_AFTER"; kill -9 "$victim" && echo "killed node n$killed (pid $victim) at $(date +%T)" >&2) &
fi
"$bin/tarneeb-loadtest" "${args[@]}" "$@" || true
for i in "${!ports[@]}"; do
  p=${ports[$i]}
  [[ $((i + 1)) == "$killed" ]] && continue
  python3 - "$p" <<'PY'
import json, sys, urllib.request
m = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics.json"))
c = m.get("cluster", {})
print(json.dumps({"node": c.get("node"), "tables": m["tables"], "connections": m["connections"],
                  "actions_total": m["actions_total"], "server_p99_ms": m["latency_ms"]["p99"],
                  "routes": c.get("routes"), "remote_guests": c.get("remote_guests"), "request_timeouts": c.get("request_timeouts"),
                  "messages_sent": c.get("messages_sent"), "messages_received": c.get("messages_received"),
                  "messages_dropped": c.get("messages_dropped"), "journal": m.get("journal")}))
PY
done
grep -h "error" "$dir"/node*.log | head -5 >&2 || true
if [[ -n ${KEEP_LOGS:-} ]]; then mkdir -p "$KEEP_LOGS" && cp "$dir"/node*.log "$KEEP_LOGS"/; fi
