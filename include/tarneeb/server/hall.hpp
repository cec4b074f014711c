// The hall: the front of one event loop, everything the server does between the sockets and
// the tables, with no sockets (docs/protocol.md). It signs guests in, keeps each guest's
// requests in order (one at a time; `ping` is answered at once), runs the lobby, accounts,
// tournaments and the JSON HTTP endpoints, and owns the writer thread. The tables are its
// TableHost's (table_host.hpp): `create` and every table request go to the host as typed
// requests, the host answers each once, and the hall delivers the host's frames (each built for
// the recipient's seat) to every connection of the guest: the hall is the host's TableFront.
//
// Threading: a Hall is not thread-safe; the transport calls it from one thread, the hall's
// thread (one io_context thread: see src/net/shard.hpp for why). Nothing slow runs
// there (docs/architecture.md "Server threads"): every database access runs on the hall's
// writer thread (a bounded queue: when it is full a change is refused with
// `storage_unavailable`, code storage_busy) and bots think on the host's worker threads; their
// results come back to the hall's thread through Outbox::post. A change of a table is journaled
// before it is made and acknowledged after (Table's prepare/commit): while its write is in
// flight the table is busy, and requests for it, its timers and its bots wait their turn.
// Group commit (StoreWriter, store_writer.hpp): the journal writes of changes made while the
// writer is busy with earlier jobs share one writer job and one transaction, at most
// HallConfig::journal_batch; the writer still runs every job in the order it was submitted, and
// each change is acknowledged only after its own write committed.
// Connections are opaque ids chosen by the transport; the hall answers through the Outbox.
//
// One role per file: src/server/hall.cpp (the writer, a guest's queue, storage failures, the
// cluster's calls, delivery), hall_admission.cpp (connections and limits), hall_lobby.cpp (the
// dispatcher, the lobby, the hand-over to the host), hall_accounts.cpp (hello, accounts:
// passwords checked and hashed on their own threads), hall_tournament.cpp, hall_http.cpp (the
// HTTP API), hall_metrics.cpp (metrics), hall_analysis.cpp (the analysis queue). Every
// message's JSON is built by protocol.hpp.
//
// Limits enforced here (so that they are tested without sockets): message size, per-connection
// rate limit (token bucket), malformed messages (3 close the connection), connections per
// address and per token, waiting tables per guest and per address, the lobby's page size, and
// lobby pushes to connections that watch it (`list` with `watch`): at most one per
// lobby_push_ms, sent from tick(), and only when the watched page changed.
// Accounts (hall_accounts.cpp): failed sign-ins per name key and per address in a sliding
// window, and at most password_queue password jobs waiting (then `busy`).
//
// Storage errors (StorageError: disk full, read-only file, locked...): every table writes its
// journal entry before it changes, so a failed write leaves the table as it was. The request gets the
// error `storage_unavailable`; a bot or timer action that cannot be written is tried again at
// the next tick; a finished match that cannot be stored is kept and stored again once a second
// (and before the table's next start). /healthz answers 503 while writes fail (and, on a remote
// store such as PostgreSQL, when its ping on the writer thread fails). The hall keeps
// serving: reads, spectators and every table go on as soon as the database takes writes again.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/room/protocol.hpp"
#include "tarneeb/room/table.hpp"
#include "tarneeb/server/accounts.hpp"
#include "tarneeb/server/chat.hpp"
#include "tarneeb/server/client_request.hpp"
#include "tarneeb/server/hall_config.hpp"
#include "tarneeb/server/store_writer.hpp"
#include "tarneeb/server/table_host.hpp"
#include "tarneeb/server/tables.hpp"
#include "tarneeb/server/tournament.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

