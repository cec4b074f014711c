// The hall, its core (include/tarneeb/server/hall.hpp): the writer and bot threads, a table's
// changes (journal, commit), a guest's queued messages, storage failures, resuming after a
// restart and the cluster's calls. Its other roles: hall_tables.cpp (fan-out and timers),
// hall_admission.cpp, hall_lobby.cpp, hall_accounts.cpp, hall_chat.cpp, hall_tournament.cpp,
// hall_http.cpp, hall_metrics.cpp, hall_analysis.cpp.
#include "tarneeb/server/hall.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::server {

using nlohmann::json;

Hall::Hall(Storage& storage, BotFactory bots, HallConfig config, Outbox outbox)
    : storage_(storage), bots_(std::move(bots)), config_(std::move(config)), out_(std::move(outbox)),
      rng_state_(config_.seed) {
    waiting_tables_ = config_.waiting_tables ? config_.waiting_tables : std::make_shared<WaitingTables>();
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    writer_ = std::make_unique<StoreWriter>(
        storage_, [this](std::function<void()> job) { out_.post(std::move(job)); }, config_.write_queue,
        config_.journal_batch, [this] { run_pumps(); });
    thinkers_ = std::make_unique<WorkQueue>("bots", config_.bot_threads ? config_.bot_threads : cores, SIZE_MAX);
    // The analysis queue's own bound is analyses_ (hall_analysis.cpp); the WorkQueue never refuses.
    analysts_ = std::make_unique<WorkQueue>("analysis", std::max(1u, config_.analysis_threads), SIZE_MAX);
    passwords_ = std::make_unique<WorkQueue>("passwords", std::max(1u, config_.password_threads), config_.password_queue);
}

Hall::~Hall() {
    *alive_ = false;
    stop();
    for (auto& [tid, t] : tables_) uncount_waiting(t);  // a count shared with other halls outlives this one
}

void Hall::stop() {
    *analysis_stop_ = true;  // queued and running analyses end at once
    if (analysts_) analysts_->stop();
    if (thinkers_) thinkers_->stop();
    if (writer_) writer_->stop();
    if (passwords_) passwords_->stop();
}

std::uint64_t Hall::next_seed() {
    if (config_.seed == 0) return secure_random_u64();
    rng_state_ += 0x9E3779B97F4A7C15ULL;  // test-only deterministic mode (HallConfig::seed)
    return mix64(rng_state_);
}

// ---- off the hall's thread --------------------------------------------------------------

void Hall::on_writer(std::string op, std::function<void(Storage&)> job, Done done, bool write) {
    ++outstanding_;
    writer_->run(std::move(job), [this, op = std::move(op), done = std::move(done), write](const StoreWriter::Result& e) {
        --outstanding_;
        if (e) storage_failed(*e, op);
        else if (write) storage_worked();  // a read that works says nothing of writes
        if (done) done(e);
        fenced_settled();  // e.g. a closed table's close_table, fenced: no table of it is left
        run_pumps();
    });
}

void Hall::change_table(const std::string& tid, Change change, Done then) {
    TableEntry* t = find_table(tid);
    t->busy = true;
    const JournalEntry entry = change.entry();
    JournalWrite w{tid, change.rewrite, {}, t->fence};
    if (change.rewrite) {
        for (const auto& e : change.entries) w.entries.push_back(journal_text(e));
    } else {
        w.entries.push_back(journal_text(change.entries.back()));
    }
    write_journal(
        std::string(journal_op(entry)), std::move(w), [this, tid, entry, then = std::move(then)](const std::optional<StorageError>& e) {
            TableEntry* done = find_table(tid);  // a busy table is never closed
            if (!e) done->table->commit(entry, now_);
            if (then) then(e);
            done->busy = false;
            if (done->dropping || (e && e->code() == "storage_fenced")) {
                // Another node took the table over: this one writes nothing more for it.
                if (e && e->code() == "storage_fenced") fenced_.insert(tid);
                drop_table(tid);
                return;
            }
            if (!e || done->table->has_events()) publish(*done);  // a failed write changed nothing
            advance(tid);
            close_if_empty(tid);  // e.g. its last player left
        });
}

void Hall::write_journal(std::string op, JournalWrite w, Done done) {
    ++outstanding_;
    // The writer runs run_pumps() after each batch's results (its after_batch).
    writer_->append(std::move(w), [this, op = std::move(op), done = std::move(done)](const StoreWriter::Result& e) {
        --outstanding_;
        if (e) storage_failed(*e, op);
        else storage_worked();
        if (done) done(e);
    });
}

