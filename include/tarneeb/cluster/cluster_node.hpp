// One node of a `tarneeb serve` cluster (issue 16, issue 26; docs/scaling.md): it lets a client
// connect to any node and play at a table another node runs, and lets a node take over the
// tables of a node that died. What connects the nodes is a ClusterLink (cluster_link.hpp): Redis.
//
// How (docs/scaling.md "The node"): every node runs a whole Hall over the shared store. A live
// table is run by exactly one node, its owner (in a cluster it holds the table's Redis lease and
// writes its journal with the table's PostgreSQL fencing token). A client's connection stays on
// the node it reached (its *front*) for its whole life: the front's hall signs it in and reads
// its messages, and its table requests are routed (RoutedTables, routed_tables.hpp) to the
// table's owner as typed requests; the owner answers them and sends the guest's frames back, each
// built for the guest's seat there, so a front never holds a card the client may not see.
//
// Every `ClusterConfig::refresh` a worker thread publishes the node's tables' summaries (the
// directory, ClusterLink::exchange), reads every node's, and takes over the live tables no node
// runs (ClusterLink::take_orphans): the hall adopts each from its journal. A lost lease drops the
// table from the hall; a write refused as `storage_fenced` drops it too.
//
// Threads: every public method runs on the hall's thread (the event loop). The link's shared
// services and the scanning storage are used only on the node's worker thread and the link's
// own threads; their results reach the loop through Outbox::post. Nothing here waits on the loop.
//
// Messages between nodes (JSON objects; every message names the instance it is for, `to`, and a
// node drops the others — a restarted node never gets its old life's traffic): the routed
// tables' (routed_tables.hpp), and `sign_out` (a guest signed out: each node closes its own
// connections of it).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tarneeb/cluster/cluster_link.hpp"
#include "tarneeb/cluster/routed_tables.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

class ClusterNode {
public:
    /// `link`: the nodes around this one (cluster_link.hpp: Redis). `hall`: the node's hall.
    /// `scan`: a store connection of the node's own, used by its worker thread only (the orphan
    /// scan and taking tables over); null when the link takes none over. `loop`: the loop's log
    /// and post (its send and close are not used). Starts the worker thread and the link, and
    /// sets the hall's ClusterHooks (its table requests routed through this node).
    ClusterNode(ClusterConfig config, std::unique_ptr<ClusterLink> link, Hall& hall, std::unique_ptr<Storage> scan,
                Outbox loop);
    /// stop().
    ~ClusterNode();
    ClusterNode(const ClusterNode&) = delete;
    ClusterNode& operator=(const ClusterNode&) = delete;
    /// Stops the link (it leaves the directory, best effort) and joins every thread. Leases are
    /// not released: they expire and another node takes the tables over. Idempotent.
    void stop();

    /// Starts a directory refresh and orphan scan every `refresh`, answers requests to other
    /// nodes whose time ran out (call often, as Hall::tick).
    void tick(Millis now);

    const NodeId& id() const { return me_; }
    /// True when no directory refresh and no lookup (a table's owner, a guest's seat) is on the
    /// worker (tests run the loop until their node is idle).
    bool idle() const { return !refreshing_ && lookups_ == 0; }

private:
    /// What a refresh found (worker → loop).
    struct Directory {
        std::vector<NodeId> nodes;
        std::unordered_map<std::string, std::string> table_node;  ///< read from `lobby` on the worker
        std::map<std::string, std::shared_ptr<const nlohmann::json>> remote;  ///< the other nodes' public tables
        std::vector<Adopted> adopt;                              ///< tables taken over, with their fences
        std::optional<std::string> failing;                     ///< Redis's error code when it failed
        std::optional<std::string> scan_failing;                ///< the store's, when the scan failed
        Millis read_at = 0;                                     ///< when the refresh started
    };

    void publish(const NodeId& to, nlohmann::json msg);
    void received(const nlohmann::json& msg);  // on the loop
    void refresh(Millis now);
    /// Now (Unix ms, never earlier than a time seen before), for what arrives between the
    /// transport's calls: messages from other nodes and the worker's answers.
    Millis clock();
    Directory scan(std::vector<LobbyEntry> mine);  // on the worker
    void applied(Directory d, Millis now);         // on the loop
    /// A table's summary as the directory last read it (worker only): parsed again only when
    /// its text changed, so a refresh of thousands of unchanged tables parses none.
    struct ReadSummary {
        std::string text;
        std::shared_ptr<const nlohmann::json> summary;  ///< nullptr: the text was not a JSON object
        bool is_public = false;
    };
    /// `summary` read from `text`, or taken from `last` (moved out) when its text is the same.
    static ReadSummary read_summary(std::string text, ReadSummary* last);
    /// Asks Redis (on the worker) which node owns `table`, then calls `done` on the loop.
    void owner(const std::string& table, std::function<void(std::optional<NodeId>)> done);
    /// Asks Redis (on the worker) at which table `guest` sits (ClusterLink::seats_of, batched
    /// with the other reads asked for meanwhile), then calls `done` on the loop.
    void seat_of(const std::string& guest, RoutedTables::SeatRead done);
    /// Sends the seat reads waiting (up to a batch) to the worker, unless a batch is there.
    void read_seats();
    /// Clears again the seat records Redis did not clear (`unclear_`) of guests not seated there now.
    void clear_again();
    using SeatWanted = std::pair<std::string, RoutedTables::SeatRead>;

    ClusterConfig config_;
    std::unique_ptr<ClusterLink> link_;
    Hall& hall_;
    std::unique_ptr<Storage> scan_;
    Outbox loop_;
    NodeId me_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::unique_ptr<WorkQueue> work_;  ///< the directory, the orphan scan, owner and seat lookups
    std::unique_ptr<RoutedTables> tables_;  ///< the hall's table requests, routed
    std::unordered_map<std::string, ReadSummary> read_;  ///< (worker) the last refresh's summaries, by table

    // the loop's state
    std::uint64_t subscriber_sessions_ = 0;  ///< Subscriber::sessions() when last seen
    bool refreshing_ = false;       ///< a refresh is on the worker
    int lookups_ = 0;               ///< owner and seat lookups on the worker or waiting for it
    std::vector<SeatWanted> seats_wanted_;  ///< seat reads waiting for the worker's batch
    bool reading_seats_ = false;    ///< a batch of seat reads is on the worker
    /// Every seat record of this node's tables is to be written again (Redis restarted, or did
    /// not take a restore: set on the writer thread too).
    std::atomic<bool> restore_seats_ = false;
    std::mutex unclear_mutex_;
    /// Seat records (table, guest) whose clearing Redis did not take (under unclear_mutex_: the
    /// writer thread adds, the loop takes them).
    std::vector<std::pair<std::string, std::string>> unclear_;
    Millis last_refresh_ = 0;       ///< when the last one started
    Millis now_ = 0;                ///< the latest time the transport gave or clock() read
    std::vector<NodeId> nodes_;                ///< live nodes at the last refresh
    std::optional<std::string> failing_;       ///< Redis failed at the last refresh (/healthz)
    std::optional<std::string> scan_failing_;  ///< the store failed at the last scan (logged)
    std::uint64_t sent_ = 0, received_ = 0, dropped_ = 0, adopted_ = 0;
    std::uint64_t refreshes_ = 0;  ///< directory refreshes done (/metrics "directory_refreshes")
};

}  // namespace tarneeb::server
