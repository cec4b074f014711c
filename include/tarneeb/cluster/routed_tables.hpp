// The tables of a cluster as one node's front sees them (issue 26: "tables are routed, not
// connections"; docs/scaling.md "The node"). A client's connection stays on the node it reached
// — its front — for its whole life; the front's hall signs it in, limits it and reads each of its
// messages once into a typed request. RoutedTables is the hall's Tables (tables.hpp): each table
// request goes to the node that runs the guest's table — this node's own TableHost, or another
// node's as a message over Redis carrying the typed request (node_requests.hpp) — and that node
// answers it once and sends the guest's frames back, each built for the guest's seat there (a
// front never holds a card its guest may not see).
//
// Where a guest is (the route): the answer to each request it made through this front says
// where the guest is after it. Where a guest who signs in here (by token or password) sits is
// the cluster's one guest→table record, its seat record (ClusterDirectory::set_seat: written
// before the seat was acknowledged, cleared when the guest leaves, written again by a node that
// takes the table over or after Redis lost it); the front reads it and asks the node that runs
// that table (the directory, every node's tables read every refresh, or the table's lease), or
// waits for the table to run again. A route names the table; the node running it is looked up
// again whenever the directory changes.
//
// Messages (each names its node, `to`, and `from`; encode_node_message):
//   front → table's node: `req` {g: guest, n: number, r: node_request_json}, `place` {g, n, t: table},
//                         `conn` {g} (the guest has a connection at this front), `disc` {g}
//   table's node → front: `ans` {n, b: the reply's body (absent for `place`), p: the guest's
//                         place after it (node_place_json), r: for `place`, whether that node
//                         runs table t}, `send` {g, t: a frame},
//                         `dropped` {g, t: table} (a spectator's table left the node),
//                         `seated` {g, t: table} (to every node, after Redis lost the seat
//                         records: the guest sits at t here and is connected nowhere),
//                         `reset` {} (messages from the front may have been lost)
// A front takes `send` for a guest only from the node its route names (or one it asked and
// has not heard back from): a paused ex-owner that wakes cannot send a stale table.
// Messages are at most once. A request with no answer within `request_timeout`, or whose node
// left the directory, is answered `storage_unavailable` (nothing is known to have changed; the
// table's messages say what did). After a node's subscriber reconnects, or its publisher works
// again after dropping messages (Redis restarted), it resyncs: its fronts' guests' tables are
// sent again (`reset` to those fronts) and it sends `conn` again for each guest it routes, whose
// table's node then sends it its table.
// A guest who signs in while its table is being taken over (its node died, paused past its
// lease or let it go, and no node runs it yet) gets its welcome when a node runs the table
// again — seated — or, after `orphan_wait`, at no table.
//
// Threads: every method runs on the node's loop (the hall's thread).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/cluster/cluster.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/tables.hpp"

namespace tarneeb::server {

class RoutedTables : public Tables, public OtherFronts {
public:
    /// What it needs of the node around it (cluster_node.hpp), all on the loop.
    /// A seat record read: the table it names (nullopt: none), or `unread` when Redis did not answer.
    using SeatRead = std::function<void(std::optional<std::string> table, bool unread)>;
    struct Node {
        NodeId self;
        /// Sends message `msg` to node `to` (ClusterLink::publish); false when it was dropped.
        std::function<bool(const NodeId& to, nlohmann::json msg)> publish;
        /// Looks up (off the loop) the node that owns `table` now, then calls `done` on the loop.
        std::function<void(const std::string& table, std::function<void(std::optional<NodeId>)> done)> owner;
        /// Now (Unix ms).
        std::function<Millis()> clock;
        /// Reads (off the loop) the table `guest`'s seat record names, then calls `done` on the
        /// loop. Empty: no records (a guest is found by its route alone).
        std::function<void(const std::string& guest, SeatRead done)> seat_of = {};
        /// Clears `guest`'s seat record if it names `table` (one that ran nowhere for orphan_wait). May be empty.
        std::function<void(const std::string& guest, const std::string& table)> forget_seat = {};
        Millis request_timeout = 10000;  ///< a request to another node unanswered this long is answered storage_unavailable
        Millis settle = 2000;            ///< a route an answer set is not changed by a directory read sooner
        Millis orphan_wait = 15000;      ///< a route whose table no live node runs is dropped after this
        /// An operator's warning (key=value pairs): routes and fronts the directory dropped. May be empty.
        std::function<void(const std::string& line)> warn = {};
    };
    /// The directory as one refresh read it (cluster_node.cpp).
    struct Directory {
        std::map<std::string, NodeId> nodes;                       ///< live nodes by name
        std::unordered_map<std::string, std::string> table_node;   ///< table → name of the node running it
        Millis read_at = 0;                                        ///< when its read started
    };

    using Located = std::function<void(std::optional<Place>)>;

    RoutedTables(Hall& hall, Node node);

    // ---- Tables: the front's side (the hall's calls) ------------------------------------
    void request(const std::string& guest, const TableRequest& r, Answer done) override;
    void locate(const std::string& guest, Located done, bool returning) override;
    void connected(const std::string& guest) override;
    void disconnected(const std::string& guest) override;

    // ---- OtherFronts: the table host's side (frames for guests served by other fronts) ----
    void deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                 const std::string& history_key) override;
    void send(const std::string& guest, const std::string& text) override;