void Hall::advance(const std::string& tid) {
    TableEntry* t = find_table(tid);
    // Requests that waited for the table come first, in order.
    while (t && !t->busy && !t->parked.empty()) {
        auto [conn, request] = std::move(t->parked.front());
        t->parked.pop_front();
        release(conn);
        handle(conn, std::move(request));
        t = find_table(tid);
    }
    if (!t || t->busy) return;
    if (auto due = t->due_failed ? std::nullopt : t->table->prepare_due(now_, [this] { return next_seed(); })) {
        change_table(tid, std::move(*due), [this, tid](const std::optional<StorageError>& e) {
            // A bot or timer action that cannot be written is tried again at the next tick.
            if (e) find_table(tid)->due_failed = true;
            else record_latency(-1, now_);
        });
        return;
    }
    if (auto turn = t->table->bot_turn()) think(tid, std::move(*turn));
}

void Hall::think(const std::string& tid, BotTurn turn) {
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = thinkers_->submit([this, alive, tid, turn = std::move(turn)]() mutable {
        // The one bot loop's checked decision (bots/loop.hpp): a bot that throws or answers an
        // illegal action plays the rules' default action. Table::prepare_due checks it again
        // when it is applied (the turn may have moved on meanwhile).
        const Action a = bots::decide_or_default(*turn.bot, turn.view);
        const std::uint64_t request = turn.request;
        turn.bot.reset();  // the worker lets go of the bot before the table may use it again
        out_.post([this, alive, tid, request, a] {
            if (alive.expired()) return;
            --outstanding_;
            TableEntry* t = find_table(tid);
            if (!t) return;  // the table closed meanwhile
            t->table->decided(request, a);
            advance(tid);
            run_pumps();
        });
    });
    if (!queued) --outstanding_;  // stopping: the table waits for the next start
}

bool Hall::busy(const Conn& c) const {
    if (c.busy) return true;
    if (c.name.empty()) return false;
    auto g = guests_.find(c.name);
    return g != guests_.end() && g->second.busy;
}

void Hall::hold(ConnId conn) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    if (it->second.name.empty()) {
        it->second.busy = true;
    } else {
        guests_[it->second.name].busy = true;
        holders_[conn] = it->second.name;  // released by name even if the connection closes
    }
}

void Hall::release(ConnId conn) {
    if (auto it = conns_.find(conn); it != conns_.end()) {
        it->second.busy = false;
        pumps_.push_back(conn);
    }
    auto h = holders_.find(conn);
    if (h == holders_.end()) return;
    if (auto g = guests_.find(h->second); g != guests_.end()) {
        g->second.busy = false;
        for (ConnId c : g->second.conns) pumps_.push_back(c);  // its other connections may have waited
    }
    holders_.erase(h);
}

void Hall::pump(ConnId conn) {
    for (;;) {
        auto it = conns_.find(conn);
        if (it == conns_.end() || busy(it->second) || it->second.waiting.empty()) return;
        ClientRequest request = std::move(it->second.waiting.front());
        it->second.waiting.pop_front();
        handle(conn, std::move(request));
    }
}

void Hall::run_pumps() {
    while (!pumps_.empty()) {
        const ConnId conn = pumps_.front();
        pumps_.pop_front();
        pump(conn);
    }
}

void Hall::park(TableEntry& t, ConnId conn, ClientRequest r) {
    hold(conn);
    t.parked.emplace_back(conn, std::move(r));
}

// ---- storage ------------------------------------------------------------------------------

void Hall::storage_failed(const StorageError& e, std::string_view op) {
    ++storage_errors_;
    if (storage_failing_ == e.code()) return;  // logged already
    // A fenced write says nothing of the store (another node owns that table now): it never
    // hides a fault of the store being reported, and clears once its table is dropped
    // (fenced_settled).
    if (e.code() != "storage_fenced" || !storage_failing_) storage_failing_ = e.code();
    if (out_.log) out_.log(true, "event=storage_error code=" + e.code() + " op=" + std::string(op) + " error=\"" + e.what() + "\"");
}

void Hall::storage_worked() {
    if (!storage_failing_) return;
    if (out_.log) out_.log(false, "event=storage_recovered after=" + *storage_failing_);
    storage_failing_.reset();
    if (cluster_.storage_recovered) cluster_.storage_recovered();
}

void Hall::fenced_settled() {
    if (storage_failing_ != "storage_fenced" || !fenced_.empty()) return;
    if (out_.log) out_.log(false, "event=storage_recovered after=storage_fenced reason=fenced_tables_dropped");
    storage_failing_.reset();
}

