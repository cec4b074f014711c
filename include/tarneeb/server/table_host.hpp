// The table host (issue 26, "tables are routed, not connections"): the tables of one event loop
// and everything that runs them — each table's journal writes and commits, its bots, its
// timers, its abandoned-table sweep, the record of which guest sits or watches where, and the
// per-seat fan-out of every change. It has no connections: it takes typed table requests from a
// guest (table_request.hpp: join, leave, add_bot, remove_bot, start, act, hint, chat; and
// create), answers each exactly once through the request's Answer, and sends each guest the
// frames it may see through its TableFront (a TableMessage is turned into text for the guest's
// own seat only: a front never gets a card its guest may not see).
//
// The front (TableFront, below; the Hall) holds the connections, signs guests in and tells the
// host when a guest comes and goes (connected, disconnected); it keeps a guest's requests in
// order (one at a time) and delivers the host's frames to every connection of the guest.
//
// Threading: one thread, the front's (the event loop). Bots think on the host's worker threads;
// journal writes go through the front's writer (TableFront::write_journal, on_writer); results
// come back through `post`. A change of a table is journaled before it is made and acknowledged
// after (Table's prepare/commit): while its write is in flight the table is busy and requests
// for it, its timers and its bots wait their turn (they are parked in the host, and answered
// when they have run).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
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
#include "tarneeb/room/table_request.hpp"
#include "tarneeb/server/chat.hpp"
#include "tarneeb/server/client_request.hpp"
#include "tarneeb/server/hall_config.hpp"
#include "tarneeb/server/limits.hpp"
#include "tarneeb/server/tables.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

/// A storage job's outcome: nullopt, or the error it threw.
using Done = std::function<void(const std::optional<StorageError>&)>;

/// The answer to a request whose database job failed: `storage_unavailable`, nothing changed
/// (or `already_seated`, a seat refused by its cluster seat record: TableFront::write_journal).
nlohmann::json storage_error_json(const StorageError& e);

/// Whom one journal write seats and unseats at its table, by name (the cluster's seat records).
struct SeatChanges {
    std::vector<std::string> sitting;  ///< recorded (claimed) just before the write
    std::vector<std::string> leaving;  ///< their records cleared just before the write
};

/// What a table host needs of the front and the process around it. Every call is on the loop.
class TableFront {
public:
    virtual ~TableFront() = default;
    /// Sends `message` of a table (its history key `history_key`: the table id, "@" and
    /// HistoryCache::key) to every connection of `guest`, as seen from `seat` (nullopt: a
    /// spectator); `creator`: the guest created the table (it alone sees a private table's code).
    virtual void deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                         const std::string& history_key) = 0;
    /// Sends the text frame `text` (a chat line, a chat history) to every connection of `guest`.
    virtual void send(const std::string& guest, const std::string& text) = 0;
    /// Runs `job` on the writer thread, then `done` on the loop (storage health noted).
    virtual void on_writer(std::string op, std::function<void(Storage&)> job, Done done, bool write = true) = 0;
    /// Queues journal write `w` (group commit), then `done` on the loop. `seats`: whom it seats
    /// and unseats; a cluster node records where they sit, and clears the records of those
    /// leaving, on the writer thread just before the write (ClusterHooks::seated, unseated),
    /// and the write fails with `already_seated` (not made) when one it seats sits at another
    /// table that runs.
    virtual void write_journal(std::string op, JournalWrite w, SeatChanges seats, Done done) = 0;
    /// A deal's or a bot's seed (the CSPRNG, or the test-only seed stream).
    virtual std::uint64_t next_seed() = 0;
    /// An action was applied: `ms` from the request to its fan-out (-1: a bot's or a timer's).
    virtual void acted(double ms) = 0;
    /// Something a lobby summary shows may have changed.
    virtual void lobby_changed() = 0;
    /// True while a tournament's match is playing at `table` (never closed as empty then).
    virtual bool holds(const std::string& table) const = 0;
    /// Why `guest` may not make the seat request `type` at a tournament's `table`, or nullopt.
    virtual std::optional<std::string> refuses(const std::string& table, std::string_view type, std::optional<int> seat,
                                               const std::string& guest) const = 0;
    /// A write of `table` was refused as `storage_fenced`: another node owns it now.
    virtual void fenced(const std::string& table) = 0;
    /// The host no longer runs `table`: closed or swept, or `dropped` (another node owns it now).
    virtual void released(const std::string& table, bool dropped) = 0;
    /// On the writer thread, right after a table is created: its fencing token (ClusterHooks::take), or 0.
    virtual std::int64_t take(Storage& storage, const std::string& table) = 0;
    /// `guests` no longer sit at `table` (they left, or it closed): ClusterHooks::unseated.
    virtual void unseated(const std::string& table, std::vector<std::string> guests) = 0;
    /// `guests` sit at `table`, installed from its journal (resumed or taken over): their
    /// records are written again (ClusterHooks::restored).
    virtual void restoring(const std::string& table, std::vector<std::string> guests) = 0;
    /// The loop's time (Unix ms): the latest the transport gave the front.
    virtual Millis now() const = 0;
    /// After a posted result of the host ran (a bot's decision, a hint): the front handles the
    /// requests its answers let in.
    virtual void settle() = 0;
};

