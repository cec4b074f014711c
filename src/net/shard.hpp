// The event loops of `tarneeb serve` and the one server they share (Beast's "shared state"):
//
//   Home    the process's store, its one hall (front and table host, hall.hpp) and, in cluster
//           mode, its cluster node; everything of it runs on loop 0's thread.
//   Shared  one event loop (`--threads N`: default one per two cores): its sockets, its sessions by
//           connection id, its share of the connection limit. What a session tells the server
//           (open, message, closed, HTTP API requests) goes to the hall on loop 0, and what the
//           hall sends a connection comes back to the connection's loop; between two loops it
//           is a handler posted in order, so a connection's frames keep their order both ways.
//
// Why (issue 26, docs/scaling.md "Every core"): the sockets (WebSocket framing, system calls:
// a third of the server's CPU per action) run on every core, and every table, guest and
// request on one thread, so no connection ever moves and no guest is ever in two places (a
// process of several halls relayed connections between them, and lost seats doing it). The
// hall's database writer and bot threads post their results to loop 0; nothing slow runs on
// it, and the order of actions at a table is the order its thread handles them (which makes
// the timer race exact: an action and the timeout are two handlers on the same thread;
// whichever runs first wins and the other one is stale). A private header of src/net/ (Boost
// is allowed here only). Tokens never reach a log line: only connection ids, addresses, names
// and error codes are logged.
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

struct Shared;

/// The process's server, on loop 0: its store, its hall and its cluster node.
struct Home {
    net::io_context& ioc;              ///< loop 0's
    std::unique_ptr<Storage> storage;  ///< open_storage: PostgreSQL (--postgres) or SQLite (--db)
    /// A second connection for the hall's reads that need no order with its writes (Hall's
    /// `reads`); null for an in-memory SQLite database (it has no second connection).
    std::unique_ptr<Storage> reads;
    Hall hall;
    /// In cluster mode (--redis, cluster_node.hpp), the node the hall's table requests are routed through; else null.
    std::unique_ptr<ClusterNode> cluster;
    /// Every loop, loop 0 first; set before the loops run.
    std::vector<Shared*> loops;
    /// Set once every loop has stopped: the sessions the io_contexts destroy then (the
    /// process ending) tell the hall nothing, and the hall sends nothing to any loop.
    bool stopped = false;

    /// `link`: the node's Redis link (cluster_link.hpp), or null for a process alone.
    Home(net::io_context& io, const ServeConfig& cfg, BotFactory bots, std::unique_ptr<ClusterLink> link);

    // From the sessions, on loop 0: to the hall.
    void open(ConnId id, const std::string& address);
    void message(ConnId id, std::string_view text);
    void closed(ConnId id);
    /// The sockets, from the hall, on loop 0: to the
    /// connection's loop.
    void send(ConnId c, std::string text);
    void close(ConnId c, int code, std::string reason);
    /// The loop of connection `c` (Shared::new_id).
    Shared& loop_of(ConnId c) const;
};

/// One event loop: what its sessions share.
struct Shared {
    net::io_context& ioc;
    const ServeConfig config;  ///< its share of the connection limit (serve.cpp)
    AddressBook& addresses;    ///< the process's, shared by every loop
    Home& home;
    const unsigned index;      ///< 0 for loop 0 (the home's)
    const unsigned count;      ///< how many loops the process runs
    std::unordered_map<ConnId, std::weak_ptr<WsSession>> sessions;
    std::size_t http_sessions = 0;

    Shared(net::io_context& io, ServeConfig cfg, AddressBook& book, Home& h, unsigned i, unsigned n)
        : ioc(io), config(std::move(cfg)), addresses(book), home(h), index(i), count(n) {}

    /// A new connection id, unique in the process: its loop is (id - 1) % count.
    ConnId new_id() { return next_id_++ * count + index + 1; }

    // What a session tells the server: to the hall on loop 0 (the text copied when it leaves
    // this loop).
    void open(ConnId id, const std::string& address);
    void message(ConnId id, std::string_view text);
    void closed(ConnId id);
    /// True for the API paths http_get answers: the hall's (Hall::http_path) and /metrics.
    static bool api_path(std::string_view target);
    /// Answers an HTTP API request (api_path): by the hall on loop 0, `done` called on this
    /// loop. /metrics: the /metrics.json document in the Prometheus text format (prometheus_text).
    void http_get(const std::string& target, const std::string& address, const std::string& token,
                  std::function<void(HttpReply)> done);
    /// This loop's sockets (on this loop): frame `text` to connection `c`, or close it.
    void send(ConnId c, std::string text);
    void close(ConnId c, int code, std::string reason);

private:
    ConnId next_id_ = 0;
};

}  // namespace tarneeb::server::transport