class Hall : private TableFront {
public:
    /// Starts the writer and bot threads. `storage` is used by the writer thread only (and by
    /// resume(), before any other call). `reads`, if given, is a second connection to the same
    /// database for the reads that need no order with the writes (a sign-in's token: a welcome
    /// never waits behind the journal, and a storm of reconnects after a node's death never
    /// holds up the tables' writes); it gets a thread of its own. Null: the writer reads too
    /// (an in-memory SQLite database has no second connection).
    Hall(Storage& storage, BotFactory bots, HallConfig config, Outbox outbox, Storage* reads = nullptr);
    /// stop(), then nothing more is posted.
    ~Hall();
    Hall(const Hall&) = delete;
    Hall& operator=(const Hall&) = delete;
    /// Stops the worker threads (the writer finishes the writes queued): call before the hall's
    /// thread stops running posted jobs for good. Posted results not run yet are simply dropped.
    void stop();
    /// True when no database job, bot decision or posted result is outstanding (tests: run
    /// posted jobs until idle).
    bool idle() const { return outstanding_ == 0 && host_->idle(); }

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
    /// Runs every table's due timers and bots (a bot's decision is applied once it has come back
    /// and the bot delay has passed). Call at next_wakeup() or periodically.
    /// Once a second it also closes abandoned tables: not playing, no seated player connected
    /// and no spectator, for longer than the grace period (their seats are freed).
    void tick(Millis now);
    /// The earliest time a table needs tick().
    std::optional<Millis> next_wakeup() const;

    /// True for the paths http_get answers: /healthz, /metrics.json and /api/... (the transport
    /// answers GET /metrics in the Prometheus text format from /metrics.json: net/prometheus.hpp).
    static bool http_path(std::string_view target);
    /// Answers GET `target` (an http_path) through `done`, on the hall's thread: at once for
    /// /metrics.json and for /healthz on SQLite, after a job on the writer thread for /api/... and
    /// for /healthz on a remote store (its ping; never blocks the hall's thread).
    /// `address`: the client's IP address (the analysis queue's per-address share); `token`:
    /// the sign-in token of its `Authorization: Bearer` header, or empty (a private table's
    /// finished match is readable by its players only: docs/protocol.md "HTTP endpoints").
    void http_get(std::string_view target, Millis now, std::function<void(HttpReply)> done,
                  const std::string& address = {}, const std::string& token = {});

    // ---- cluster mode (cluster_node.hpp; docs/scaling.md) -------------------------------
    /// Makes this hall one node of a cluster: tournaments are refused unless
    /// `hooks.tournaments`, and `resume` is not called (a cluster's tables come through
    /// adopt()). Call before any other call.
    void set_cluster(ClusterHooks hooks);
    /// Runs live table `live` (its journal replayed) from now, every write fenced with
    /// `fence` (Storage::claim_table's token): a node taking over a table whose owner died.
    /// Its players count as disconnected from `now`. A table with no human player left is
    /// closed instead (and a finished match in it stored). False when the hall already runs it
    /// or it was closed.
    bool adopt(const LiveTable& live, std::int64_t fence, Millis now);
    /// Every seat at this hall's tables recorded again (ClusterHooks::restored): Redis may have
    /// lost the records (it restarted).
    void restore_seats();
    /// The seat records of `guests` at `table` cleared (ClusterHooks::unseated) on the writer, in
    /// order with the seats' own writes: a clearing Redis did not take, tried again.
    void forget_seats(const std::string& table, std::vector<std::string> guests) { unseated(table, std::move(guests)); }
    /// Another node signed guest `name` out: closes (4001 "signed out") this hall's
    /// connections of `name` signed in with the token whose hash is `only_token_hash` (any
    /// token when empty), except those with `keep_token_hash` (when not empty).
    void sign_out_here(const std::string& name, const std::string& only_token_hash, const std::string& keep_token_hash);
    /// Stops running table `id` without writing anything: another node owns it now (its lease
    /// was lost, or a write was refused as `storage_fenced`). Its guests here are at no table;
    /// requests waiting for it get `storage_unavailable`. A table whose write is in flight is
    /// dropped when the write comes back.
    void drop_table(const std::string& id);
    /// The public tables of the other nodes (their summaries, by id): `list` pages show them
    /// with this hall's own, in id order. A summary is shared and never changed (the cluster's
    /// directory hands the same one on while its text stays the same): equal pointers mean an
    /// unchanged lobby.
    void set_remote_lobby(std::map<std::string, std::shared_ptr<const nlohmann::json>> tables);
    /// Handles the messages that waited for an answer that came from another node (the cluster
    /// node calls it after each message between nodes).
    void handle_waiting() { run_pumps(); }
    /// This hall's table host (the tables this process runs), for its cluster node.
    TableHost& host() { return *host_; }
    const TableHost& host() const { return *host_; }
    /// True while `guest` has a connection signed in here.
    bool present(const std::string& guest) const { return guests_.count(guest) > 0; }
    /// The guests with a connection signed in here.
    std::vector<std::string> guest_names() const;
    /// Sends the text frame `text` to every connection of `guest` here (a frame another node's
    /// table host built for the guest's seat).
    void to_guest(const std::string& guest, const std::string& text);

