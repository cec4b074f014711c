// A shard of `tarneeb serve` (Beast's "shared state"): what every session of one event loop
// shares — its hall, its cluster node, its sessions by connection id, its share of the limits —
// and what the sessions tell the server (open, message, closed, HTTP API requests) on their way
// to the hall. A private header of src/net/ (Boost is allowed here only).
//
// Threading: one io_context per shard (`--threads N`, docs/scaling.md "Every core"), each run
// by one thread with a hall of its own. A connection, and every table, lives on one shard's
// thread, so no strand or lock is needed (the hall's database writer and bot threads post
// their results to it: nothing slow runs on it) and the order of actions at a table is the
// order its thread handles them (which makes the timer race exact: an action and the timeout
// are two handlers on the same thread; whichever runs first wins and the other one is stale).
// With several shards a ClusterNode with a LocalLink sits between each shard's sessions and its
// hall and relays a connection to the shard running its table (cluster_link.hpp), as nodes of a
// cluster do. Tokens never reach a log line: only connection ids, addresses, names and error
// codes are logged.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include "tarneeb/cluster/cluster_node.hpp"
#include "tarneeb/net/serve.hpp"

namespace tarneeb::server::transport {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

inline Millis unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class WsSession;

/// Open connections by peer address, for the whole process (every shard): HTTP sessions (TCP
/// connections not upgraded) and WebSockets, each kind at most `limit` per address
/// (HallConfig::max_connections_per_address), so that silent sockets from one address cannot
/// hold every descriptor, whichever shard they reached. Thread-safe (taken per connection,
/// never per message).
class AddressBook {
public:
    enum Kind { http_kind, ws_kind };
    explicit AddressBook(int limit) : limit_(limit) {}
    /// Counts one more connection of `kind` from `address`; false (nothing counted) when it
    /// has `limit` already.
    bool add(Kind kind, const std::string& address) {
        std::lock_guard lock(mutex_);
        int& n = counts_[kind][address];
        if (n >= limit_) return false;
        ++n;
        return true;
    }
    void remove(Kind kind, const std::string& address) {
        std::lock_guard lock(mutex_);
        auto& m = counts_[kind];
        if (auto it = m.find(address); it != m.end() && --it->second <= 0) m.erase(it);
    }

private:
    const int limit_;
    std::mutex mutex_;
    std::unordered_map<std::string, int> counts_[2];
};

/// What every session shares: the hall, the sessions by connection id, the limits.
struct Shared {
    net::io_context& ioc;
    const ServeConfig config;  ///< this shard's share of the limits (shard_config)
    AddressBook& addresses;            ///< the process's, shared by every shard
    std::unique_ptr<Storage> storage;  ///< open_storage: PostgreSQL (--postgres) or SQLite (--db)
    Hall hall;
    /// Between the sessions and the hall (cluster_node.hpp) in cluster mode (--redis) and when
    /// the process runs several shards (--threads); else null.
    std::unique_ptr<ClusterNode> cluster;
    std::unordered_map<ConnId, std::weak_ptr<WsSession>> sessions;
    ConnId next_id = 1;
    std::size_t http_sessions = 0;
    /// Every shard of the process, shard 0 (the home) first; set before the loops run.
    std::vector<Shared*> shards;

    /// `link`: the shard's or node's link (cluster_link.hpp), or null for one loop alone.
    Shared(net::io_context& io, const ServeConfig& cfg, AddressBook& book, BotFactory bots, std::unique_ptr<ClusterLink> link);

    // What a session tells the server: to the cluster node in cluster mode, else to the hall.
    void open(ConnId id, const std::string& address) {
        if (cluster) cluster->open(id, address, unix_ms());
        else hall.open(id, address, unix_ms());
    }
    void message(ConnId id, std::string_view text) {
        if (cluster) cluster->message(id, text, unix_ms());
        else hall.message(id, text, unix_ms());
    }
    void closed(ConnId id) {
        if (cluster) cluster->closed(id, unix_ms());
        else hall.closed(id, unix_ms());
    }
    /// True for the API paths http_get answers: the hall's (Hall::http_path) and /metrics.
    static bool api_path(std::string_view target);
    /// Answers an HTTP API request (api_path) on this shard's loop. With several shards:
    /// /healthz and /metrics.json from every shard's hall (combine_replies), the rest from the
    /// home shard's (its analysis queue and per-address shares are the process's). /metrics:
    /// the /metrics.json document in the Prometheus text format (prometheus_text).
    void http_get(const std::string& target, const std::string& address, const std::string& token,
                  std::function<void(HttpReply)> done);
    /// The sockets: the hall's answers (through the cluster node in cluster mode).
    void send(ConnId c, std::string text);
    void close(ConnId c, int code, std::string reason);
};

}  // namespace tarneeb::server::transport