    // ---- the node's ---------------------------------------------------------------------
    /// A message of kind `kind` from node `from` (one of the kinds above).
    void received(const NodeId& from, const std::string& kind, const nlohmann::json& msg);
    /// A new read of the directory: routes follow their tables, requests to nodes gone are answered.
    void directory(Directory d);
    /// After this node wrote its seat records again (Redis lost them): every other node is told
    /// of each seated guest of its tables connected nowhere (`seated`), whose sign-in there may
    /// have found no record meanwhile; a node where it is, at no table, routes it to its seat.
    void offer_seats();
    /// This node's subscriber reconnected (its messages may have been lost): every route and
    /// every front of this node's guests is opened again.
    void resync();
    /// This node's host no longer runs `table` (closed, or dropped: another node may run it
    /// next): the fronts of its spectators are told (`dropped`), so they watch it again where it runs.
    void released(const std::string& table);
    /// Answers the requests whose time ran out.
    void tick(Millis now);
    /// /metrics "cluster" figures: routes (this node's guests at other nodes' tables), remote
    /// guests (other fronts' guests at this node's tables), requests waiting for another node,
    /// sign-ins waiting for their table to run again, guests here whose recorded table ran
    /// nowhere when they were looked up (routed to it once it runs).
    nlohmann::json metrics() const;

private:
    struct Route {
        std::string table;
        NodeId node;
        bool seated = false;
        Millis settled = 0;                ///< when an answer last set it
        std::optional<Millis> orphan;      ///< since when no live node runs its table
        bool lost = false;                 ///< its node let the table go (`dropped`): announce it again wherever it runs
    };
    struct Pending {
        NodeId node;
        std::string guest;
        Millis deadline = 0;
        Answer answer;       ///< a request's
        Located located;     ///< a place's
        Millis until = 0;    ///< a place's: when its locate gives up (find_place)
        bool announce = false;  ///< a spectator's watch sent again (announce)
        std::string table;   ///< a place's: the table it was asked about (empty: none)
    };

    /// A locate waiting for a table being taken over to run somewhere again.
    struct Locating {
        std::string guest;
        Millis until = 0;
        Located done;
        bool recorded = false;  ///< the guest's seat record was read for it
    };
    /// A guest at one of this node's tables that another front serves.
    struct Front {
        NodeId node;
        std::string history_sent;  ///< the last history key its frames carried
        std::optional<Millis> missing;  ///< since when its node is missing from the directory
    };

    /// Sends `r` of `guest` to `node` (this node: the local host), answered through `done`.
    /// `announce`: a spectator's watch sent again (its route is kept when it fails).
    void send_request(const NodeId& node, const std::string& guest, const TableRequest& r, Answer done, bool announce = false);
    /// Locates `guest` (Tables::locate): here, at its route's node, or where the table its seat
    /// record names runs; while that table runs nowhere (its node died or let it go, and no
    /// node has taken it over yet) the answer waits for a directory read that shows where it
    /// runs, until `until` (then: at no table). The record is read once per locate
    /// (`recorded`: done already, or not wanted: a guest made by its own hello sits nowhere).
    void find_place(const std::string& guest, Millis until, Located done, bool recorded = false);
    /// find_place, with the table `guest`'s seat record names (nullopt: none).
    void found_record(const std::string& guest, Millis until, std::optional<std::string> table, Located done);
    /// Asks node `at` where `guest` is (`place`), and whether it runs `table`, answered through
    /// `done` by `until` at the latest.
    bool ask_place(const NodeId& at, const std::string& guest, const std::string& table, Millis until, Located& done);
    /// Every waiting locate looks again (a new directory read, or a time up).
    void look_again();
    /// Routes a join of a guest at no table (here or elsewhere) to the node running its table.
    void route_join(const std::string& guest, const JoinRequest& j, const TableRequest& r, Answer done);
    void answered(const NodeId& from, const nlohmann::json& msg);
    /// Forgets `guest`'s route, telling its node (`disc`).
    void drop_route(const std::string& guest);
    /// Tells the node of `route` that `guest` is here (`conn`; a spectator watches again), so
    /// that it sends the guest its table.
    void announce(const std::string& guest, const Route& route);
    /// Removes pending request `it` (and its guest's index entry); `it` moves to the next.
    Pending take(std::map<std::uint64_t, Pending>::iterator& it);
    /// Answers every pending request `hopeless` says will get no answer (its node away or
    /// silent): storage_unavailable, or no place. The number answered.
    std::size_t give_up_if(const std::function<bool(const Pending&)>& hopeless);
    /// Host side: `from` serves `guest` (registered on first sight; the host counts it connected).
    Front& front_of(const std::string& guest, const NodeId& from);
    /// Host side: `from` no longer serves `guest`.
    void front_gone(const std::string& guest, const NodeId& from);
    bool accepts_send(const std::string& guest, const NodeId& from) const;
    bool publish(const NodeId& to, nlohmann::json msg);
    std::optional<NodeId> live(const std::string& name) const;
    /// The node that runs `table`: this one when its host does, else the live node the
    /// directory says; nullopt when none.
    std::optional<NodeId> runs(const std::string& table) const;
    /// True while `guest` has a request or a locate on its way (its answer places it).
    bool placing(const std::string& guest) const;

    Hall& hall_;
    Node node_;
    std::uint64_t next_ = 0;
    std::map<std::uint64_t, Pending> pending_;
    std::unordered_multimap<std::string, std::uint64_t> pending_of_;  ///< guest → its pending numbers
    std::unordered_map<std::string, Route> routes_;                    ///< this front's guests at other nodes' tables
    std::unordered_map<std::string, std::vector<Front>> fronts_;       ///< other fronts' guests at this node's tables
    std::unordered_map<std::string, std::string> watching_;            ///< those of them watching a table here: guest → table
    Directory dir_;
    /// Guest → the table its seat record named (or its route, once that node let the table go),
    /// while the guest is here and not placed at it.
    std::unordered_map<std::string, std::string> recorded_;
    std::vector<Locating> locating_;  ///< locates waiting for their table (find_place)
    std::uint64_t timeouts_ = 0;
};

}  // namespace tarneeb::server
