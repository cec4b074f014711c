// What a Hall (hall.hpp) is given: its limits and settings (HallConfig), the transport's
// callbacks it answers through (Outbox), its HTTP answer's shape (HttpReply) and, in a cluster or
// a process of shards, the hooks of its node (ClusterHooks). Plain types, no behaviour.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/room/table.hpp"
#include "tarneeb/server/accounts.hpp"
#include "tarneeb/server/limits.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

class Tables;       // tables.hpp
class OtherFronts;  // tables.hpp

/// The shortest operator token served (HallConfig::operator_token): 32 bytes of a random token
/// (e.g. `openssl rand -hex 32`) cannot be guessed over HTTP.
inline constexpr std::size_t kMinOperatorToken = 32;

/// A connection's id, chosen by the transport (opaque to the hall).
using ConnId = std::uint64_t;

struct HallConfig {
    TableTiming timing;                 ///< bot delay, grace period, stand-in bot
    std::string default_bot = "heuristic";
    /// Names no guest may take, compared by key (names.hpp): the bots' registry names
    /// (`tarneeb serve` passes bots::registry()).
    std::vector<std::string> reserved_names;
    int max_tables = 10000;             ///< live tables at once
    std::size_t max_message_bytes = 16 * 1024;
    RateLimit rate;                     ///< each connection's message rate
    int max_bad_messages = 3;           ///< malformed messages before the connection is closed
    // Per-guest and per-address limits (one client must not fill the server; security #11).
    // An address is the peer's IP address as the transport gives it to open().
    int max_waiting_tables_per_guest = 1;    ///< tables a guest created that have not started yet
    int max_waiting_tables_per_address = 10; ///< the same, over every guest of one address
    /// Tables created from one address that play at once (issue 27: 300 started by fresh
    /// guests in 4 s, each left to stand-ins); past it `start` is refused (too_many_tables).
    int max_playing_tables_per_address = 16;
    /// Outside engines (`tarneeb serve --engine NAME=CMD`): their names, and their processes'
    /// budget (limits.hpp EngineBudget; issue 27): engine-bot seats at live tables over the
    /// server, and over the tables created from one address; past either, add_bot of an
    /// engine is refused (engine_budget). Built-in bots are not counted.
    std::vector<std::string> engine_bots;
    int max_engine_processes = 64;
    int max_engine_processes_per_address = 6;
    /// A table playing with no person connected this long is closed, its match stored as
    /// abandoned (stand-ins do not play out matches nobody watches or plays).
    Millis unattended_ms = 120000;
    /// Where those tables are counted: shared when set (halls that share limits); null, the
    /// hall counts its own.
    std::shared_ptr<WaitingTables> waiting_tables;
    int max_connections_per_guest = 8;       ///< connections signed in with one token at once
    int max_connections_per_address = 64;    ///< connections from one address at once
    std::size_t list_page_max = 50;     ///< tables in one `tables` page at most (and by default)
    /// A connection watching the lobby (`list` with `watch`) gets at most one pushed `tables`
    /// page per this many milliseconds, however many tables change meanwhile.
    Millis lobby_push_ms = 250;
    /// 0 (the default, and the only setting for a server on the internet): every deal's seed, and
    /// every bot's, is drawn from the OS CSPRNG, independently. Any other value is a test-only
    /// deterministic mode: seeds follow from it, so the same moves give the same cards.
    /// Tokens and join codes always come from the CSPRNG.
    std::uint64_t seed = 0;
    unsigned bot_threads = 0;           ///< threads bots think on; 0 = the machine's cores
    std::size_t write_queue = 4096;     ///< database jobs waiting at most (then storage_busy)
    /// Group commit: table changes written in one transaction at most (one writer job's batch;
    /// change_table). 1 writes each change alone. At least 1.
    std::size_t journal_batch = 256;
    std::size_t max_waiting_messages = 256;  ///< a busy guest's messages queued at most (then closed)
    // The analysis queue (GET /api/matches/{id}/analysis, hall_analysis.cpp; docs/operations.md).
    unsigned analysis_threads = 1;      ///< threads that analyse deals (each leases one DDS thread)
    std::size_t analysis_queue = 32;    ///< analyses queued or running at most (then 503 analysis_busy)
    /// Analyses one IP address may have queued or running at once (then 503 analysis_busy with
    /// "scope": "address"), so that one address cannot keep the whole queue full.
    std::size_t analysis_per_address = 8;
    Millis analysis_budget_ms = 20000;  ///< CPU time of one analysis at most (then it fails: too_slow)
    /// The operator's bearer token for GET /api/fairplay (hall_fairplay.cpp; docs/operations.md
    /// "Fair-play report"), at least kMinOperatorToken bytes. Empty: the endpoint is not served (404).
    std::string operator_token;
    // Accounts (hall_accounts.cpp, accounts.hpp; docs/protocol.md "Accounts").
    Millis session_ttl_ms = 30LL * 24 * 3600 * 1000;  ///< a registered player's session lasts this long
    unsigned password_threads = 1;      ///< threads that hash and check passwords (64 MiB each while they do)
    std::size_t password_queue = 16;    ///< password jobs waiting at most (then `busy`)
    int name_failures = kNameFailures;          ///< failed sign-ins per name key from one address in the window (then its spacing, SignInAttempts)...
    int address_failures = kAddressFailures;    ///< ...and per address (then too_many_attempts)
    Millis attempt_window_ms = kAttemptWindowMs;
    /// Registrations (issue 27: 40 at once from 5 addresses made every sign-in `busy`): at most
    /// this many from one address per attempt window (then too_many_attempts), and at most half
    /// of `password_queue` in flight at once (then busy), so that sign-ins always have room.
    int registrations_per_address = 10;
    /// New guest names (`hello` with a name) from one address per attempt window (issue 27:
    /// guests cost nothing, and each is a stored player); then too_many_attempts. 0: no limit
    /// (load tests from one address). A returning guest (its token) is never counted.
    int new_guests_per_address = 30;
    /// Private tables' join codes (issue 27: guessed at ~1,500 tries a second): wrong codes
    /// from one address in the window (then too_many_attempts), and for one table from anywhere
    /// (then that table's joins with a code are spaced 1 s doubling to 30 s, AttemptSpacing).
    int code_failures_per_address = kCodeFailuresPerAddress;
    int code_failures_per_table = kCodeFailuresPerTable;
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
    /// Runs a job on the hall's thread, from any thread (the writer and bot threads hand their
    /// results back this way). Required.
    std::function<void(std::function<void()>)> post;
};

