// The table host, its core (include/tarneeb/server/table_host.hpp): a table's changes (journal,
// commit, publish), bots, guests coming and going, resuming and adopting tables, dropping them.
// Its other roles: table_host_timers.cpp (timers, the sweep, fan-out),
// table_host_requests.cpp (the guests' requests), table_host_chat.cpp (chat).
#include "tarneeb/server/table_host.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/store/rating.hpp"

namespace tarneeb::server {

using nlohmann::json;

TableHost::TableHost(TableFront& front, BotFactory bots, HallConfig config, std::function<void(std::function<void()>)> post)
    : front_(front), bots_(std::move(bots)), config_(std::move(config)), post_(std::move(post)) {
    waiting_tables_ = config_.waiting_tables ? config_.waiting_tables : std::make_shared<WaitingTables>();
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    thinkers_ = std::make_unique<WorkQueue>("bots", config_.bot_threads ? config_.bot_threads : cores, SIZE_MAX);
}

TableHost::~TableHost() {
    *alive_ = false;
    stop();
    for (auto& [tid, t] : tables_) uncount_waiting(t);  // a count shared with other halls outlives this one
}

void TableHost::stop() {
    if (thinkers_) thinkers_->stop();
}

// ---- the map of tables ----------------------------------------------------------------------

TableHost::Hosted* TableHost::find(const std::string& id) {
    auto it = tables_.find(id);
    if (it == tables_.end()) return nullptr;
    touch(it->first, it->second);  // the caller may change it
    return &it->second;
}

TableHost::Hosted& TableHost::add(const std::string& id, Hosted entry) {
    auto [it, added] = tables_.emplace(id, std::move(entry));
    touch(it->first, it->second);
    count_engines(it->second);  // a table resumed or adopted with engine seats
    return it->second;
}

void TableHost::uncount_waiting(Hosted& t) {
    if (!std::exchange(t.counted_waiting, false)) return;
    waiting_tables_->release(t.creator, t.creator_address);
}

void TableHost::erase(const std::string& tid) {
    auto it = tables_.find(tid);
    if (it == tables_.end()) return;
    uncount_waiting(it->second);
    const bool engines = std::any_of(it->second.engine_seats.begin(), it->second.engine_seats.end(), [](bool e) { return e; });
    count_engines(it->second, true);
    std::shared_ptr<Table> gone(std::move(it->second.table));
    tables_.erase(it);
    // An engine ends in its own time (a "quit" and a grace, then its guard's kill: a second or
    // more): the table is let go on a worker, never on the loop.
    if (engines) thinkers_->submit([gone = std::move(gone)]() mutable { gone.reset(); });
}

bool TableHost::is_engine(std::string_view kind) const {
    return std::find(config_.engine_bots.begin(), config_.engine_bots.end(), kind) != config_.engine_bots.end();
}

void TableHost::count_engines(Hosted& t, bool closing) {
    for (const Seat s : kSeats) {
        bool& counted = t.engine_seats[index(s)];
        const SeatInfo info = t.table->seat_info(s);
        const bool engine = !closing && info.kind == SeatInfo::Kind::bot && is_engine(info.bot_kind);
        if (engine && !counted) engines_.add(t.creator_address);
        if (!engine && counted) engines_.release(t.creator_address);
        counted = engine;
    }
}

const Table* TableHost::table(const std::string& id) const {
    auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second.table.get();
}

bool TableHost::busy(const std::string& id) const {
    auto it = tables_.find(id);
    return it != tables_.end() && it->second.busy;
}

// ---- changes ----------------------------------------------------------------------------------

void TableHost::change_table(const std::string& tid, Change change, Then then) {
    Hosted* t = find(tid);
    t->busy = true;
    const JournalEntry entry = change.entry();
    // What commit makes: the last entry, or the last `commits` (a quick-play fill).
    std::vector<JournalEntry> commits(change.entries.end() - static_cast<std::ptrdiff_t>(std::min(change.commits, change.entries.size())),
                                      change.entries.end());
    JournalWrite w{tid, change.rewrite, {}, t->fence};
    // Who this write seats, and who it unseats (the cluster's guest→table record): recorded,
    // and cleared, on the writer just before the write (a seat elsewhere refuses it), so that a
    // person told it left can sit down on any node at once.
    std::vector<std::string> sitting, leaving;
    for (const JournalEntry& c : commits) {
        if (const auto* sit = std::get_if<journal::Sit>(&c)) sitting.push_back(sit->name);
        if (const auto* leave = std::get_if<journal::Leave>(&c))
            if (SeatInfo h = t->table->seat_info(leave->seat); h.kind == SeatInfo::Kind::human) leaving.push_back(std::move(h.name));
    }
    if (change.rewrite) {
        for (const auto& e : change.entries) w.entries.push_back(journal_text(e));
    } else {
        w.entries.push_back(journal_text(change.entries.back()));
    }
    SeatChanges seats{sitting, leaving};  // (copies: the lambda below moves them, in no set order with this)
    front_.write_journal(
        std::string(journal_op(entry)), std::move(w), std::move(seats),
        [this, tid, commits = std::move(commits), sitting = std::move(sitting), leaving = std::move(leaving),
         then = std::move(then)](const std::optional<StorageError>& e) {
            Hosted* done = find(tid);  // a busy table is never closed
            if (!e) {
                for (const JournalEntry& c : commits) done->table->commit(c, front_.now());
            } else if (e->code() != "storage_fenced") {
                // Nothing changed: the seats recorded before the write were not taken (their
                // records go; not that of a guest already seated here, moving seats), and those
                // who were leaving still sit here (their records come back). A fenced write's
                // table runs on another node now, which has its own say: the records stay.
                std::vector<std::string> not_seated;
                for (const auto& g : sitting)
                    if (!done->table->seat_of(g)) not_seated.push_back(g);
                front_.unseated(tid, std::move(not_seated));
                front_.restoring(tid, leaving);
            }
            count_engines(*done);  // an engine seated or removed; or a seat reserved for one, not written
            if (then) then(e);
            done->busy = false;
            if (done->dropping || (e && e->code() == "storage_fenced")) {
                // Another node took the table over: this one writes nothing more for it.
                if (e && e->code() == "storage_fenced") front_.fenced(tid);
                drop(tid);
                return;
            }
            if (!e || done->table->has_events()) publish(*done);  // a failed write changed nothing
            advance(tid);
            // E.g. its last player left. Not after a failed write, which changed nothing: a new
            // table whose creator's first sit was refused stays for the next try (the sweep
            // closes it if nobody comes).
            if (!e) close_if_empty(tid);
        });
}

void TableHost::apply(const std::string& id, Change change) {
    if (change.ok()) change_table(id, std::move(change), nullptr);
}

void TableHost::advance(const std::string& tid) {
    Hosted* t = find(tid);
    // Requests that waited for the table come first, in order.
    while (t && !t->busy && !t->parked.empty()) {
        auto [guest, request, done] = std::move(t->parked.front());
        t->parked.pop_front();
        this->request(guest, request, std::move(done));
        t = find(tid);
    }
    if (!t || t->busy) return;
    if (auto due = t->due_failed ? std::nullopt : t->table->prepare_due(front_.now(), [this] { return front_.next_seed(); })) {
        change_table(tid, std::move(*due), [this, tid](const std::optional<StorageError>& e) {
            // A bot or timer action that cannot be written is tried again at the next tick.
            if (e) find(tid)->due_failed = true;
            else front_.acted(-1);
        });
        return;
    }
    if (auto turn = t->table->bot_turn()) think(tid, std::move(*turn));
}

void TableHost::think(const std::string& tid, BotTurn turn) {
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = thinkers_->submit([this, alive, tid, turn = std::move(turn)]() mutable {
        // The one bot loop's checked decision (bots/loop.hpp): a bot that throws or answers an
        // illegal action plays the rules' default action. Table::prepare_due checks it again
        // when it is applied (the turn may have moved on meanwhile).
        const Action a = bots::decide_or_default(*turn.bot, turn.view);
        const std::uint64_t request = turn.request;
        turn.bot.reset();  // the worker lets go of the bot before the table may use it again
        post_([this, alive, tid, request, a] {
            if (alive.expired()) return;
            --outstanding_;
            Hosted* t = find(tid);
            if (!t) return;  // the table closed meanwhile
            t->table->decided(request, a);
            advance(tid);
            front_.settle();
        });
    });
    if (!queued) --outstanding_;  // stopping: the table waits for the next start
}

void TableHost::park(Hosted& t, const std::string& guest, const TableRequest& r, Answer done) {
    t.parked.emplace_back(guest, r, std::move(done));
}

// ---- storage ------------------------------------------------------------------------------

namespace {
/// Now, in Unix milliseconds (a finished match's time).
std::int64_t unix_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The stored row of a match that finished at `table` at `finished_ms` (Unix ms), with its
/// seats' profile numbers counted from the match itself (seat_stats), not from its record.
MatchRow match_row(const FinishedMatch& f, const Table& table, std::int64_t finished_ms) {
    const TableSettings& st = table.settings();
    return MatchRow{f.id, table.id(), finished_ms, f.names, f.bots, f.rated, f.status, f.winner, f.scores, f.record.dump(),
                    std::string(to_string(st.preset)), st.is_private, seat_stats(f.match)};
}
}  // namespace

void TableHost::store_finished(const FinishedMatch& f, const Table& table) { store_match(match_row(f, table, unix_now_ms())); }

void TableHost::store_match(MatchRow row) {
    // A rated match's players' ratings are read first, on the same writer: store_match starts
    // from the same numbers (one writer, in order), so before + change is what it stores.
    const bool rates = counts_for_ratings(row);
    auto before = std::make_shared<std::array<double, 4>>();
    auto stored = std::make_shared<bool>(false);
    front_.on_writer("store_match",
                     [row, rates, before, stored](Storage& s) {
                         for (std::size_t i = 0; rates && i < 4; ++i) (*before)[i] = row.bots[i] ? kBotRating : s.rating(row.names[i]);
                         *stored = s.store_match(row);
                     },
                     [this, row, rates, before, stored](const std::optional<StorageError>& e) {
                         if (e) return pending_matches_.push_back(row);  // stored again at the next sweep or start
                         if (rates && *stored) tell_ratings(row, *before);
                     });
}

void TableHost::tell_ratings(const MatchRow& row, const std::array<double, 4>& before) {
    const auto change = seat_ratings(row, before);
    json seats = json::array();
    for (std::size_t i = 0; i < 4; ++i) {
        if (!change[i].rated) seats.push_back(nullptr);
        else seats.push_back({{"name", row.names[i]}, {"before", before[i]}, {"after", before[i] + change[i].rating}});
    }
    const std::string frame = json{{"type", "ratings"}, {"table", row.table}, {"match", row.id}, {"seats", std::move(seats)}}.dump();
    const Hosted* t = find(row.table);
    if (!t) return;  // closed meanwhile: nobody is at it any more
    for (const std::string& name : t->watchers)
        if (auto g = guests_.find(name); g != guests_.end() && g->second.table == row.table && g->second.present) front_.send(name, frame);
}

void TableHost::close_in_storage(const std::string& id) {
    // A table closed in memory but still live in the database is resumed after a restart and
    // closed again there (no humans) or swept as abandoned: nothing is lost.
    const Hosted* t = find(id);
    front_.on_writer("close_table", [id, fence = t ? t->fence : 0](Storage& s) { s.close_table(id, fence); }, nullptr);
    front_.released(id, false);
}

void TableHost::close_now(const std::string& tid) {
    Hosted* t = find(tid);
    if (!t) return;
    std::vector<std::string> seated;
    for (const std::string& name : t->watchers)  // its guests, without a walk through every guest
        if (auto g = guests_.find(name); g != guests_.end() && g->second.table == tid) {
            if (g->second.seat) seated.push_back(name);
            g->second.table.clear();
            g->second.seat.reset();
        }
    front_.unseated(tid, std::move(seated));
    // Every started match is stored, however its people left (issue 27): one under way ends
    // here as abandoned, before the table's journal is closed (the writer keeps the order).
    if (auto f = t->table->abandon()) {
        attach_chat(*f, *t);
        store_finished(*f, *t->table);
    }
    close_in_storage(tid);
    erase(tid);
    front_.lobby_changed();
}

void TableHost::close_if_empty(const std::string& tid) {
    Hosted* t = find(tid);
    if (!t || t->busy || !t->parked.empty() || !t->table->no_humans() || !t->watchers.empty()) return;
    if (front_.holds(tid)) return;  // a tournament's match, bots only maybe
    close_now(tid);
}

// ---- guests ---------------------------------------------------------------------------------

std::optional<Place> TableHost::where(const std::string& guest) const {
    auto g = guests_.find(guest);
    if (g == guests_.end() || g->second.table.empty()) return std::nullopt;
    return Place{g->second.table, g->second.seat};
}

void TableHost::connected(const std::string& guest) {
    Guest& g = guests_[guest];
    g.present = true;
    if (Hosted* t = g.table.empty() ? nullptr : find(g.table)) {
        const std::string tid = g.table;
        t->table->connected(guest, front_.now());
        publish(*t);
        send_chat_history(guest, *t);
        advance(tid);
    }
}

void TableHost::disconnected(const std::string& guest) {
    auto g = guests_.find(guest);
    if (g == guests_.end()) return;
    g->second.present = false;
    Hosted* t = g->second.table.empty() ? nullptr : find(g->second.table);
    if (t && g->second.seat) {
        t->table->disconnected(guest, front_.now());
        publish(*t);
        return;  // the guest keeps its seat for a reconnect
    }
    if (t) {
        // A spectator with no connection left stops watching.
        t->watchers.erase(guest);
        --t->spectators;
        front_.lobby_changed();
    }
    guests_.erase(g);  // nothing to keep: a later hello with the token starts afresh
}

void TableHost::forget_if_gone(const std::string& guest) {
    auto g = guests_.find(guest);
    if (g != guests_.end() && !g->second.present && g->second.table.empty()) guests_.erase(g);
}

json TableHost::guests_json() const {
    json guests = json::object();
    for (const auto& [name, g] : guests_)
        if (!g.table.empty()) guests[name] = {{"table", g.table}, {"seat", g.seat ? json(index(*g.seat)) : json(nullptr)}};
    return guests;
}

// ---- resuming, adopting, dropping -------------------------------------------------------------

std::unique_ptr<Table> TableHost::rebuild(const LiveTable& live, Millis now) {
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

void TableHost::install(std::unique_ptr<Table> table, std::int64_t fence) {
    Hosted entry;
    entry.table = std::move(table);
    entry.table->take_events();
    entry.fence = fence;
    const std::string id = entry.table->id();
    // Its players are known by name from now on (where()), connected or not: a
    // restarted or adopting node finds who sits where without looking through its tables.
    std::vector<std::string> seated;
    for (Seat s : kSeats) {
        SeatInfo h = entry.table->seat_info(s);
        if (h.kind != SeatInfo::Kind::human) continue;
        Guest& g = guests_[h.name];
        if (!g.table.empty()) continue;
        g.table = id;
        g.seat = s;
        seated.push_back(h.name);
        entry.watchers.insert(std::move(h.name));
    }
    front_.restoring(id, std::move(seated));  // their records name it (a node that took it over)
    add(id, std::move(entry));
    front_.lobby_changed();
}

void TableHost::open(const std::string& id, const TableSettings& settings) {
    Hosted entry;
    entry.table = std::make_unique<Table>(id, settings, config_.timing, bots_);
    add(id, std::move(entry));
    front_.lobby_changed();
}

int TableHost::resume(Storage& storage, Millis now) {
        int n = 0;
    for (auto& live : storage.live_tables()) {
        auto table = rebuild(live, now);
        if (!table || (table->no_humans() && !front_.holds(live.id))) {
            if (auto f = table ? table->abandon() : std::nullopt) storage.store_match(match_row(*f, *table, now));
            storage.close_table(live.id);
            continue;
        }
        if (auto f = table->take_finished()) storage.store_match(match_row(*f, *table, now));
        install(std::move(table), 0);
        ++n;
    }
    return n;
}

bool TableHost::adopt(const LiveTable& live, std::int64_t fence, Millis now) {
        if (tables_.count(live.id)) return false;
    auto table = rebuild(live, now);
    if (!table || table->no_humans()) {
        // Nobody to play it: its match stored as abandoned, the table closed (fenced: only if
        // this node still owns it).
        if (auto f = table ? table->abandon() : std::nullopt) store_finished(*f, *table);
        front_.on_writer("close_table", [id = live.id, fence](Storage& s) { s.close_table(id, fence); }, nullptr);
        front_.released(live.id, false);
        return false;
    }
    if (auto f = table->take_finished()) store_finished(*f, *table);  // idempotent by the match's id
    install(std::move(table), fence);
    // Guests connected here who sit at it (they reconnected before it arrived) find it.
    // They get the table and its chat now: they may wait for nothing else (nobody else may act).
    Hosted& t = tables_.at(live.id);
    // (install() placed them; found by the table's four seats, not by every guest: a node
    // adopts hundreds of tables at once after a kill, with thousands of guests signing in again.)
    std::vector<std::string> back;
    for (Seat s : kSeats) {
        const SeatInfo h = t.table->seat_info(s);
        if (h.kind != SeatInfo::Kind::human) continue;
        auto g = guests_.find(h.name);
        if (g == guests_.end() || g->second.table != live.id || !g->second.present) continue;
        t.table->connected(h.name, front_.now());
        back.push_back(h.name);
    }
    if (!back.empty()) publish(t);
    for (const auto& name : back) send_chat_history(name, t);
    advance(live.id);
    return true;
}

void TableHost::drop(const std::string& id) {
    Hosted* t = find(id);
    if (!t) return;
    if (t->busy) {
        t->dropping = true;  // change_table drops it when its write comes back
        return;
    }
    const std::set<std::string> watchers = std::move(t->watchers);
    for (const std::string& name : watchers)
        if (auto g = guests_.find(name); g != guests_.end() && g->second.table == id) {
            g->second.table.clear();
            g->second.seat.reset();
        }
    auto parked = std::move(t->parked);
    erase(id);
    front_.lobby_changed();
    front_.released(id, /*dropped=*/true);
    for (auto& [guest, request, done] : parked)
        done(error_json(to_string(ProtocolError::storage_unavailable), "the table moved to another server; try again"));
    for (const std::string& name : watchers)  // those not connected here are forgotten
        if (auto g = guests_.find(name); g != guests_.end() && !g->second.present && g->second.table.empty()) guests_.erase(g);
}

std::vector<std::pair<std::string, json>> TableHost::summaries() const {
    std::vector<std::pair<std::string, json>> out;
    out.reserve(tables_.size());
    for (const auto& [tid, t] : tables_) out.emplace_back(tid, summary_json(*t.table, t.spectators));
    return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> TableHost::players() const {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    out.reserve(tables_.size());
    for (const auto& [tid, t] : tables_) {
        auto& [id, names] = out.emplace_back(tid, std::vector<std::string>{});
        for (Seat s : kSeats)
            if (SeatInfo h = t.table->seat_info(s); h.kind == SeatInfo::Kind::human) names.push_back(std::move(h.name));
    }
    return out;
}

}  // namespace tarneeb::server
