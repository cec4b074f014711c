// One node of a `tarneeb serve` cluster (issue 16; docs/scaling.md):
// the layer between the transport and the hall that lets a client connect to any node and play
// at a table another node runs, and lets a node take over the tables of a node that died. What
// connects the nodes is a ClusterLink (cluster_link.hpp): Redis.
//
// How (docs/scaling.md "The node"): every node runs a whole Hall over the shared store. A live
// table is run by exactly one node, its owner (in a cluster it holds the table's Redis lease and
// writes its journal with the table's PostgreSQL fencing token). A client's connection stays on
// the node it reached (its *front*); the front serves it with its own hall until the client's
// guest sits at or watches a table another node owns (it joins one, or signs in while seated
// at one): then the front *relays* the connection to the owner — the owner's hall
// gets a connection of its own for it (signed in again with the guest's token), the client's
// frames go to the owner and the owner's frames come back. The owner builds every frame for
// that connection's seat, exactly as for a local one, so a front never holds a card the client
// may not see. When the owner dies (its heartbeat expires) or the table moves, the front relays
// to the new owner once the directory shows it.
//
// Every `ClusterConfig::refresh` a worker thread publishes the node's tables' summaries (the
// directory, ClusterLink::exchange), reads every node's, and (in a cluster) takes over the live
// tables no node runs (ClusterLink::take_orphans): the hall adopts each from its journal. A lost
// lease drops the table from the hall; a write refused as `storage_fenced` drops it too.
//
// Threads: every public method runs on the hall's thread (the event loop). The link's shared
// services and the scanning storage are used only on the node's worker thread and the link's
// own threads; their results reach the loop through Outbox::post. Nothing here waits on the loop.
//
// Messages between nodes (JSON objects; every message names the instance it is for, `to`, and a
// node drops the others — a restarted node never gets its old life's traffic): front → owner
// `open` (conn, address), `frame` (conn, text), `closed` (conn); owner → front `send` (conn,
// text), `close` (conn, code, reason), `reset` (conn: open it again). A front accepts those only from
// the node it relays that connection to (and, for kPreviousWindowMs after a move, answers from the live node it left:
// a node lets a connection go only once the requests it got before the move are answered, see
// let_go).
// Messages are at most once: a lost frame is a request without an answer (never applied twice:
// the owner applies what it gets, in order), and versions let the client see one consistent
// game. After a node's subscriber reconnects (Redis restarted), every relay to and from it is
// opened again (`resync`): the connection is signed in again on its owner and gets the table's
// state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tarneeb/cluster/cluster_link.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

class ClusterNode {
public:
    /// Connection ids the hall gets for relayed connections start here (the transport's are
    /// small counters).
    static constexpr ConnId kRemoteBase = ConnId{1} << 62;
    /// The request id of the `hello` a node sends for a relayed connection; its answer is not
    /// shown to the client (it is signed in already).
    static constexpr std::string_view kRelayId = "~relay";
    /// How long after a move the answers of the live node a connection left are delivered
    /// (requests it sent there just before the move, still in flight or waiting there).
    static constexpr Millis kPreviousWindowMs = 2000;

    /// `link`: the nodes around this one (cluster_link.hpp: Redis). `hall`: the node's hall (its Outbox must send through
    /// hall_send/hall_close). `scan`: a store connection of the node's own, used by its worker
    /// thread only (the orphan scan and taking tables over); null when the link takes none over.
    /// `sockets`: the transport's send, close, log and post. Starts the worker thread and the
    /// link, and sets the hall's ClusterHooks.
    ClusterNode(ClusterConfig config, std::unique_ptr<ClusterLink> link, Hall& hall, std::unique_ptr<Storage> scan,
                Outbox sockets);
    /// stop().
    ~ClusterNode();
    ClusterNode(const ClusterNode&) = delete;
    ClusterNode& operator=(const ClusterNode&) = delete;
    /// Stops the link (it leaves the directory, best effort) and joins every thread. Leases are
    /// not released: they expire and another node takes the tables over. Idempotent.
    void stop();

