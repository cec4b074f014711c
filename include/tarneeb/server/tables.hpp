// Where a front sends a guest's table requests (issue 26, "tables are routed, not connections"):
// the tables one front serves its guests from. A process alone has one implementation, its own
// TableHost (table_host.hpp); a cluster node has RoutedTables (cluster/routed_tables.hpp), which
// sends each request to the node running the guest's table — its own TableHost, or another
// node's over Redis — and brings the answer and that table's frames back. The front (the Hall)
// never moves a connection: it calls these, on its loop, and delivers what comes back.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/room/protocol.hpp"
#include "tarneeb/room/table_request.hpp"

namespace tarneeb::server {

/// The answer to one table request: the reply's body (ok_json, error_json...; the front adds the
/// request's id). Called exactly once, on the loop, maybe before the call that asked returns.
using Answer = std::function<void(nlohmann::json body)>;

/// Where a guest is: its table and seat (nullopt: a spectator).
struct Place {
    std::string table;
    std::optional<Seat> seat;
};

class Tables {
public:
    virtual ~Tables() = default;
    /// A table request of signed-in `guest` (join, leave, add_bot, remove_bot, start, act, hint,
    /// chat): answered exactly once through `done`, in the order the guest's requests were made.
    virtual void request(const std::string& guest, const TableRequest& r, Answer done) = 0;
    /// Where `guest` sits or watches (nullopt: at no table), through `done` (exactly once; at
    /// once for a table of this process, later for another node's). `returning`: the guest
    /// existed before this sign-in (a token or a password), so it may sit at a table this front
    /// has not heard of (in a cluster its seat record is read); false for a guest made just now,
    /// or one this front has served since its sign-in (quick play).
    virtual void locate(const std::string& guest, std::function<void(std::optional<Place>)> done, bool returning) = 0;
    /// `guest` signed in on one more connection of this front: it counts as connected again at
    /// its table, whose message and chat it gets (after its welcome).
    virtual void connected(const std::string& guest) = 0;
    /// The last connection of `guest` at this front closed: a seated guest keeps its seat (the
    /// grace period runs), a spectator stops watching.
    virtual void disconnected(const std::string& guest) = 0;
};

/// The connections other nodes' fronts hold for guests at this node's tables (a cluster node's
/// RoutedTables): the table host's frames for a guest go there too, besides the guest's
/// connections here. Each frame is built for the guest's seat here, before it leaves the node.
class OtherFronts {
public:
    virtual ~OtherFronts() = default;
    /// As TableFront::deliver: `message` as seen from `seat` for `guest` at every other front.
    virtual void deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                         const std::string& history_key) = 0;
    /// As TableFront::send: the text frame `text` for `guest` at every other front.
    virtual void send(const std::string& guest, const std::string& text) = 0;
};

}  // namespace tarneeb::server
