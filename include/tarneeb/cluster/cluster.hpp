// The shared, short-lived state of a cluster of `tarneeb serve` nodes, kept in Redis 7 through
// hiredis (issue 16; docs/scaling.md). What is here may be lost at any time — a Redis restart
// without persistence empties it — and the cluster stays safe: durable state and the fencing
// tokens that stop a stale table owner from writing live in PostgreSQL (Storage::claim_table).
//
//   RedisClient      one connection: commands, publish, ping; its thread reconnects with capped backoff
//   NodeId           a node's name plus a random instance id (a restarted node is a new instance)
//   TableLeases      which node owns a live table: SET NX PX, compare-and-PEXPIRE, compare-and-DEL
//   LeaseKeeper      renews a node's leases on its own thread and reports the ones it lost
//   ClusterDirectory node heartbeats (live nodes), seats (the table each person sits at) and
//                    each node's public lobby entries
//   Subscriber       pub/sub on its own connection and thread; resubscribes after a Redis restart
//
// Keys (PREFIX defaults to "tarneeb"; every value is a NodeId's text unless said otherwise):
//   PREFIX:lease:TABLE      the owner of TABLE, with the lease's TTL
//   PREFIX:node:NAME        the heartbeat of node NAME, with a TTL
//   PREFIX:seat:GUEST       the table GUEST sits at (a table id, not a NodeId), with a long TTL
//   PREFIX:lobby:NAME/INSTANCE  a hash: table id -> the table's public summary (JSON text), with a
//                               TTL (per instance: a restarted node never shows its old tables)
//
// Errors: every call that talks to Redis throws ClusterError with a stable code:
//   redis_unavailable  no connection to Redis (refused, lost, timed out, or Redis still loading
//                      its data); while the client is reconnecting it is thrown at once, without
//                      touching the network. A command that failed this way may or may not have
//                      run: every write here is safe to repeat (idempotent or compare-and-set).
//   redis_auth         Redis refused the password (AUTH, or NOAUTH / WRONGPASS to a command) or the
//                      database number (SELECT); while the client keeps being refused, every
//                      command throws it at once (the client keeps retrying with backoff)
//   redis_error        Redis answered with an error reply (the text is in what())
//   redis_reply        a reply of an unexpected shape (a key holding another type, say)
//   redis_url_invalid  parse_redis_url could not read the URL
//   invalid_argument   an empty or too long id, a node name outside [A-Za-z0-9._-], a key prefix
//                      outside [A-Za-z0-9._:-] (1-64 characters), a TTL < 1 ms
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

struct redisContext;