    // ---- from the transport (the loop) ------------------------------------------------
    void open(ConnId conn, const std::string& address, Millis now);
    void message(ConnId conn, std::string_view text, Millis now);
    void closed(ConnId conn, Millis now);
    /// Starts a directory refresh and orphan scan every `refresh` (call often, as Hall::tick).
    void tick(Millis now);

    // ---- the hall's Outbox (the loop) -------------------------------------------------
    void hall_send(ConnId conn, std::string text);
    void hall_close(ConnId conn, int code, std::string reason);

    const NodeId& id() const { return me_; }
    /// The node serving connection `conn` of this node now (me_ when its own hall).
    const NodeId& serving(ConnId conn) const;
    /// True when no directory refresh and no lookup of a table's owner is on the worker (tests
    /// run the loop until their node is idle).
    bool idle() const;

private:
    /// One client connection of this node (this node is its front).
    struct Front {
        std::string address;
        MessageRate rate{0, 0};         ///< its rate limit here (filled at open): checked before a frame is relayed
        std::string token;              ///< from the welcome it got: signs it in on another node
        std::string name;               ///< its guest
        std::optional<NodeId> target;   ///< the node serving it; nullopt: this node's hall
        std::optional<NodeId> previous; ///< the live node that served it before its last move
        Millis previous_until = 0;      ///< its answers are delivered until then
        bool watch_welcome = false;     ///< its next welcome is read (name, token)
        int swallow = 0;                ///< answers to relayed requests (id kRelayId) not shown to it
        std::string watching;           ///< the table it watches as a spectator on another node
        std::optional<Millis> orphan;   ///< since when its target node is gone
        bool resolving = false;         ///< its join waits for the owner of a table the directory does not list yet
        std::deque<std::string> held;   ///< its frames while it has no live target
        bool moving = false;            ///< a hand-off is posted: frames of the node serving it are dropped
        std::optional<NodeId> wanted;   ///< the node the directory said runs its table at the last refresh
        int wanted_times = 0;           ///< refreshes in a row it said so (a move needs two: it may be stale)
    };
    /// A connection relayed to this node by a front.
    struct Remote {
        NodeId front;
        ConnId conn;
        std::optional<Millis> missing;  ///< since when its front is missing from the directory
    };
    /// What a refresh found (worker → loop).
    struct Directory {
        std::vector<NodeId> nodes;
        std::unordered_map<std::string, std::string> table_node;  ///< read from `lobby` on the worker
        std::unordered_map<std::string, std::string> seated;
        std::map<std::string, std::shared_ptr<const nlohmann::json>> remote;  ///< the other nodes' public tables
        std::vector<Adopted> adopt;                              ///< tables taken over, with their fences
        std::optional<std::string> failing;                     ///< Redis's error code when it failed
        std::optional<std::string> scan_failing;                ///< the store's, when the scan failed
    };

