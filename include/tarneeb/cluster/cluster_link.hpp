// What a ClusterNode (cluster_node.hpp) needs from the nodes around it (docs/scaling.md
// "Wiring"), and its kind: the Redis link of the nodes of a cluster, on several machines —
// messages over Redis pub/sub, table leases kept alive in Redis (LeaseKeeper) and fenced in
// PostgreSQL, the directory in Redis with heartbeats, and the orphan scan that takes over the
// tables of a node that died.
//
// Threads: publish runs on the node's loop and never waits; take, seat and unseat on the hall's
// writer thread (unseat also on the node's worker); owner, seats_of, exchange and take_orphans on
// the node's worker thread (they may wait on Redis or the store); the callbacks given to start() are called on any thread, with no
// lock held.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/cluster/cluster.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

/// Settings of a ClusterNode and its link.
struct ClusterConfig {
    RedisOptions redis;                            ///< parse_redis_url(--redis) (RedisLink)
    std::string prefix = "tarneeb";                ///< Redis key prefix shared by the cluster
    std::string node;                              ///< --node NAME ([A-Za-z0-9._-], 1-64 characters)
    std::chrono::milliseconds lease_ttl{3000};     ///< a table's lease; renewed every ttl/3
    std::chrono::milliseconds heartbeat_ttl{3000}; ///< a node's heartbeat and directory entries
    std::chrono::milliseconds refresh{1000};       ///< heartbeat, directory and orphan scan period
    /// How long a guest whose table no live node runs (its owner died, not taken over yet) keeps
    /// its route to the table, and a node missing from the directory keeps its guests connected
    /// at this node's tables (after a Redis restart the directory fills again over a refresh or two).
    std::chrono::milliseconds orphan_wait{15000};
    /// A table request sent to another node and not answered within this is answered
    /// `storage_unavailable` (routed_tables.hpp).
    std::chrono::milliseconds request_timeout{10000};
    std::size_t publish_queue = 100000;            ///< messages waiting to be published at most (then dropped)
    std::size_t max_adopt_per_scan = 200;          ///< tables taken over in one scan at most
    /// A guest's seat record (ClusterDirectory::set_seat) lives this long at most: it is cleared
    /// when the guest leaves; the TTL only ends one whose clearing was lost (its node died).
    std::chrono::milliseconds seat_ttl{std::chrono::hours(24)};
};

/// The text of message `msg` between nodes on Redis: its fields as compact JSON, then, when it
/// has a string "t" (a client's frame, or a frame for a client: most of the traffic), a newline
/// and that text as it is. The frame is neither escaped nor parsed on its way (compact JSON never
/// holds a raw newline, so the first one ends the fields).
std::string encode_node_message(nlohmann::json msg);
/// The message encode_node_message wrote ("t" back in its fields), or a discarded value when
/// `text` does not hold a JSON object before its first newline.
nlohmann::json decode_node_message(std::string_view text);

/// A table taken over from a node that died, with the fencing token of its writes.
using Adopted = std::pair<LiveTable, std::int64_t>;

class ClusterLink {
public:
    /// A message for this node (a JSON object with "to" == self().text()).
    using Deliver = std::function<void(nlohmann::json msg)>;
    /// A table this node must stop running at once (code: lease_not_ours, lease_expired).
    using Lost = std::function<void(const std::string& table, const std::string& code)>;
    /// The nodes alive and every node's table summaries (LobbyEntry::summary: JSON text).
    struct View {
        std::vector<NodeId> nodes;
        std::vector<LobbyEntry> lobby;
    };

    virtual ~ClusterLink() = default;
    /// This node.
    virtual const NodeId& self() const = 0;
    /// True when the link depends on Redis (reported by /healthz and /metrics).
    virtual bool uses_redis() const { return false; }
    /// Starts delivering this node's messages and lost tables. Call once.
    virtual void start(Deliver deliver, Lost lost) = 0;
    /// Leaves the directory (best effort) and joins the link's threads. Idempotent.
    virtual void stop() = 0;
    /// Sends `msg` (an object; its "to" and "from" set here) to node `to`: at most once, in
    /// order between two nodes. Never waits; false when it was dropped (queue full).
    virtual bool publish(const NodeId& to, nlohmann::json msg) = 0;
    /// Changes each time this node's messages may have been lost: a subscriber reconnect (its
    /// incoming ones), or its publisher working again after it dropped some (its outgoing ones).
    /// The node then opens its routes and its guests' fronts again (RoutedTables::resync).
    virtual std::uint64_t sessions() const = 0;
    /// Writer thread, right after a table was created: makes it this node's; returns the
    /// fencing token its writes carry (0: unfenced). StorageError when it cannot.
    virtual std::int64_t take(Storage& store, const std::string& table) = 0;
    /// This node no longer runs `table`. Never waits.
    virtual void release(const std::string& table) = 0;
    /// Worker thread: the node running `table` now, nullopt when none does.
    virtual std::optional<NodeId> owner(const std::string& table) = 0;
    /// What seat() did not write: the guests whose record names another table that runs (they
    /// sit there), and those Redis did not take (counted, /metrics "seat_failures").
    struct SeatWrite {
        std::vector<std::string> elsewhere;
        std::vector<std::string> failed;
    };
    /// Writer thread: records that `guests` sit at `table` (ClusterDirectory::set_seat, TTL
    /// `seat_ttl`): before the write that seats them, or again (a table taken over, Redis lost
    /// the records). Never throws.
    virtual SeatWrite seat(const std::string& table, const std::vector<std::string>& guests) = 0;
    /// `guests` no longer sit at `table`: their records go (compare-and-DEL). Never throws:
    /// returns those Redis did not take (counted; the node clears them again later).
    virtual std::vector<std::string> unseat(const std::string& table, const std::vector<std::string>& guests) = 0;
    /// Worker thread: the table each of `guests` sits at as its record says (the cluster's one
    /// guest→table record), in their order (nullopt: none); nullopt when Redis did not answer.
    virtual std::optional<std::vector<std::optional<std::string>>> seats_of(const std::vector<std::string>& guests) = 0;
    /// Worker thread: publishes this node's heartbeat and table summaries, reads every node's.
    /// Throws ClusterError when the shared services fail.
    virtual View exchange(const std::vector<LobbyEntry>& mine) = 0;
    /// Worker thread: live tables of `scan` that no node runs (not in `view`, no lease, on two
    /// calls in a row), taken for this node (at most `max`). Throws ClusterError, StorageError.
    virtual std::vector<Adopted> take_orphans(Storage& scan, const View& view, std::size_t max) = 0;
    /// /metrics "cluster" fields of the link (leases, publish failures).
    virtual nlohmann::json metrics() const = 0;
};

/// The Redis link of one node of a cluster (`--redis URL --node NAME`). Throws ClusterError
/// invalid_argument for a bad node name.
std::unique_ptr<ClusterLink> redis_link(const ClusterConfig& config);

}  // namespace tarneeb::server