void Hall::storage_works_elsewhere() {
    if (storage_failing_ && out_.log) out_.log(false, "event=storage_recovered after=" + *storage_failing_ + " by=another_shard");
    storage_failing_.reset();
}

namespace {
/// Now, in Unix milliseconds (a finished match's time).
std::int64_t unix_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The stored row of a match that finished at `table` at `finished_ms` (Unix ms), with its
/// seats' profile numbers counted from the match itself (seat_stats), not from its record.
MatchRow match_row(const FinishedMatch& f, const Table& table, std::int64_t finished_ms) {
    const TableSettings& st = table.settings();
    return MatchRow{f.id, table.id(), finished_ms, f.names, f.bots, f.status, f.winner, f.scores, f.record.dump(),
                    std::string(to_string(st.preset)), st.is_private, seat_stats(f.match)};
}
}  // namespace

void Hall::store_finished(const FinishedMatch& f, const Table& table) { store_match(match_row(f, table, unix_now_ms())); }

void Hall::store_match(MatchRow row) {
    on_writer("store_match", [row](Storage& s) { s.store_match(row); },
              [this, row](const std::optional<StorageError>& e) {
                  if (e) pending_matches_.push_back(row);  // stored again at the next sweep or start
              });
}

void Hall::close_table_in_storage(const std::string& id) {
    // A table closed in memory but still live in the database is resumed after a restart and
    // closed again there (no humans) or swept as abandoned: nothing is lost.
    const TableEntry* t = find_table(id);
    on_writer("close_table", [id, fence = t ? t->fence : 0](Storage& s) { s.close_table(id, fence); }, nullptr);
    if (cluster_.released) cluster_.released(id);
}

const Table* Hall::table(const std::string& id) const {
    auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second.table.get();
}

std::optional<std::pair<std::string, std::optional<Seat>>> Hall::where(ConnId conn) const {
    auto c = conns_.find(conn);
    if (c == conns_.end() || c->second.name.empty()) return std::nullopt;
    auto g = guests_.find(c->second.name);
    if (g == guests_.end()) return std::pair<std::string, std::optional<Seat>>{"", std::nullopt};
    return std::pair<std::string, std::optional<Seat>>{g->second.table, g->second.seat};
}

bool Hall::settled(ConnId conn) const {
    auto c = conns_.find(conn);
    if (c == conns_.end() || c->second.name.empty() || busy(c->second) || !c->second.waiting.empty()) return false;
    auto g = guests_.find(c->second.name);
    return g == guests_.end() || g->second.table.empty();
}

bool Hall::answering(ConnId conn) const {
    auto c = conns_.find(conn);
    return c != conns_.end() && (c->second.busy || holders_.count(conn) > 0 || !c->second.waiting.empty());
}

json Hall::snapshot() const {
    json tables = json::object();
    for (const auto& [tid, t] : tables_) {
        // Every change of the match increases the version; seats and connections are in the summary.
        tables[tid] = {{"summary", summary_json(*t.table, t.spectators)}, {"version", t.table->version()},
                       {"watchers", t.watchers}};
    }
    json guests = json::object();
    for (const auto& [name, g] : guests_)
        guests[name] = {{"table", g.table}, {"seat", g.seat ? json(index(*g.seat)) : json(nullptr)},
                        {"connections", g.conns.size()}};
    return {{"tables", std::move(tables)}, {"guests", std::move(guests)}};
}

Hall::TableEntry* Hall::find_table(const std::string& id) {
    auto it = tables_.find(id);
    if (it == tables_.end()) return nullptr;
    touch(it->first, it->second);  // the caller may change it
    return &it->second;
}

Hall::TableEntry& Hall::add_table(const std::string& id, TableEntry entry) {
    auto [it, added] = tables_.emplace(id, std::move(entry));
    touch(it->first, it->second);
    return it->second;
}

void Hall::touch(const std::string& tid, TableEntry& t) {
    if (t.touched) return;
    t.touched = true;
    touched_.push_back(tid);
}

std::unique_ptr<Table> Hall::rebuild(const LiveTable& live, Millis now) {
    auto settings = parse_settings(live.settings);
    if (!settings) return nullptr;
    auto table = std::make_unique<Table>(live.id, *settings, config_.timing, bots_);
    for (const auto& e : live.entries)
        if (auto entry = parse_journal_entry(e)) table->replay(*entry, now);
    // Every player starts disconnected: the grace period runs from now.
    for (Seat s : kSeats)
        if (const SeatInfo h = table->seat_info(s); h.kind == SeatInfo::Kind::human) table->disconnected(h.name, now);
    return table;
}