namespace tarneeb::server {

/// A failure of the cluster layer; `code()` is one of the stable codes of the file comment.
class ClusterError : public std::runtime_error {
public:
    ClusterError(std::string code, const std::string& what) : std::runtime_error(what), code_(std::move(code)) {}
    const std::string& code() const { return code_; }

private:
    std::string code_;
};

/// Where Redis is and how patiently to talk to it.
struct RedisOptions {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string username;  ///< Redis 6 ACL user; empty: AUTH with the password only
    std::string password;  ///< empty: no AUTH
    int db = 0;            ///< SELECT after connecting (pub/sub ignores it: channels are global)
    std::chrono::milliseconds connect_timeout{1000};  ///< one TCP connect + AUTH + SELECT
    std::chrono::milliseconds command_timeout{1000};  ///< one command's send and reply
    std::chrono::milliseconds backoff_initial{50};    ///< wait after the first failed connect
    std::chrono::milliseconds backoff_max{2000};      ///< the doubling wait stops growing here
    /// Subscriber only: after this long without a byte from Redis it sends PING; no answer
    /// within command_timeout and the connection is taken for dead (a host that vanished
    /// without closing the socket).
    std::chrono::milliseconds subscriber_ping_interval{1000};
};

/// Reads `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` (percent-escapes decoded in the user
/// and password; HOST may be an IPv6 literal in brackets). Timeouts keep their defaults.
/// Throws ClusterError{"redis_url_invalid"} for another scheme (rediss:// included: no TLS),
/// a missing host, or a port or database that is not a number in range.
RedisOptions parse_redis_url(std::string_view url);

/// Connects to Redis once on the caller's thread (TCP within connect_timeout, AUTH and SELECT
/// as `options` say), sends PING and closes: what `tarneeb serve` checks before it starts a
/// cluster node, so that a node that cannot reach or authenticate to its Redis exits at once
/// instead of running broken (issue 26). Throws ClusterError redis_unavailable (refused,
/// unreachable, no answer in time), redis_auth (the password or database refused, or NOAUTH
/// to the PING: Redis wants a password the URL lacks) or redis_reply.
void check_redis(const RedisOptions& options);

/// One reply of Redis (RESP2). Error replies are never values: they are thrown (redis_error).
struct RedisReply {
    enum class Kind { nil, integer, string, status, array };
    Kind kind = Kind::nil;
    std::int64_t integer = 0;         ///< Kind::integer
    std::string str;                  ///< Kind::string (binary-safe) and Kind::status
    std::vector<RedisReply> elements; ///< Kind::array
};

/// The answer of RedisClient::health(), for /healthz.
struct RedisHealth {
    bool up = false;
    std::chrono::microseconds latency{0};  ///< the PING's round trip when up
    std::string code;                      ///< the ClusterError code when down
};

/// One connection to Redis, shared by the threads of a node: every public method is
/// thread-safe (a mutex serialises the commands, so a slow command delays the others; nothing
/// here may be called on the server's event loop, which must never wait for the network).
///
/// Connecting: the constructor tries once (bounded by connect_timeout; it does not throw).
/// Whenever there is no connection — that first try failed, or a command found the connection
/// broken — a thread of the client reconnects in the background: at once, then after
/// backoff_initial, the wait doubling up to backoff_max after each failure. Meanwhile every
/// command throws at once, without touching the network: redis_unavailable, or redis_auth when
/// the last attempt was refused for its password or database. A command that
/// finds the connection broken is not retried (it may have run).
class RedisClient {
public:
    /// Tries to connect once (see above) and starts the reconnecting thread.
    explicit RedisClient(RedisOptions options);
    /// Stops and joins the reconnecting thread, closes the connection.
    ~RedisClient();
    RedisClient(const RedisClient&) = delete;
    RedisClient& operator=(const RedisClient&) = delete;

    /// Runs one command, each argument sent as-is (binary-safe). Throws the codes of the file
    /// comment; an error reply is redis_error, except LOADING (redis_unavailable).
    RedisReply command(const std::vector<std::string>& args);
    /// EVAL of a Lua script (atomic in Redis). `keys` become KEYS[1..], `args` ARGV[1..].
    RedisReply eval(std::string_view script, const std::vector<std::string>& keys,
                    const std::vector<std::string>& args);
    /// PUBLISH: the number of subscribers (of this Redis) that received the message. Delivery
    /// is at most once and only to subscribers connected right now.
    std::int64_t publish(std::string_view channel, std::string_view payload);
    /// PUBLISHes every (channel, payload) of `messages`, in order, pipelined: all are written at
    /// once, then their replies read, so a burst costs one round trip rather than one each.
    /// Throws like command() (some of the messages may have gone out).
    void publish_all(const std::vector<std::pair<std::string, std::string>>& messages);
    /// PING's round trip (steady clock). Throws like command().
    std::chrono::microseconds ping();
    /// ping() that never throws: up with the latency, or down with the error code.
    RedisHealth health() noexcept;
    /// True while a connection is open (it may still turn out broken on the next command).
    bool connected() const;
    /// Successful connects so far (1 after the first; each reconnect adds one), for metrics.
    std::uint64_t connects() const;
    const RedisOptions& options() const { return options_; }

private:
    void reconnect();  // the reconnecting thread
    /// Drops the broken connection (the reconnecting thread opens another) and throws `e`.
    [[noreturn]] void lose(const ClusterError& e);

    RedisOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable lost_;  // ctx_ became null, or stopping_
    redisContext* ctx_ = nullptr;   // null while away
    std::string last_error_;        // why the last connect attempt failed
    std::string last_code_ = "redis_unavailable";  // its code: redis_unavailable or redis_auth
    std::uint64_t connects_ = 0;
    bool stopping_ = false;
    std::thread reconnector_;
};

/// A node of the cluster: its configured name (`--node NAME`, [A-Za-z0-9._-], 1–64 characters)
/// and a random instance id (16 hex digits) drawn when the process starts, so a node restarted
/// under the same name is a different owner and never renews or releases its old leases.
/// Its text form (`text()`) is "NAME/INSTANCE".
struct NodeId {
    std::string name;
    std::string instance;

    /// A new instance of node `name` (instance from the OS CSPRNG). Throws invalid_argument
    /// for a bad name.
    static NodeId fresh(std::string name);
    /// The NodeId of a text "NAME/INSTANCE"; nullopt when it is not one.
    static std::optional<NodeId> parse(std::string_view text);
    std::string text() const { return name + "/" + instance; }
    bool operator==(const NodeId&) const = default;
};

/// Table ownership leases. A lease is the key PREFIX:lease:TABLE holding the owner's NodeId
/// text with a TTL: the owner renews it while it lives; when it stops (crash, pause, partition)
/// the key expires and another node may acquire the table. A lease says who *should* run a
/// table; it is not a fence — an owner paused past its TTL does not know it lost the lease until
/// it asks, so every journal write also carries the PostgreSQL fencing token
/// (Storage::claim_table), which refuses the writes of an ex-owner.
/// Thread-safe as its RedisClient. `ttl` must be at least 1 ms (invalid_argument).
class TableLeases {
public:
    explicit TableLeases(RedisClient& redis, std::string prefix = "tarneeb");

    /// True when `node` holds the lease on `table` now, for `ttl` from now: it was free (SET NX
    /// PX) or already `node`'s (then its TTL is reset, so repeating a call whose reply was lost
    /// is safe). False when another node (or another instance of this name) holds it.
    bool acquire(std::string_view table, const NodeId& node, std::chrono::milliseconds ttl);
    /// Extends `node`'s lease to `ttl` from now; false when the lease is not `node`'s any more
    /// (expired, taken over, deleted, or Redis restarted empty). One Lua script: compare, PEXPIRE.
    bool renew(std::string_view table, const NodeId& node, std::chrono::milliseconds ttl);
    /// renew() for many tables in one round trip (one script): result[i] is tables[i]'s answer.
    std::vector<bool> renew_many(const std::vector<std::string>& tables, const NodeId& node,
                                 std::chrono::milliseconds ttl);
    /// Gives the lease up if it is `node`'s (compare-and-DEL); true when it was deleted.
    bool release(std::string_view table, const NodeId& node);
    /// The node holding the lease on `table`, or nullopt when it is free.
    std::optional<NodeId> owner(std::string_view table);
    /// The Redis key of `table`'s lease.
    std::string key(std::string_view table) const;

private:
    RedisClient& redis_;
    std::string prefix_;
};

/// Keeps a node's leases alive: a thread renews every lease it keeps every ttl/3 (all in one
/// round trip) and calls `on_lost(table, code)` — on that thread, with no lock held — once for
/// each lease it stopped keeping on its own, with code:
///   lease_not_ours  a renew answered that the lease is not this node's any more
///   lease_expired   no renew succeeded for a whole ttl (Redis unreachable): the lease may have
///                   expired and been taken by another node
/// The node must then stop running (and writing) that table. It learns this late by design:
/// up to one renew period after the fact, or a ttl after the last successful renew started;
/// the PostgreSQL fence covers that window. Thread-safe; `on_lost` may call keep/release.
class LeaseKeeper {
public:
    using LostFn = std::function<void(const std::string& table, const std::string& code)>;