class TableHost : public Tables {
public:
    /// One table the host runs, with its players, spectators and requests waiting for it.
    struct Hosted {
        std::unique_ptr<Table> table;
        std::set<std::string> watchers;  ///< guests at the table (players and spectators)
        int spectators = 0;
        std::optional<Millis> abandoned_since;
        std::optional<Millis> unattended_since;  ///< playing with no person connected since (HallConfig::unattended_ms)
        bool busy = false;               ///< a journal write is in flight
        bool due_failed = false;         ///< a due action's write failed: retried at the next tick
        /// Requests waiting for it: the guest, the request, its answer.
        std::deque<std::tuple<std::string, TableRequest, Answer>> parked;
        std::string creator;          ///< the guest that created it ("" after a restart)
        std::string creator_address;  ///< that guest's connection's address
        bool counted_waiting = false; ///< counted in waiting_tables_ (created here, not started yet)
        HistoryCache history;         ///< its table messages' "history" text
        ChatLog chat;                 ///< its chat (chat.hpp; table_host_chat.cpp)
        ChatRate chat_rate{kChatTableLines};  ///< its chat lines (chat.hpp chat_limit)
        std::int64_t fence = 0;       ///< the fencing token of its writes (0: a single node)
        bool dropping = false;        ///< drop() waits for its write in flight
        bool touched = false;         ///< in touched_: its wakeup is read again at the next tick
        std::optional<Millis> queued; ///< its live entry in wakeups_ (others of it there are stale)
        std::array<bool, 4> engine_seats{};  ///< seats counted in engines_ (an engine bot, or one being added)
    };

    /// `front`: the front it answers through; `post`: runs a job on the loop from any thread.
    TableHost(TableFront& front, BotFactory bots, HallConfig config, std::function<void(std::function<void()>)> post);
    /// stop(); tables still counted as waiting are counted out.
    ~TableHost();
    TableHost(const TableHost&) = delete;
    TableHost& operator=(const TableHost&) = delete;
    /// Stops the bot threads (a bot's decision not made yet is dropped).
    void stop();
    /// True when no bot decision or hint is outstanding.
    bool idle() const { return outstanding_ == 0; }