void Hall::install(std::unique_ptr<Table> table, std::int64_t fence) {
    TableEntry entry;
    entry.table = std::move(table);
    entry.table->take_events();
    entry.fence = fence;
    const std::string id = entry.table->id();
    add_table(id, std::move(entry));
    lobby_changed();
}

int Hall::resume(Millis now) {
    // Before any other call: the writer thread has no job yet, so the storage is ours here.
    started_ = now;
    now_ = now;
    resume_tournaments();  // first: a tournament's tables are kept below even with bots only
    int n = 0;
    for (auto& live : storage_.live_tables()) {
        auto table = rebuild(live, now);
        if (!table || (table->no_humans() && !tournament_holds(live.id))) {
            storage_.close_table(live.id);
            continue;
        }
        if (auto f = table->take_finished()) storage_.store_match(match_row(*f, *table, now));
        install(std::move(table), 0);
        ++n;
    }
    return n;
}

// ---- cluster mode ---------------------------------------------------------------------------

void Hall::set_cluster(ClusterHooks hooks) {
    cluster_ = std::move(hooks);
    clustered_ = true;
}

bool Hall::adopt(const LiveTable& live, std::int64_t fence, Millis now) {
    now_ = std::max(now_, now);
    if (!started_) started_ = now;
    if (tables_.count(live.id)) return false;
    auto table = rebuild(live, now);
    if (!table || table->no_humans()) {
        // Nobody to play it: closed (fenced: only if this node still owns it).
        on_writer("close_table", [id = live.id, fence](Storage& s) { s.close_table(id, fence); }, nullptr);
        if (cluster_.released) cluster_.released(live.id);
        return false;
    }
    if (auto f = table->take_finished()) store_finished(*f, *table);  // idempotent by the match's id
    install(std::move(table), fence);
    // Guests connected here who sit at it (they reconnected before it arrived) find it.
    TableEntry& t = tables_.at(live.id);
    for (auto& [name, g] : guests_)
        if (g.table.empty() && !g.conns.empty())
            if (auto s = t.table->seat_of(name)) {
                g.table = live.id;
                g.seat = s;
                t.watchers.insert(name);
                t.table->connected(name, now_);
            }
    advance(live.id);
    return true;
}

void Hall::drop_table(const std::string& id) {
    TableEntry* t = find_table(id);
    if (!t) return;
    if (t->busy) {
        t->dropping = true;  // change_table drops it when its write comes back
        return;
    }
    for (auto& [name, g] : guests_)
        if (g.table == id) {
            g.table.clear();
            g.seat.reset();
        }
    auto parked = std::move(t->parked);
    erase_table(id);
    fenced_.erase(id);
    fenced_settled();
    lobby_changed();
    if (out_.log) out_.log(false, "event=table_dropped table=" + id);
    if (cluster_.released) cluster_.released(id);
    for (auto& [conn, request] : parked) {
        release(conn);
        error(conn, request.id, to_string(ProtocolError::storage_unavailable),
              "the table moved to another server; try again");
    }
    run_pumps();
}

std::vector<std::pair<std::string, json>> Hall::table_summaries() const {
    std::vector<std::pair<std::string, json>> out;
    out.reserve(tables_.size());
    for (const auto& [tid, t] : tables_) out.emplace_back(tid, summary_json(*t.table, t.spectators));
    return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Hall::table_players() const {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    out.reserve(tables_.size());
    for (const auto& [tid, t] : tables_) {
        auto& [id, names] = out.emplace_back(tid, std::vector<std::string>{});
        for (Seat s : kSeats)
            if (SeatInfo h = t.table->seat_info(s); h.kind == SeatInfo::Kind::human) names.push_back(std::move(h.name));
    }
    return out;
}

void Hall::set_remote_lobby(std::map<std::string, std::shared_ptr<const json>> tables) {
    if (tables == remote_lobby_) return;
    remote_lobby_ = std::move(tables);
    lobby_changed();
}

// ---- answers -------------------------------------------------------------------------------

void Hall::reply(ConnId conn, const json& id, json body) {
    if (!conns_.count(conn)) return;  // closed while its request was in flight
    if (!id.is_null()) body["id"] = id;
    out_.send(conn, body.dump());
}

void Hall::error(ConnId conn, const json& id, std::string_view code, std::string message) {
    reply(conn, id, error_json(code, std::move(message)));
}

void Hall::storage_error(ConnId conn, const json& id, const StorageError& e) {
    error(conn, id, to_string(ProtocolError::storage_unavailable),
          "the server cannot save changes now (" + e.code() + "); nothing changed, try again later");
}

void Hall::handle(ConnId conn, ClientRequest r) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    dispatch(conn, it->second, r);
}

}  // namespace tarneeb::server