    /// Starts the renew thread. `ttl` at least 3 ms (invalid_argument).
    LeaseKeeper(TableLeases& leases, NodeId node, std::chrono::milliseconds ttl, LostFn on_lost);
    /// stop(): joins the thread. Leases are not released (they expire by themselves).
    ~LeaseKeeper();
    LeaseKeeper(const LeaseKeeper&) = delete;
    LeaseKeeper& operator=(const LeaseKeeper&) = delete;

    /// TableLeases::acquire, and keeps the lease when it returns true. Throws like it.
    bool acquire(const std::string& table);
    /// Keeps a lease the node already holds (just acquired by TableLeases::acquire).
    void keep(const std::string& table);
    /// Stops keeping `table` and releases its lease (compare-and-DEL); throws like
    /// TableLeases::release, after it stopped keeping the lease.
    void release(const std::string& table);
    /// The tables whose leases are kept, sorted.
    std::vector<std::string> held() const;
    bool holds(const std::string& table) const;
    /// Renew rounds run so far (for tests and metrics).
    std::uint64_t rounds() const;
    /// Stops and joins the thread. Idempotent.
    void stop();

private:
    void run();

    TableLeases& leases_;
    NodeId node_;
    std::chrono::milliseconds ttl_;
    LostFn on_lost_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    struct Kept {
        std::chrono::steady_clock::time_point confirmed;  // the last successful renew (or acquire) was sent
        std::uint64_t generation = 0;                     // which keep() of the table this is
    };
    std::map<std::string, Kept> kept_;
    std::uint64_t generation_ = 0;
    std::uint64_t rounds_ = 0;
    bool stopping_ = false;
    std::thread thread_;
};

/// One public table of one node's lobby.
struct LobbyEntry {
    std::string node;     ///< the owning node's name
    std::string table;    ///< table id
    std::string summary;  ///< the table's public summary, as the node wrote it (JSON text)
    bool operator==(const LobbyEntry&) const = default;
};

/// Node membership, seats and the lobby. Heartbeats and lobbies have a TTL and are kept alive by
/// their node rewriting them (heartbeat every ttl/3, say): a node that dies vanishes from them
/// within a TTL. A seat outlives its node (its table is taken over with its seats); it is cleared
/// when its guest leaves, and its long TTL only bounds one whose clearing was lost. Thread-safe as
/// its RedisClient. TTLs at least 1 ms (invalid_argument).
class ClusterDirectory {
public:
    explicit ClusterDirectory(RedisClient& redis, std::string prefix = "tarneeb");

    /// Writes node's heartbeat (PREFIX:node:NAME = its NodeId text) for `ttl`; a restarted
    /// node's heartbeat replaces its old instance's.
    void heartbeat(const NodeId& node, std::chrono::milliseconds ttl);
    /// The nodes whose heartbeat has not expired, sorted by name (SCAN, not KEYS: it does not
    /// block Redis).
    std::vector<NodeId> live_nodes();
    /// Removes node's heartbeat and lobby if they are still this instance's (a clean shutdown).
    void leave(const NodeId& node);

    /// Records that `guest` sits at `table`, for `ttl` (the cluster's guest→table record: written
    /// before the seat is acknowledged, ClusterHooks::seated; written again after Redis lost it,
    /// or by a node taking the table over), unless it names another table that some node runs
    /// (a lease holds it): the guest sits there. One script: true when the record names
    /// `table` after it, false when it was left naming the other table.
    bool set_seat(std::string_view guest, std::string_view table, std::chrono::milliseconds ttl);
    /// The table `guest` sits at, or nullopt (none, or its record expired or was lost).
    std::optional<std::string> seat(std::string_view guest);
    /// seat() of each of `guests` in one round trip (MGET), in their order.
    std::vector<std::optional<std::string>> seats(const std::vector<std::string>& guests);
    /// Removes `guest`'s seat if it is at `table` (compare-and-DEL: a guest who sat down at
    /// another table meanwhile keeps that record); true when it was removed.
    bool clear_seat(std::string_view guest, std::string_view table);

