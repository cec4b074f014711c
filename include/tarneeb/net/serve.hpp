// `tarneeb serve`: HTTP + WebSocket on one port (docs/protocol.md). This header is free of
// Boost; the Beast transport lives in src/net/ only (serve.cpp, listener, http_session,
// ws_session, shard: the event loops and the home).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

struct ServeConfig {
    std::string address = "0.0.0.0";
    unsigned short port = 8080;          ///< 0: any free port (printed on stdout)
    std::string db = "tarneeb.db";       ///< SQLite file (":memory:" for none)
    /// A PostgreSQL URL (postgres_storage.hpp): when set, the store instead of `db`.
    std::string postgres;
    /// Cluster mode (cluster_node.hpp, docs/scaling.md): a Redis URL (parse_redis_url) and this
    /// node's name; both or neither, and only with `postgres`.
    std::string redis;
    std::string node;
    /// Event loops for the sockets (docs/scaling.md "Every core"): 0 = default_loops(). Loop 0
    /// also runs the one hall (every table, sign-in, lobby, accounts, tournaments). In cluster
    /// mode the process is one node whatever this is.
    unsigned threads = 0;
    bool full_sync = false;              ///< synchronous=FULL (survive power loss, slower)
    std::string static_dir;              ///< files served for other GET paths ("" = none)
    std::vector<std::string> origins;    ///< extra allowed browser origins, e.g. "http://localhost:5173"
    HallConfig hall;
    int idle_seconds = 60;               ///< a WebSocket that sends nothing this long is closed
    std::size_t max_queue = 512;         ///< frames queued for one slow connection before it is closed
    /// Bytes queued for one connection (frames not yet written to its socket) before it is
    /// closed at once as too slow; one frame is always accepted into an empty queue.
    std::size_t max_queue_bytes = 1024 * 1024;
    std::size_t max_connections = 20000;
};

/// The event loops `--threads 0` runs: one per two cores, at least one. Loop 0 runs the hall;
/// the journal's writer, the reads, the bots and often the database take the other cores, and
/// another loop only takes socket work off loop 0 at the price of a hand-off per frame: on 2
/// cores one loop beat two on CPU per action, actions a second and p99 (docs/scaling.md
/// "Every core").
unsigned default_loops();

/// Runs the server until SIGINT or SIGTERM. Prints "listening on ADDRESS:PORT" to stdout once
/// ready. Returns 0 after a clean stop, 1 when the port or the database cannot be opened.
/// The store: PostgreSQL when `config.postgres` is set, else the SQLite file `config.db`.
int serve(const ServeConfig& config, BotFactory bots);

}  // namespace tarneeb::server