    void publish(const NodeId& to, nlohmann::json msg);
    void received(const nlohmann::json& msg);  // on the loop
    void deliver(ConnId conn, Front& f, std::string text);
    /// Sends a client's frame to the node serving it (this hall, or relayed).
    void forward(ConnId conn, Front& f, std::string_view text, Millis now);
    /// A join that moves the connection first (to the node running the table): true when it
    /// was handed off and forwarded (or waits for resolve), false when it goes on as it is.
    bool route(ConnId conn, Front& f, std::string_view text);
    /// Notes the table a relayed spectator watches (a seatless join), or none (leave).
    static void note_watching(Front& f, std::string_view text);
    /// Serves connection `conn` from node `to` (this node when it is me_) from now on.
    /// `answer`: the id of the client's own hello, whose welcome is to come from `to` (the
    /// client sees that welcome: its seat is there); nullopt: `to`'s welcome is not shown.
    void hand_off(ConnId conn, const NodeId& to, const std::optional<nlohmann::json>& answer = std::nullopt);
    void refresh(Millis now);
    /// Now (Unix ms, never earlier than a time seen before), for what arrives between the
    /// transport's calls: relayed frames and the worker's answers (a fresh node's first
    /// tick may come after its first frames).
    Millis clock();
    Directory scan(std::vector<LobbyEntry> mine);  // on the worker
    void applied(Directory d, Millis now);         // on the loop
    /// A table's summary as the directory last read it (worker only): parsed again only when
    /// its text changed, so a refresh of thousands of unchanged tables parses none.
    struct ReadSummary {
        std::string text;
        std::shared_ptr<const nlohmann::json> summary;  ///< nullptr: the text was not a JSON object
        std::vector<std::string> players;              ///< the names of its human seats
        bool is_public = false;
    };
    /// `summary` read from `text`, or taken from `last` (moved out) when its text is the same.
    static ReadSummary read_summary(std::string text, ReadSummary* last);
    /// Moves each front to the node that runs its guest's table; closes relayed connections
    /// whose front died.
    void check_routes(Millis now);
    std::optional<NodeId> live(const std::string& name) const;
    /// Closes hall connection `conn`, whose client another node serves now: at once, or, while
    /// a request of it is in flight or waiting (Hall::answering), once that is answered. Its
    /// answers go to its client meanwhile (the front delivers them for kPreviousWindowMs after
    /// the move; it is closed then at the latest).
    void let_go(ConnId conn, Millis now);
    /// Closes the connections let go whose answers came (or whose window ended); from tick.
    void drain(Millis now);
    /// After this node's subscriber connected again: every relay is opened again, from both ends.
    void resync();
    /// The hello that signs a relayed connection in with `token`, its answer id `id`.
    static std::string relay_hello(const std::string& token, const nlohmann::json& id);
    /// Asks Redis (on the worker) which node owns `table`, then sends the join `text` there
    /// (handing the connection off) or to this hall; the connection's later frames wait.
    void resolve(ConnId conn, const std::string& table, std::string text);

    ClusterConfig config_;
    std::unique_ptr<ClusterLink> link_;
    Hall& hall_;
    std::unique_ptr<Storage> scan_;
    Outbox sockets_;
    NodeId me_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::unique_ptr<WorkQueue> work_;  ///< the directory, the orphan scan and owner lookups
    std::unordered_map<std::string, ReadSummary> read_;  ///< (worker) the last refresh's summaries, by table

    // the loop's state
    std::unordered_map<ConnId, Front> fronts_;
    std::unordered_map<ConnId, Remote> remotes_;
    std::map<std::pair<std::string, ConnId>, ConnId> remote_ids_;  ///< (front NodeId text, its conn) → hall conn
    std::unordered_map<ConnId, Millis> draining_;  ///< hall conns let go with answers to come → closed by then
    ConnId next_remote_ = kRemoteBase;
    std::map<std::string, NodeId> nodes_;                       ///< live nodes by name
    std::unordered_map<std::string, std::string> table_node_;   ///< table → node name running it
    std::unordered_map<std::string, std::string> seated_;       ///< guest → table it sits at
    std::uint64_t subscriber_sessions_ = 0;  ///< Subscriber::sessions() when last seen
    bool refreshing_ = false;       ///< a refresh is on the worker
    Millis last_refresh_ = 0;       ///< when the last one started
    Millis now_ = 0;                ///< the latest time the transport gave or clock() read
    std::optional<std::string> failing_;       ///< Redis failed at the last refresh (/healthz)
    std::optional<std::string> scan_failing_;  ///< the store failed at the last scan (logged)
    std::uint64_t sent_ = 0, received_ = 0, dropped_ = 0, adopted_ = 0, moves_ = 0;
    std::uint64_t refreshes_ = 0;  ///< directory refreshes done (/metrics "directory_refreshes")
};

}  // namespace tarneeb::server