    int connections() const { return static_cast<int>(conns_.size()); }
    int tables() const { return static_cast<int>(host_->tables().size()); }

    // ---- inspection (tests, fuzzing) -------------------------------------------------
    /// Due tables the wakeup heap missed and the once-a-second check ran (0 unless a table was
    /// changed without TableHost::find or add; /metrics "timers" "late").
    std::uint64_t late_timers() const { return host_->late_timers(); }
    /// The live table `id`, or nullptr.
    const Table* table(const std::string& id) const;
    /// Each connection's message rate limit (HallConfig::rate; a cluster node's fronts keep it too).
    const RateLimit& rate_limit() const { return config_.rate; }
    /// The guest signed in on connection `conn`, or nullopt (not signed in, or closed).
    std::optional<std::string> guest(ConnId conn) const;
    /// Everything a client message can change, as one JSON value: every table's summary (seats,
    /// connections, stand-ins, spectators, state), version (every change of its match increases
    /// it) and watchers, and every guest's table, seat and connection count. Two equal snapshots
    /// mean no table or guest changed (fuzz_protocol: a rejected message changes nothing).
    nlohmann::json snapshot() const;

private:
    struct Conn {
        std::string name;          ///< signed-in guest, "" before hello
        std::string address;       ///< the peer's address given to open()
        MessageRate rate{0, 0};    ///< its rate limit (filled at open)
        int bad = 0;
        bool busy = false;         ///< a hello, or the place of its guest, is in flight
        std::deque<ClientRequest> waiting;  ///< requests to handle once the guest is free
        /// The lobby page this connection watches (`list` with `watch`: its cursor and limit).
        std::optional<std::pair<std::optional<std::string>, std::int64_t>> lobby;
        std::size_t lobby_sent = 0;  ///< hash of the last page it got (a page is pushed only when it differs)
        /// The table history this connection last got ("TABLE@MATCH:ROUNDS"): a table message
        /// carries "history" only when it differs (docs/protocol.md "table").
        std::string history_sent;
        std::string token_hash;      ///< hash_token of the token it signed in with (accounts)
        bool registered = false;     ///< signed in as a registered player (accounts)
    };
    /// A signed-in guest's connections here (where it sits: TableHost::place).
    struct Guest {
        std::set<ConnId> conns;
        bool busy = false;         ///< one of its requests is in flight
    };
    ClusterHooks cluster_;
    bool clustered_ = false;
    Tables* tables_ = nullptr;         ///< where table requests go: host_, or the cluster's routing
    OtherFronts* other_fronts_ = nullptr;  ///< the cluster's other fronts, or null
    std::map<std::string, std::shared_ptr<const nlohmann::json>> remote_lobby_;  ///< the other nodes' public tables

    // ---- off the hall's thread --------------------------------------------------------
    /// Runs `job` on the writer thread, then `done` (the error, if the job threw one) on the
    /// hall's thread. When the queue is full, `done` gets storage_busy. `op` names it in logs.
    /// `write`: a job that writes (its success ends a storage failure; a read's does not).
    void on_writer(std::string op, std::function<void(Storage&)> job, Done done, bool write = true) override;
    /// Queues journal write `w` on the writer, in a batch (StoreWriter::append); `done` runs
    /// on the hall's thread with its result, as on_writer's does. `op` names it in logs.
    void write_journal(std::string op, JournalWrite w, SeatChanges seats, Done done) override;
    /// A read that needs no order with the writes (its data was committed before the client
    /// could ask: a token it was given): on the reader's thread, or the writer's without one.
    void on_reader(std::string op, std::function<void(Storage&)> job, Done done);
    /// Handles a request now (its connection is not busy: pump, message).
    void handle(ConnId conn, ClientRequest r);
    void hold(ConnId conn);
    void release(ConnId conn);
    /// Handles the queued messages of a connection while it (and its guest) is not busy.
    void pump(ConnId conn);
    void run_pumps();
    std::deque<ConnId> pumps_;  ///< connections released since, to pump
    std::unordered_map<ConnId, std::string> holders_;  ///< a signed-in guest's request in flight, by connection
    bool busy(const Conn& c) const;