    // ---- a guest's requests -------------------------------------------------------------
    /// A table request of signed-in `guest` (join, leave, add_bot, remove_bot, start, act,
    /// hint, chat): answered through `done` once it ran (at once, or after its journal write,
    /// or after the table's write in flight and the requests before it).
    void request(const std::string& guest, const TableRequest& r, Answer done) override;
    /// `create`: a new table of `guest` (from `address`), written first (and taken by this node
    /// in a cluster), answered with created_json.
    void create(const std::string& guest, const std::string& address, const CreateRequest& cr, Answer done);
    /// Where `guest` is, or nullopt (at no table). Every table's players are recorded when it
    /// is installed (resumed after a restart, or adopted), so a guest who signs in again is
    /// found at the table that seats it, connected or not.
    std::optional<Place> where(const std::string& guest) const;
    /// where(), through `done` at once (Tables).
    void locate(const std::string& guest, std::function<void(std::optional<Place>)> done, bool) override { done(where(guest)); }
    /// `guest` signed in on one more connection: a seated guest counts as connected again, its
    /// table is published and it gets the table's chat.
    void connected(const std::string& guest) override;
    /// The last connection of `guest` closed: a seated guest keeps its seat (the grace period
    /// runs), a spectator stops watching.
    void disconnected(const std::string& guest) override;

    // ---- tables ---------------------------------------------------------------------------
    /// Reloads every live table from `storage` (on the loop, before any other call; a table with
    /// no human left is closed unless `holds` says a tournament keeps it). The number resumed.
    int resume(Storage& storage, Millis now);
    /// Runs live table `live` (a node taking it over) with `fence`: false when it runs already
    /// or was closed (no human left).
    bool adopt(const LiveTable& live, std::int64_t fence, Millis now);
    /// Stops running table `id` without writing (another node owns it). Parked requests get
    /// storage_unavailable.
    void drop(const std::string& id);
    /// A new table the server opens (a tournament's match), not counted as anyone's.
    void open(const std::string& id, const TableSettings& settings);
    /// Applies a change the server makes (a tournament seating a bot or starting a match).
    void apply(const std::string& id, Change change);
    /// Runs due timers and bots; once a second, closes abandoned tables and stores the finished
    /// matches whose store failed.
    void tick(Millis now);
    /// The earliest time a table needs tick().
    std::optional<Millis> next_wakeup() const;

    // ---- reading ---------------------------------------------------------------------------
    const std::map<std::string, Hosted>& tables() const { return tables_; }
    /// The live table `id`, or nullptr.
    const Table* table(const std::string& id) const;
    /// True while table `id`'s write is in flight.
    bool busy(const std::string& id) const;
    /// Every table's summary (summary_json, private ones too), for the cluster's directory.
    std::vector<std::pair<std::string, nlohmann::json>> summaries() const;
    /// Every table with the names of its human players (what summaries' seats say, without
    /// building the summaries).
    std::vector<std::pair<std::string, std::vector<std::string>>> players() const;
    /// Timer figures for /metrics: heap entries and late wakeups.
    std::size_t timers_pending() const { return wakeups_.size(); }
    std::uint64_t late_timers() const { return late_wakeups_; }
    /// Guests the host knows (at a table, or connected): their places, for snapshots.
    nlohmann::json guests_json() const;

private:
    /// A guest the host knows: at a table, or connected (or both).
    struct Guest {
        std::string table;         ///< "" when at no table
        std::optional<Seat> seat;  ///< nullopt: spectator (when table is set)
        bool present = false;      ///< it has a connection
        bool hinting = false;      ///< a `hint` of it is being worked out
        ChatRate chat_rate;        ///< its chat lines (chat.hpp chat_limit: 5 per 10 s)
    };
    using Then = std::function<void(const std::optional<StorageError>&)>;

    Hosted* find(const std::string& id);
    Hosted& add(const std::string& id, Hosted entry);
    void erase(const std::string& tid);
    void uncount_waiting(Hosted& t);
    void touch(const std::string& tid, Hosted& t);
    std::vector<std::string> due_tables(Millis now);
    void sweep(Millis now);
    std::unique_ptr<Table> rebuild(const LiveTable& live, Millis now);
    void install(std::unique_ptr<Table> table, std::int64_t fence);

    void change_table(const std::string& tid, Change change, Then then);
    void advance(const std::string& tid);
    void think(const std::string& tid, BotTurn turn);
    void park(Hosted& t, const std::string& guest, const TableRequest& r, Answer done);