/// An HTTP answer: status, content type, body.
struct HttpReply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
};

/// A JSON answer with `status`.
inline HttpReply json_reply(int status, const nlohmann::json& body) { return HttpReply{status, "application/json", body.dump()}; }

/// What a cluster node (cluster_node.hpp) asks of its hall; every hook is empty on a single
/// node, and the hall then behaves exactly as before. Set once, before the first message.
struct ClusterHooks {
    /// On the writer thread, right after create_table: takes the new table for this node (its
    /// lease, then Storage::claim_table) and returns the fencing token every write of the table
    /// carries. Throws StorageError (the creation is refused with storage_unavailable) when it
    /// cannot.
    std::function<std::int64_t(Storage&, const std::string& table)> take;
    /// On the writer thread, just before the journal write that seats the people `guests` at
    /// `table` (so before any of them is told): records where they sit, the cluster's
    /// guest→table record (ClusterDirectory::set_seat), which a returning guest's sign-in on any
    /// node reads to find its seat — this node may die at any moment after. Returns those of
    /// them whose record names another table that runs: they sit there (sat down through
    /// another node at the same moment), and the write is refused (`already_seated`). Never
    /// throws (a Redis failure is counted, refuses nothing, and the records are written again
    /// when Redis is back: `restored`).
    std::function<std::vector<std::string>(const std::string& table, const std::vector<std::string>& guests)> seated;
    /// On the writer thread, in order with `seated`: `guests` sit at `table`, which this hall
    /// runs (it took the table over, or Redis lost the records): their records are written again,
    /// save one naming another table that runs (ClusterDirectory::set_seat). Never throws.
    std::function<void(const std::string& table, const std::vector<std::string>& guests)> restored;
    /// On the writer thread, in order with `seated` (a guest who leaves a table and sits down at
    /// it again keeps its record): `guests` no longer sit at `table` (just before the write that
    /// unseats them; or it closed); their records go. Never throws.
    std::function<void(const std::string& table, const std::vector<std::string>& guests)> unseated;
    /// On the hall's thread: the hall no longer runs `table` (closed, swept or dropped).
    std::function<void(const std::string& table)> released;
    /// For /healthz: nullopt while the cluster's shared services answer, else their error code
    /// (then /healthz answers 503 with "redis": the code).
    std::function<std::optional<std::string>()> failing;
    /// /metrics "cluster": the node's own figures.
    std::function<nlohmann::json()> metrics;
    /// True when this cluster node's hall runs the tournaments; else tournament_create is
    /// refused (`tournament_unavailable`: a tournament lives in one
    /// hall's memory, and a cluster's nodes would each run it).
    bool tournaments = false;
    /// On the hall's thread, after it signed connections of guest `name` out (sign_out,
    /// sign_out_everywhere, a password change): the other nodes close theirs alike
    /// (Hall::sign_out_here with the same arguments), since the guest's other connections may
    /// be served there.
    std::function<void(const std::string& name, const std::string& only_token_hash, const std::string& keep_token_hash)> signed_out;
    /// Where the hall sends its guests' table requests (routed_tables.hpp: this node's host or
    /// another node's); null: its own TableHost.
    Tables* tables = nullptr;
    /// The other nodes' fronts the hall's table host also delivers to; null: none.
    OtherFronts* fronts = nullptr;
};

}  // namespace tarneeb::server
