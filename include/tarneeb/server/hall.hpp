// The hall: everything the server does between the sockets and the tables, with no sockets
// (docs/protocol.md). It signs guests in, runs the lobby, routes each client message to its
// table, fans every table change out to the table's players and spectators (each message
// built for that connection's seat), drives timers through tick(), journals live tables and
// stores finished matches in Storage, and answers the JSON HTTP endpoints.
//
// Threading: a Hall is not thread-safe; the transport calls it from one thread (one
// io_context thread: see src/server/transport.cpp for why). Connections are opaque ids
// chosen by the transport; the hall answers through the Outbox callbacks.
//
// Limits enforced here (so that they are tested without sockets): message size, per-connection
// rate limit (token bucket), malformed messages (3 close the connection), connections per
// address and per token, waiting tables per guest and per address, the lobby's page size.
//
// Storage errors (StorageError: disk full, read-only file...): every table writes its journal
// entry before it changes, so a failed write leaves the table as it was. The request gets the
// error `storage_unavailable`; a bot or timer action that cannot be written is tried again at
// the next tick; a finished match that cannot be stored is kept and stored again once a second
// (and before the table's next start). /healthz answers 503 while writes fail. The hall keeps
// serving: reads, spectators and every table go on as soon as the database takes writes again.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "tarneeb/server/storage.hpp"
#include "tarneeb/server/table.hpp"

namespace tarneeb::server {

using ConnId = std::uint64_t;

struct HallConfig {
    TableTiming timing;                 ///< bot delay, grace period, stand-in bot
    std::string default_bot = "heuristic";
    int max_tables = 10000;             ///< live tables at once
    std::size_t max_message_bytes = 16 * 1024;
    double rate_per_second = 20;        ///< messages per second per connection...
    double rate_burst = 40;             ///< ...with this burst
    int max_bad_messages = 3;           ///< malformed messages before the connection is closed
    int max_rate_rejections = 200;      ///< rate-limited messages before it is closed
    // Per-guest and per-address limits (one client must not fill the server; security #11).
    // An address is the peer's IP address as the transport gives it to open().
    int max_waiting_tables_per_guest = 1;    ///< tables a guest created that have not started yet
    int max_waiting_tables_per_address = 10; ///< the same, over every guest of one address
    int max_connections_per_guest = 8;       ///< connections signed in with one token at once
    int max_connections_per_address = 64;    ///< connections from one address at once
    std::size_t list_page_max = 50;     ///< tables in one `tables` page at most (and by default)
    std::uint64_t seed = 0;             ///< seeds of deals, bots, tokens and join codes; 0 = from std::random_device
};

/// How the hall talks back to the transport.
struct Outbox {
    /// Queue one text frame for a connection.
    std::function<void(ConnId, std::string)> send;
    /// Close a connection with a WebSocket close code and reason.
    std::function<void(ConnId, int code, std::string reason)> close;
    /// An operator's log line (key=value pairs): storage failures (`error` true) and recoveries
    /// (`error` false). May be empty.
    std::function<void(bool error, const std::string& line)> log;
};

/// An HTTP answer: status, content type, body.
struct HttpReply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
};

class Hall {
public:
    Hall(Storage& storage, BotFactory bots, HallConfig config, Outbox outbox);

    /// Reloads every live table from the journal (after a restart). Their players count as
    /// disconnected from `now` (the grace period starts). Returns the number of tables.
    int resume(Millis now);

    /// Whether a new connection from `address` (the peer's IP address) is within
    /// max_connections_per_address; the transport refuses the upgrade when it is not.
    bool admits(const std::string& address) const;
    /// A connection opened from `address` (the peer's IP address; tests may pass any string).
    /// Over max_connections_per_address it gets the error `too_many_connections` and is closed
    /// (1008); it is not registered and its messages are ignored.
    void open(ConnId conn, const std::string& address, Millis now);
    void closed(ConnId conn, Millis now);
    /// One text frame from a connection.
    void message(ConnId conn, std::string_view text, Millis now);
    /// Runs every table's due timers and bots. Call at next_wakeup() or periodically.
    /// Once a second it also closes abandoned tables: not playing, no seated player connected
    /// and no spectator, for longer than the grace period (their seats are freed).
    void tick(Millis now);
    /// The earliest time a table needs tick().
    std::optional<Millis> next_wakeup() const;