    void publish(Hosted& t);
    void send_table(const std::string& guest, Hosted& t);
    static bool is_creator(const Hosted& t, const std::string& guest) { return !t.creator.empty() && t.creator == guest; }
    void store_finished(const FinishedMatch& f, const Table& table);
    void store_match(MatchRow row);
    /// After a rated match is stored: its people and spectators still at its table get
    /// `ratings` (docs/protocol.md): each person's rating before and after it (`before`: the
    /// ratings store_match started from, by seat).
    void tell_ratings(const MatchRow& row, const std::array<double, 4>& before);
    void close_in_storage(const std::string& id);
    void close_if_empty(const std::string& tid);
    void forget_watcher(const std::string& guest);
    void leave_table(const std::string& guest, Then then);
    void forget_if_gone(const std::string& guest);
    /// Tables created from `address` that are playing ("" for none: resumed tables keep no address).
    int playing_from(const std::string& address) const;
    /// Closes table `tid` here: its match under way stored as abandoned, its guests at no table.
    void close_now(const std::string& tid);
    /// True when bot kind `kind` is an outside engine (HallConfig::engine_bots).
    bool is_engine(std::string_view kind) const;
    /// Brings `t`'s counted engine seats in line with its seats now (after each change, and
    /// for a table installed), counting its creator's address; `closing`: counts them all out.
    void count_engines(Hosted& t, bool closing = false);

    // The requests (table_host_requests.cpp, table_host_chat.cpp).
    void on_join(const std::string& guest, const JoinRequest& j, const TableRequest& r, Answer done);
    void on_leave(const std::string& guest, const TableRequest& r, Answer done);
    void on_seat_request(const std::string& guest, const TableRequest& r, Answer done);
    void on_hint(const std::string& guest, Answer done);
    void on_chat(const std::string& guest, const ChatRequest& line, Answer done);
    void send_chat_history(const std::string& guest, Hosted& t);
    void attach_chat(FinishedMatch& f, Hosted& t);

    TableFront& front_;
    BotFactory bots_;
    HallConfig config_;  ///< its own copy (the caller's may be a temporary)
    std::function<void(std::function<void()>)> post_;
    std::shared_ptr<WaitingTables> waiting_tables_;
    EngineBudget engines_{config_.max_engine_processes, config_.max_engine_processes_per_address};
    std::unique_ptr<WorkQueue> thinkers_;  ///< bots and hints
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::size_t outstanding_ = 0;
    std::map<std::string, Hosted> tables_;
    std::unordered_map<std::string, Guest> guests_;
    std::vector<MatchRow> pending_matches_;  ///< finished matches not stored yet
    /// Chat lines by connection address, over all its guests (chat.hpp chat_limit); idle ones
    /// are dropped by the sweep.
    std::unordered_map<std::string, ChatRate> chat_by_address_;

    // The tables' timers without a scan of every table at each tick: a table's wakeup
    // (Table::next_wakeup) changes only when the table does, and every change goes through
    // find or add, which mark the table touched. A tick reads the touched tables' wakeups into
    // a min-heap and runs the tables whose wakeup came; an entry that is not its table's live
    // one (Hosted::queued) is dropped when popped. Once a second every table is still checked:
    // one due that the heap missed runs then, and is counted (metrics "timers" "late").
    Millis last_timer_check_ = 0;
    Millis last_sweep_ = 0;
    std::vector<std::string> touched_;
    std::priority_queue<std::pair<Millis, std::string>, std::vector<std::pair<Millis, std::string>>, std::greater<>> wakeups_;
    std::uint64_t late_wakeups_ = 0;
    /// Wrong join codes per private table, from anywhere (HallConfig::code_failures_per_table).
    AttemptSpacing code_failures_{config_.code_failures_per_table, config_.attempt_window_ms, kNameBackoffBaseMs,
                                  kNameBackoffCapMs};
};

}  // namespace tarneeb::server
