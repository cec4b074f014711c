// The hall, its core (include/tarneeb/server/hall.hpp): the writer, a guest's queued messages,
// storage failures, resuming after a restart, the cluster's calls and what the table host asks
// of its front (TableFront: frames to a guest's connections). Its other roles:
// hall_admission.cpp, hall_lobby.cpp, hall_accounts.cpp, hall_tournament.cpp, hall_http.cpp,
// hall_metrics.cpp, hall_analysis.cpp; the tables are the table host's (table_host.hpp).
#include "tarneeb/server/hall.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/server/quick_play.hpp"

namespace tarneeb::server {

using nlohmann::json;

Hall::Hall(Storage& storage, BotFactory bots, HallConfig config, Outbox outbox, Storage* reads)
    : storage_(storage), bots_(std::move(bots)), config_(std::move(config)), out_(std::move(outbox)),
      rng_state_(config_.seed) {
    writer_ = std::make_unique<StoreWriter>(
        storage_, [this](std::function<void()> job) { out_.post(std::move(job)); }, config_.write_queue,
        config_.journal_batch, [this] { run_pumps(); });
    if (reads)
        reader_ = std::make_unique<StoreWriter>(
            *reads, [this](std::function<void()> job) { out_.post(std::move(job)); }, config_.write_queue, 1, nullptr, "reads");
    host_ = std::make_unique<TableHost>(static_cast<TableFront&>(*this), bots_, config_, out_.post);
    tables_ = host_.get();
    // The analysis queue's own bound is analyses_ (hall_analysis.cpp); the WorkQueue never refuses.
    analysts_ = std::make_unique<WorkQueue>("analysis", std::max(1u, config_.analysis_threads), SIZE_MAX);
    passwords_ = std::make_unique<WorkQueue>("passwords", std::max(1u, config_.password_threads), config_.password_queue);
}

Hall::~Hall() {
    *alive_ = false;
    stop();
}

void Hall::stop() {
    *analysis_stop_ = true;  // queued and running analyses end at once
    if (analysts_) analysts_->stop();
    if (host_) host_->stop();
    if (writer_) writer_->stop();
    if (reader_) reader_->stop();
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

void Hall::on_reader(std::string op, std::function<void(Storage&)> job, Done done) {
    if (!reader_) return on_writer(std::move(op), std::move(job), std::move(done), /*write=*/false);
    ++outstanding_;
    reader_->run(std::move(job), [this, op = std::move(op), done = std::move(done)](const StoreWriter::Result& e) {
        --outstanding_;
        if (e) storage_failed(*e, op);
        if (done) done(e);
        run_pumps();
    });
}

void Hall::write_journal(std::string op, JournalWrite w, SeatChanges seats, Done done) {
    ++outstanding_;
    StoreWriter::Check check;
    if (cluster_.seated && cluster_.unseated && !(seats.sitting.empty() && seats.leaving.empty()))
        check = [seated = cluster_.seated, unseated = cluster_.unseated, table = w.table, seats = std::move(seats)]() -> StoreWriter::Result {
            if (!seats.leaving.empty()) unseated(table, seats.leaving);
            if (seats.sitting.empty()) return std::nullopt;
            const std::vector<std::string> elsewhere = seated(table, seats.sitting);
            if (elsewhere.empty()) return std::nullopt;
            return StorageError(std::string(kAlreadySeated), elsewhere.front() + " sits at another table");
        };
    // The writer runs run_pumps() after each batch's results (its after_batch).
    writer_->append(std::move(w), [this, op = std::move(op), done = std::move(done)](const StoreWriter::Result& e) {
        --outstanding_;
        if (e && e->code() != kAlreadySeated) storage_failed(*e, op);  // (a refused seat says nothing of the store)
        else if (!e) storage_worked();
        if (done) done(e);
    }, std::move(check));
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
        if (g->second.conns.empty()) guests_.erase(g);       // closed meanwhile
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
}

void Hall::fenced_settled() {
    if (storage_failing_ != "storage_fenced" || !fenced_.empty()) return;
    if (out_.log) out_.log(false, "event=storage_recovered after=storage_fenced reason=fenced_tables_dropped");
    storage_failing_.reset();
}

void Hall::released(const std::string& table, bool dropped) {
    fenced_.erase(table);
    fenced_settled();
    if (dropped && out_.log) out_.log(false, "event=table_dropped table=" + table);
    if (cluster_.released) cluster_.released(table);
}

void Hall::unseated(const std::string& table, std::vector<std::string> guests) {
    if (!cluster_.unseated || guests.empty()) return;
    on_writer("unseat", [unseated = cluster_.unseated, table, guests = std::move(guests)](Storage&) { unseated(table, guests); },
              nullptr, /*write=*/false);
}

void Hall::restoring(const std::string& table, std::vector<std::string> guests) {
    if (!cluster_.restored || guests.empty()) return;
    on_writer("restore_seats", [restored = cluster_.restored, table, guests = std::move(guests)](Storage&) { restored(table, guests); },
              nullptr, /*write=*/false);
}

void Hall::restore_seats() {
    for (auto& [table, players] : host_->players()) restoring(table, std::move(players));
}

const Table* Hall::table(const std::string& id) const { return host_->table(id); }

std::optional<std::string> Hall::guest(ConnId conn) const {
    auto c = conns_.find(conn);
    if (c == conns_.end() || c->second.name.empty()) return std::nullopt;
    return c->second.name;
}

std::vector<std::string> Hall::guest_names() const {
    std::vector<std::string> names;
    names.reserve(guests_.size());
    for (const auto& [name, g] : guests_) names.push_back(name);
    return names;
}

json Hall::snapshot() const {
    json tables = json::object();
    for (const auto& [tid, t] : host_->tables()) {
        // Every change of the match increases the version; seats and connections are in the summary.
        tables[tid] = {{"summary", summary_json(*t.table, t.spectators)}, {"version", t.table->version()},
                       {"watchers", t.watchers}};
    }
    json guests = host_->guests_json();
    for (const auto& [name, g] : guests_) {
        json& at = guests[name];
        if (at.is_null()) at = {{"table", ""}, {"seat", nullptr}};
        at["connections"] = g.conns.size();
    }
    for (auto& [name, g] : guests.items())
        if (!g.contains("connections")) g["connections"] = 0;
    return {{"tables", std::move(tables)}, {"guests", std::move(guests)}};
}

int Hall::resume(Millis now) {
    // Before any other call: the writer thread has no job yet, so the storage is ours here.
    started_ = now;
    now_ = now;
    resume_tournaments();  // first: a tournament's tables are kept below even with bots only
    return host_->resume(storage_, now);
}

// ---- cluster mode ---------------------------------------------------------------------------

void Hall::set_cluster(ClusterHooks hooks) {
    cluster_ = std::move(hooks);
    clustered_ = true;
    if (cluster_.tables) tables_ = cluster_.tables;
    other_fronts_ = cluster_.fronts;
}

bool Hall::adopt(const LiveTable& live, std::int64_t fence, Millis now) {
    now_ = std::max(now_, now);
    if (!started_) started_ = now;
    return host_->adopt(live, fence, now);
}

void Hall::drop_table(const std::string& id) {
    host_->drop(id);
    run_pumps();
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
    reply(conn, id, storage_error_json(e));
}

void Hall::deliver_here(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                        const std::string& history_key) {
    auto g = guests_.find(guest);
    if (g == guests_.end()) return;
    std::string with, without;  // each built at most once for the guest's connections
    for (ConnId c : g->second.conns) {
        auto conn = conns_.find(c);
        const bool has = conn != conns_.end() && conn->second.history_sent == history_key;
        std::string& text = has ? without : with;
        if (text.empty()) text = message.to(seat, creator, !has);
        if (conn != conns_.end() && !has) conn->second.history_sent = history_key;
        out_.send(c, text);
    }
}

void Hall::deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                   const std::string& history_key) {
    if (other_fronts_) other_fronts_->deliver(guest, seat, creator, message, history_key);
    deliver_here(guest, seat, creator, message, history_key);
}

void Hall::send(const std::string& guest, const std::string& text) {
    if (other_fronts_) other_fronts_->send(guest, text);
    to_guest(guest, text);
}

void Hall::to_guest(const std::string& guest, const std::string& text) {
    auto g = guests_.find(guest);
    if (g == guests_.end()) return;
    for (ConnId c : g->second.conns) out_.send(c, text);
}

void Hall::tick(Millis now) {
    now_ = std::max(now_, now);
    if (started_ == 0) started_ = now;  // a hall that resumed nothing and saw no client yet
    host_->tick(now);
    merge_quick_tables();  // hall_quick_play.cpp
    run_tournaments(now);  // hall_tournament.cpp
    push_lobby(now);
    run_pumps();
}

std::optional<Millis> Hall::next_wakeup() const {
    std::optional<Millis> w = host_->next_wakeup();
    if (lobby_changed_ && (!w || lobby_pushed_ + config_.lobby_push_ms < *w)) w = lobby_pushed_ + config_.lobby_push_ms;
    return w;
}

void Hall::handle(ConnId conn, ClientRequest r) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    dispatch(conn, it->second, r);
}

}  // namespace tarneeb::server