    /// Answers GET `target` for /healthz, /metrics and /api/...; nullopt for other paths.
    std::optional<HttpReply> http_get(std::string_view target, Millis now);

    int connections() const { return static_cast<int>(conns_.size()); }
    int tables() const { return static_cast<int>(tables_.size()); }

    // ---- inspection (tests, fuzzing) -------------------------------------------------
    /// The live table `id`, or nullptr.
    const Table* table(const std::string& id) const;
    /// Where the signed-in guest of connection `conn` is: its table id ("" for none) and seat
    /// (nullopt for a spectator or no table); nullopt when the connection is not signed in.
    std::optional<std::pair<std::string, std::optional<Seat>>> where(ConnId conn) const;
    /// Everything a client message can change, as one JSON value: every table's summary (seats,
    /// connections, stand-ins, spectators, state), version (every change of its match increases
    /// it) and watchers, and every guest's table, seat and connection count. Two equal snapshots
    /// mean no table or guest changed (fuzz_protocol: a rejected message changes nothing).
    nlohmann::json snapshot() const;

private:
    struct Conn {
        std::string name;          ///< signed-in guest, "" before hello
        std::string address;       ///< the peer's address given to open()
        double tokens = 0;         ///< rate-limit bucket
        Millis refilled = 0;
        int bad = 0;
        int limited = 0;
    };
    struct Guest {
        std::set<ConnId> conns;
        std::string table;         ///< "" when at no table
        std::optional<Seat> seat;  ///< nullopt: spectator (when table is set)
    };
    struct TableEntry {
        std::unique_ptr<Table> table;
        std::set<std::string> watchers;  ///< guests at the table (players and spectators)
        int spectators = 0;
        std::optional<Millis> abandoned_since;
        std::string creator;          ///< the guest that created it ("" after a restart)
        std::string creator_address;  ///< that guest's connection's address
    };
    /// The error code when `c` may not create another table (waiting-table limits), else nullopt.
    std::optional<ProtocolError> create_limit(const Conn& c) const;
    void sweep(Millis now);
    Millis last_sweep_ = 0;

    /// Runs the table's due timers and bots, then publishes. Never throws.
    void advance(TableEntry& t, Millis now);
    /// Notes a storage failure (logged once until the next successful write).
    void storage_failed(const StorageError& e, std::string_view op);
    void storage_worked();
    /// Stores the finished matches a failed write left pending; throws StorageError.
    void store_pending();
    void close_table_in_storage(const std::string& id);
    /// The /api/... answers (reads the database; throws StorageError).
    std::optional<HttpReply> api_get(std::string_view path);

    void reply(ConnId conn, const nlohmann::json& id, nlohmann::json body);
    void error(ConnId conn, const nlohmann::json& id, std::string_view code, std::string message = {});
    void dispatch(ConnId conn, Conn& c, const nlohmann::json& msg, Millis now);
    void hello(ConnId conn, Conn& c, const nlohmann::json& msg, Millis now);
    /// `list`: one page of public tables (docs/protocol.md "list").
    void list_tables(ConnId conn, const nlohmann::json& id, const nlohmann::json& msg);
    void leave_table(const std::string& name, Millis now);
    /// Sends each watcher its table message with the pending events; stores a finished match.
    void publish(TableEntry& t);
    void send_table(const std::string& name, TableEntry& t, const nlohmann::json& events);
    std::uint64_t next_seed();
    std::string new_token();
    TableEntry* find_table(const std::string& id);
    Table::JournalSink journal_for(const std::string& id);
    void record_latency(double ms, Millis now);

    Storage& storage_;
    BotFactory bots_;
    HallConfig config_;
    Outbox out_;
    std::uint64_t rng_state_;
    std::unordered_map<ConnId, Conn> conns_;
    std::unordered_map<std::string, int> conns_per_address_;  ///< open connections by address
    std::unordered_map<std::string, Guest> guests_;
    std::map<std::string, TableEntry> tables_;

    // metrics
    Millis started_ = 0;
    std::uint64_t actions_total_ = 0;
    std::deque<Millis> recent_actions_;     ///< times of actions in the last 10 s
    std::deque<double> latencies_ms_;       ///< last 10,000 act latencies
    std::uint64_t storage_errors_ = 0;      ///< failed writes since start
    std::optional<std::string> storage_failing_;  ///< the error code while writes fail
    std::vector<MatchRow> pending_matches_;       ///< finished matches not stored yet
};

}  // namespace tarneeb::server