    /// Notes a storage failure (logged once until the next successful write).
    void storage_failed(const StorageError& e, std::string_view op);
    void storage_worked();
    /// `storage_fenced` is not a fault of the store but of this node's claim on some tables:
    /// once every table whose write was fenced is dropped (fenced_ empty), the state clears
    /// (issue 26: an ex-owner with no tables left stayed 503 on /healthz with nothing to write).
    void fenced_settled();
    /// The /api/... answers for `path` with its `query` (after '?', may be empty): reads the
    /// database and replays records, on the writer thread; throws StorageError. `token`: the
    /// asker's sign-in token or empty (who may read a private table's matches), checked at `now`.
    static std::optional<HttpReply> api_get(Storage& storage, std::string_view path, std::string_view query,
                                            std::string_view token, Millis now);
    /// The name signed in by `token` (a guest's token or a live session's) at `now`, or nullopt
    /// (empty, unknown, expired or revoked). On the writer thread.
    static std::optional<std::string> viewer_of(Storage& storage, std::string_view token, Millis now);

    void reply(ConnId conn, const nlohmann::json& id, nlohmann::json body);
    void error(ConnId conn, const nlohmann::json& id, std::string_view code, std::string message = {});
    /// Answers a request whose database job failed: `storage_unavailable`, nothing changed.
    void storage_error(ConnId conn, const nlohmann::json& id, const StorageError& e);
    /// Hands a typed client request to its handler (hall_lobby.cpp), after the sign-in check.
    void dispatch(ConnId conn, Conn& c, const ClientRequest& r);
    // The handlers: the typed request and its request id (to echo); `r`, the whole request, is
    // for those that park it or handle it again.
    void hello(ConnId conn, Conn& c, const HelloRequest& h, const nlohmann::json& id);
    /// create and the requests of a guest's table (join, leave, add_bot, remove_bot, start,
    /// act, hint, chat): handed to the table host; the guest is held until its answer (hint
    /// and chat excepted: a hint takes a while, and neither changes a table).
    void on_create(ConnId conn, Conn& c, const CreateRequest& cr, const nlohmann::json& id);
    void on_table_request(ConnId conn, Conn& c, const TableRequest& t, const ClientRequest& r);
    // ---- quick play (hall_quick_play.cpp; quick_play.hpp) ---------------------------------
    /// `quick_play`: queued, and handled one at a time in arrival order (two players asking at
    /// once must find each other's table, not make two); the guest is held until its answer.
    void on_quick_play(ConnId conn, Conn& c, const QuickPlayRequest& q, const nlohmann::json& id);
    struct QuickJob {
        ConnId conn = 0;
        nlohmann::json id;
        std::string guest, address;
        Preset preset = Preset::levantine;
    };
    /// Starts the next queued quick_play when none is running.
    void next_quick_play();
    /// Seats `job`'s guest (of `rating`) at a chosen table, else at a new one; `tries`: chosen
    /// tables that filled before the join reached them.
    void quick_seat(const QuickJob& job, int rating, int tries);
    void quick_done(const QuickJob& job, nlohmann::json body);
    /// This node's and the other nodes' quick-play table summaries (the lobby's).
    std::vector<nlohmann::json> quick_summaries() const;
    /// Once a second (tick): a person alone at a quick-play table of this node moves to a
    /// quick-play table with people that choose_quick_table puts before its own (one that
    /// another node made at the same time, or one whose rating window has widened to it), so
    /// two tables waiting for people become one. One move at a time.
    void merge_quick_tables();
    std::deque<QuickJob> quick_queue_;
    bool quick_running_ = false;
    Millis quick_merged_ = 0;  ///< the last merge_quick_tables
    /// `name` signed in on `conn` (welcomed once located); `returning`: the guest existed before
    /// (a token or a password), not made by this hello.
    void signed_in(ConnId conn, const nlohmann::json& id, const std::string& name, const std::string& token,
                   bool registered, bool returning);
    /// `list`: one page of public tables (docs/protocol.md "list"); `watch` subscribes the connection.
    void list_tables(ConnId conn, const nlohmann::json& id, const ListRequest& l);
    /// The `tables` message of the public tables after `cursor` (none: from the first), at most `limit`.
    nlohmann::json lobby_page(const std::optional<std::string>& cursor, std::int64_t limit) const;
    /// Something a lobby summary shows may have changed: watchers get a page at the next push.
    void lobby_changed() override { lobby_changed_ = true; }
    /// Sends each watching connection its page, when the lobby changed and lobby_push_ms has
    /// passed since the last push, and only when its page differs from the last one it got.
    void push_lobby(Millis now);
    bool lobby_changed_ = false;
    Millis lobby_pushed_ = 0;           ///< when watchers last got pages
    // ---- TableFront: what the table host asks of this hall (table_host.hpp) ----------------
    void deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                 const std::string& history_key) override;
    void send(const std::string& guest, const std::string& text) override;
    /// deliver() to the guest's connections here.
    void deliver_here(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                      const std::string& history_key);
    void acted(double ms) override { record_latency(ms, now_); }
    bool holds(const std::string& table) const override { return tournament_holds(table); }
    std::optional<std::string> refuses(const std::string& table, std::string_view type, std::optional<int> seat,
                                       const std::string& guest) const override {
        return tournament_refuses(table, type, seat, guest);
    }
    void fenced(const std::string& table) override { fenced_.insert(table); }
    void released(const std::string& table, bool dropped) override;
    std::int64_t take(Storage& storage, const std::string& table) override { return cluster_.take ? cluster_.take(storage, table) : 0; }
    void unseated(const std::string& table, std::vector<std::string> guests) override;
    void restoring(const std::string& table, std::vector<std::string> guests) override;
    void settle() override { run_pumps(); }
    Millis now() const override { return now_; }
    std::uint64_t next_seed() override;
    void record_latency(double ms, Millis now);
    /// The GET /metrics.json answer (hall_metrics.cpp).
    nlohmann::json metrics_json(Millis now);
    /// /metrics "analysis": {"queued", "running", "done" (stored since the start), "failed"}.
    nlohmann::json analysis_metrics() const;

    // ---- the analysis queue (hall_analysis.cpp) ---------------------------------------
    /// True for /api/matches/{id}/analysis.
    static bool analysis_path(std::string_view path);
    /// GET /api/matches/{id}/analysis?deal=N (docs/protocol.md "HTTP endpoints"): the cached
    /// analysis, or the job queued (202), or an error; `query` is the target after '?'.
    void analysis_get(std::string_view path, std::string_view query, const std::string& address,
                      const std::string& token, std::function<void(HttpReply)> done);
    /// The 503 answer when a new job may not be queued for `address` (the whole queue full, or
    /// that address's share of it), else nullopt.
    std::optional<HttpReply> analysis_refusal(const std::string& address) const;
    /// Queues the analysis of `deal` (the replayed round) of match `id` for `address`; false when
    /// the hall is stopping.
    bool queue_analysis(const std::string& id, int deal, const Round& round, const std::string& address);
    /// A job's result on the hall's thread: `body` stored (writer thread), or `error` remembered.
    void analysis_finished(const std::pair<std::string, int>& key, std::string body, const std::string& error);
    /// The 202 answer for a job in the queue.
    HttpReply analysis_pending(const std::pair<std::string, int>& key) const;
    // ---- the fair-play report for operators (hall_fairplay.cpp) -------------------------
    /// GET /api/fairplay?matches=N[&fresh=1] with the operator's token (docs/operations.md
    /// "Fair-play report"): the last report (200), or the job that makes it queued (202).
    void fairplay_get(std::string_view query, const std::string& token, std::function<void(HttpReply)> done);
    /// The report's job on the analysis queue, from the records and ratings read on the writer thread.
    void queue_fairplay(int matches, std::vector<std::string> records, std::map<std::string, double> ratings);
    struct FairplayState {
        bool running = false;           ///< a job is reading or tallying
        int matches = 0;                ///< the `matches` it was asked for
        std::optional<std::string> report;  ///< the last finished report (JSON text)
        int asked = 0;                  ///< `matches` of that report
    };
    FairplayState fairplay_;

    struct AnalysisJob {
        std::shared_ptr<std::atomic<bool>> running = std::make_shared<std::atomic<bool>>(false);
        std::string address;  ///< who asked first (its share of the queue)
    };
    std::unique_ptr<WorkQueue> analysts_;  ///< deals being analysed, off the hall's thread
    /// Set when the hall stops: queued and running analyses end at once.
    std::shared_ptr<std::atomic<bool>> analysis_stop_ = std::make_shared<std::atomic<bool>>(false);
    std::map<std::pair<std::string, int>, AnalysisJob> analyses_;  ///< (match, deal) queued or running
    /// Analyses that failed (too_slow, solver_error) since the start: answered without a new job;
    /// not stored, so a restarted server (maybe with a larger budget) tries again. At most
    /// kMaxFailedAnalyses are kept (then the oldest is forgotten: asked again, it runs again).
    std::map<std::pair<std::string, int>, std::string> analysis_failed_;
    std::deque<std::pair<std::string, int>> analysis_failed_order_;
    static constexpr std::size_t kMaxFailedAnalyses = 1024;
    std::uint64_t analyses_done_ = 0;

    Storage& storage_;
    BotFactory bots_;
    HallConfig config_;
    Outbox out_;
    std::uint64_t rng_state_;             ///< the test-only deterministic seed stream (config.seed != 0)
    Millis now_ = 0;                      ///< the latest time the transport gave (for posted results)
    std::size_t outstanding_ = 0;         ///< jobs off the hall's thread whose result has not run yet
    std::unique_ptr<StoreWriter> writer_; ///< the database: one thread, in order, group commit
    std::unique_ptr<StoreWriter> reader_; ///< the second connection's thread (reads only), or null
    /// Shared with the posted results: false once the hall is gone (they then do nothing).
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::unordered_map<ConnId, Conn> conns_;
    std::unordered_map<std::string, int> conns_per_address_;  ///< open connections by address
    std::unordered_map<std::string, Guest> guests_;
    /// The tables, their guests' places, bots and timers (table_host.hpp).
    std::unique_ptr<TableHost> host_;

    // metrics
    Millis started_ = 0;
    std::uint64_t actions_total_ = 0;
    std::deque<Millis> recent_actions_;     ///< times of actions in the last 10 s
    std::deque<double> latencies_ms_;       ///< last 10,000 act latencies
    std::uint64_t storage_errors_ = 0;      ///< failed writes since start
    std::optional<std::string> storage_failing_;  ///< the error code while writes fail
    std::set<std::string> fenced_;                ///< tables whose write was fenced, not dropped yet

    // ---- accounts (hall_accounts.cpp; docs/protocol.md "Accounts") ---------------------
    /// `hello` with `name` and `password`: a registered player signs in (a new session).
    void sign_in(ConnId conn, Conn& c, const HelloRequest& h, const nlohmann::json& id);
    /// `register`: the signed-in guest gets a password (keeps its name, history and rating).
    void on_register(ConnId conn, Conn& c, const RegisterRequest& reg, const nlohmann::json& id);
    /// `change_password`: checks `current`, stores `password`, revokes the other sessions.
    void on_change_password(ConnId conn, Conn& c, const ChangePasswordRequest& cp, const nlohmann::json& id);
    /// `sign_out`: revokes this connection's session.
    void on_sign_out(ConnId conn, Conn& c, const nlohmann::json& id);
    /// `sign_out_everywhere`: revokes every session of the player and closes its other connections.
    void on_sign_out_everywhere(ConnId conn, Conn& c, const nlohmann::json& id);
    /// Runs `work` on a password thread, then `done` on the hall's thread. False (nothing runs)
    /// when password_queue jobs are waiting. `work` must not throw.
    bool on_passwords(std::function<void()> work, std::function<void()> done);
    /// Closes (4001 "signed out") every connection of `name` except `keep`, those not signed in
    /// with `only_token_hash` (when not empty) and those signed in with `keep_token_hash` (when
    /// not empty); then the other nodes do the same (ClusterHooks::signed_out).
    void close_sessions(const std::string& name, ConnId keep, const std::string& only_token_hash, const std::string& keep_token_hash);
    /// close_sessions' work in this hall alone.
    void close_sessions_here(const std::string& name, ConnId keep, const std::string& only_token_hash, const std::string& keep_token_hash);
    /// too_many_attempts when an attempt on the name key from the address must wait
    /// (SignInAttempts); else nullopt (the message says when to try again).
    std::optional<std::string> attempts_refused(const std::string& key, const std::string& address);
    std::unique_ptr<WorkQueue> passwords_;  ///< password hashing and checking, off the hall's thread
    std::uint64_t password_refusals_ = 0;   ///< password requests answered `busy` since the start (/metrics)
    SignInAttempts attempts_{config_.name_failures, config_.address_failures, config_.attempt_window_ms};
    /// Wrong join codes per address (HallConfig::code_failures_per_address): a join with a code
    /// counts as one from when it is sent until its answer is not `bad_code`.
    AttemptLimiter code_attempts_{config_.code_failures_per_address, config_.attempt_window_ms};
    /// Registrations per address (HallConfig::registrations_per_address), each counted when let through.
    AttemptLimiter registrations_{config_.registrations_per_address, config_.attempt_window_ms};
    /// New guest names per address (HallConfig::new_guests_per_address), each counted when taken.
    AttemptLimiter new_guests_{config_.new_guests_per_address, config_.attempt_window_ms};
    std::size_t registering_ = 0;  ///< registrations whose password is queued or being hashed
    // ---- tournaments (hall_tournament.cpp; docs/protocol.md "Tournaments") -------------
    struct TournamentEntry {
        Tournament t;
        bool busy = false;  ///< a write of its state is in flight
        std::deque<std::pair<ConnId, ClientRequest>> parked;  ///< requests waiting for it
        std::string organiser_address;  ///< the creating connection's address ("" after a restart)
    };
    /// A change of a tournament: made on a copy on the writer thread (it may read and write
    /// the database), saved with it, committed on the hall's thread; a refusal (an error code)
    /// writes nothing.
    using TournamentOp = std::function<std::optional<std::string>(Storage&, Tournament&)>;
    using TournamentDone = std::function<void(const std::optional<std::string>& refused, const std::optional<StorageError>& e)>;
    void change_tournament(const std::string& id, TournamentOp op, TournamentDone done);
    /// tournament_create.
    void on_tournament_create(ConnId conn, Conn& c, const TournamentCreateRequest& tc, const nlohmann::json& id);
    /// tournament_open, _close, _start, _cancel, _enter, _accept, _withdraw.
    void on_tournament(ConnId conn, Conn& c, const TournamentRequest& tr, const ClientRequest& r);
    /// Each tick: opens tables for ready matches, seats teams' bots, starts full tables, applies
    /// the seat time (forfeit or bots), and records finished matches.
    void run_tournaments(Millis now);
    /// resume(): every stored tournament back in memory.
    void resume_tournaments();
    /// The tournament and match whose table is `table` (any state of the match), if any.
    std::optional<std::pair<std::string, int>> tournament_match(const std::string& table) const;
    /// True while a running tournament's match is playing at `table` (it is never closed as
    /// empty or abandoned then: bots may be its only players).
    bool tournament_holds(const std::string& table) const;
    /// Why `name` may not make the seat request `type` (join with a seat, add_bot, remove_bot,
    /// start) at a tournament's table, or nullopt.
    std::optional<std::string> tournament_refuses(const std::string& table, std::string_view type, std::optional<int> seat,
                                                  const std::string& name) const;
    /// GET /api/tournaments and /api/tournaments/{id}, from memory.
    HttpReply tournament_http(std::string_view path) const;
    std::map<std::string, TournamentEntry> tournaments_;
    /// The tournament (other than `tid`) where a person with one of these name keys still
    /// plays (Tournament::plays_on) or is being entered now, if any.
    std::optional<std::string> in_other_tournament(const std::string& tid, const std::vector<std::string>& keys);
    /// Name keys of the people whose entry or acceptance is being written → its tournament.
    std::unordered_multimap<std::string, std::string> entering_;
    /// name → name_key(name) for the tournaments' players (a memo of ICU work, bounded).
    std::unordered_map<std::string, std::string> name_keys_;
    /// Every tournament match's table → (tournament, match): tournament_match() in O(1) (the
    /// sweep asks for every table each second).
    std::unordered_map<std::string, std::pair<std::string, int>> tournament_tables_;
    /// Puts `t`'s tables in tournament_tables_ (after each change of `t`).
    void index_tournament(const Tournament& t);
};

}  // namespace tarneeb::server