    /// Replaces node's lobby with `entries` (table -> summary), TTL `ttl`, in one script.
    /// Each entry's `node` is ignored (it is `node`'s). Empty entries: the lobby is removed.
    void set_lobby(const NodeId& node, const std::vector<LobbyEntry>& entries, std::chrono::milliseconds ttl);
    /// Adds or replaces one table in node's lobby and resets the lobby's TTL to `ttl`.
    void set_lobby_entry(const NodeId& node, std::string_view table, std::string_view summary,
                         std::chrono::milliseconds ttl);
    /// Removes one table from node's lobby.
    void remove_lobby_entry(const NodeId& node, std::string_view table);
    /// Every live node's lobby entries, by node name then table id. A dead node's entries
    /// are left out as soon as its heartbeat expires, even before its lobby's TTL.
    std::vector<LobbyEntry> lobby();

private:
    RedisClient& redis_;
    std::string prefix_;
};

/// One message received by a Subscriber.
struct PubSubMessage {
    std::string pattern;  ///< the pattern that matched (psubscribe), empty for a channel subscription
    std::string channel;
    std::string payload;  ///< binary-safe
};

/// Pub/sub on its own connection and thread. `on_message` runs on that thread, one message at a
/// time in the order Redis sent them; it must be quick (queue the work elsewhere) and must not
/// throw (an exception is caught and dropped with its message).
///
/// After the connection breaks (Redis restarted, say) it reconnects with the RedisClient's
/// backoff and subscribes again to everything it was asked for. Messages published while it
/// was away are lost, and Redis drops a subscriber that reads too slowly (its output buffer
/// limit): pub/sub is at most once. The cluster uses it for speed, never for safety — the
/// journal and fences in PostgreSQL are the truth, and a node that reconnects re-reads state.
/// Thread-safe.
class Subscriber {
public:
    using Handler = std::function<void(const PubSubMessage&)>;

    /// Starts the thread, which connects at once (and keeps trying with backoff).
    Subscriber(RedisOptions options, Handler on_message);
    /// stop().
    ~Subscriber();
    Subscriber(const Subscriber&) = delete;
    Subscriber& operator=(const Subscriber&) = delete;

    /// SUBSCRIBE to a channel (exact name), now and after every reconnect.
    void subscribe(const std::string& channel);
    /// PSUBSCRIBE to a glob pattern (`table:*`), now and after every reconnect.
    void psubscribe(const std::string& pattern);
    void unsubscribe(const std::string& channel);
    void punsubscribe(const std::string& pattern);
    /// Waits until Redis confirmed every channel and pattern asked for on the current
    /// connection (then a message published from now on is received) or `max` passed;
    /// returns whether it did.
    bool wait_ready(std::chrono::milliseconds max);
    /// Connections that confirmed their subscriptions so far (one more after each reconnect).
    std::uint64_t sessions() const;
    /// Keepalive PINGs answered so far, over every connection (read-only; tests wait on it).
    std::uint64_t keepalives() const;
    /// Stops and joins the thread; no handler runs after it returns. Idempotent.
    void stop();

private:
    void run();
    void wake();
    bool ready_locked() const;

    RedisOptions options_;
    Handler on_message_;
    int wake_fd_ = -1;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::set<std::string> channels_, patterns_;    // wanted
    std::set<std::string> confirmed_channels_, confirmed_patterns_;  // on the current connection
    std::vector<std::vector<std::string>> outbox_;  // commands to send on the current connection
    bool connected_ = false;
    std::uint64_t sessions_ = 0;
    std::uint64_t keepalives_ = 0;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace tarneeb::server
