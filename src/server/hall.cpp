#include "tarneeb/server/hall.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <thread>
#include <vector>

#include "tarneeb/core/random.hpp"
#include "tarneeb/server/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

std::string url_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            auto hex = [](char ch) -> int {
                if (ch >= '0' && ch <= '9') return ch - '0';
                if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
                if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
                return -1;
            };
            const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(static_cast<char>(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(s[i] == '+' ? ' ' : s[i]);
    }
    return out;
}

/// The "id" to echo: a number or a string of at most 64 characters, else null.
json request_id(const json& msg) {
    json id = msg.value("id", json(nullptr));
    if (!(id.is_null() || id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= 64))) id = nullptr;
    return id;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    const auto k = static_cast<std::size_t>(std::min<double>(static_cast<double>(v.size() - 1), std::floor(p * static_cast<double>(v.size()))));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

}  // namespace

Hall::Hall(Storage& storage, BotFactory bots, HallConfig config, Outbox outbox)
    : storage_(storage), bots_(std::move(bots)), config_(std::move(config)), out_(std::move(outbox)),
      rng_state_(config_.seed) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    writer_ = std::make_unique<WorkQueue>("writer", 1, config_.write_queue);
    thinkers_ = std::make_unique<WorkQueue>("bots", config_.bot_threads ? config_.bot_threads : cores, SIZE_MAX);
}

Hall::~Hall() {
    *alive_ = false;
    stop();
}

void Hall::stop() {
    if (thinkers_) thinkers_->stop();
    if (writer_) writer_->stop();
}

std::uint64_t Hall::next_seed() {
    if (config_.seed == 0) return secure_random_u64();
    rng_state_ += 0x9E3779B97F4A7C15ULL;  // test-only deterministic mode (HallConfig::seed)
    return mix64(rng_state_);
}

// ---- off the hall's thread --------------------------------------------------------------

void Hall::on_writer(std::string op, std::function<void(Storage&)> job, Done done, bool write) {
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    auto finish = [this, alive, op = std::move(op), done = std::move(done), write](std::optional<StorageError> e) mutable {
        out_.post([this, alive, op, done = std::move(done), e = std::move(e), write] {
            if (alive.expired()) return;
            --outstanding_;
            if (e) storage_failed(*e, op);
            else if (write) storage_worked();  // a read that works says nothing of writes
            if (done) done(e);
            run_pumps();
        });
    };
    auto run = [this, job = std::move(job), finish]() mutable {
        std::optional<StorageError> e;
        try {
            job(storage_);
        } catch (const StorageError& x) {
            e = x;
        } catch (const std::exception& x) {
            e = StorageError("storage_io", x.what());
        }
        finish(std::move(e));
    };
    if (!writer_->submit(std::move(run))) {
        // The database is far behind (locked or slow): refuse rather than wait.
        finish(StorageError("storage_busy", "the database queue is full"));
    }
}

void Hall::change_table(const std::string& tid, Change change, Done then) {
    TableEntry* t = find_table(tid);
    t->busy = true;
    const json entry = change.entry();
    on_writer(
        entry.value("op", "journal"), [tid, change = std::move(change)](Storage& s) {
            if (change.rewrite) s.rewrite(tid, change.entries);
            else s.append(tid, change.entry());
        },
        [this, tid, entry, then = std::move(then)](const std::optional<StorageError>& e) {
            TableEntry* done = find_table(tid);  // a busy table is never closed
            if (!e) done->table->commit(entry, now_);
            if (then) then(e);
            done->busy = false;
            if (!e || done->table->has_events()) publish(*done);  // a failed write changed nothing
            advance(tid);
            close_if_empty(tid);  // e.g. its last player left
        });
}

void Hall::advance(const std::string& tid) {
    TableEntry* t = find_table(tid);
    // Requests that waited for the table come first, in order.
    while (t && !t->busy && !t->parked.empty()) {
        auto [conn, msg] = std::move(t->parked.front());
        t->parked.pop_front();
        release(conn);
        handle(conn, std::move(msg));
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
        Action a = turn.view.default_action();
        try {
            a = turn.bot->decide(turn.view);
        } catch (const std::exception&) {
            // A bot that fails plays the rules' default action (docs/rules.md "Timer").
        }
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
        json msg = std::move(it->second.waiting.front());
        it->second.waiting.pop_front();
        handle(conn, std::move(msg));
    }
}

void Hall::run_pumps() {
    while (!pumps_.empty()) {
        const ConnId conn = pumps_.front();
        pumps_.pop_front();
        pump(conn);
    }
}

void Hall::park(TableEntry& t, ConnId conn, json msg) {
    hold(conn);
    t.parked.emplace_back(conn, std::move(msg));
}

// ---- storage ------------------------------------------------------------------------------

void Hall::storage_failed(const StorageError& e, std::string_view op) {
    ++storage_errors_;
    if (storage_failing_ == e.code()) return;  // logged already
    storage_failing_ = e.code();
    if (out_.log) out_.log(true, "event=storage_error code=" + e.code() + " op=" + std::string(op) + " error=\"" + e.what() + "\"");
}

void Hall::storage_worked() {
    if (!storage_failing_) return;
    if (out_.log) out_.log(false, "event=storage_recovered after=" + *storage_failing_);
    storage_failing_.reset();
}

void Hall::store_match(MatchRow row) {
    on_writer("store_match", [row](Storage& s) { s.store_match(row); },
              [this, row](const std::optional<StorageError>& e) {
                  if (e) pending_matches_.push_back(row);  // stored again at the next sweep or start
              });
}

void Hall::close_table_in_storage(const std::string& id) {
    // A table closed in memory but still live in the database is resumed after a restart and
    // closed again there (no humans) or swept as abandoned: nothing is lost.
    on_writer("close_table", [id](Storage& s) { s.close_table(id); }, nullptr);
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

json Hall::snapshot() const {
    json tables = json::object();
    for (const auto& [tid, t] : tables_) {
        // Every change of the match increases the version; seats and connections are in the summary.
        tables[tid] = {{"summary", t.table->summary_json(t.spectators)}, {"version", t.table->version()},
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
    return it == tables_.end() ? nullptr : &it->second;
}

int Hall::resume(Millis now) {
    // Before any other call: the writer thread has no job yet, so the storage is ours here.
    started_ = now;
    now_ = now;
    int n = 0;
    for (auto& live : storage_.live_tables()) {
        auto settings = TableSettings::from_json(live.settings);
        if (!settings) {
            storage_.close_table(live.id);
            continue;
        }
        auto table = std::make_unique<Table>(live.id, *settings, config_.timing, bots_);
        for (const auto& e : live.entries) table->replay(e, now);
        if (table->no_humans()) {
            storage_.close_table(live.id);
            continue;
        }
        if (auto f = table->take_finished()) {
            MatchRow row{f->id, live.id, now, f->names, f->bots, f->status, f->winner, f->scores, f->record.dump()};
            storage_.store_match(row);
        }
        TableEntry entry;
        entry.table = std::move(table);
        // Every player starts disconnected: the grace period runs from now.
        const nlohmann::json summary = entry.table->summary_json(0);  // must outlive the loop
        for (const auto& h : summary["seats"])
            if (h.is_object() && !h["bot"].get<bool>()) entry.table->disconnected(h["name"].get<std::string>(), now);
        entry.table->take_events();
        tables_.emplace(live.id, std::move(entry));
        ++n;
    }
    return n;
}

// ---- connections and messages -------------------------------------------------------------

bool Hall::admits(const std::string& address) const {
    const auto it = conns_per_address_.find(address);
    return it == conns_per_address_.end() || it->second < config_.max_connections_per_address;
}

void Hall::open(ConnId conn, const std::string& address, Millis now) {
    now_ = std::max(now_, now);
    if (started_ == 0) started_ = now;
    if (!admits(address)) {
        // Not registered, so told directly (reply() answers registered connections only).
        out_.send(conn, json{{"type", "error"}, {"code", to_string(ProtocolError::too_many_connections)},
                             {"message", "too many connections from this address (at most " +
                                             std::to_string(config_.max_connections_per_address) + ")"}}
                            .dump());
        out_.close(conn, 1008, "too many connections");
        return;
    }
    Conn c;
    c.address = address;
    c.tokens = config_.rate_burst;
    c.refilled = now;
    conns_[conn] = c;
    ++conns_per_address_[address];
}

void Hall::closed(ConnId conn, Millis now) {
    now_ = std::max(now_, now);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    const std::string name = it->second.name;
    if (auto a = conns_per_address_.find(it->second.address); a != conns_per_address_.end() && --a->second <= 0)
        conns_per_address_.erase(a);
    conns_.erase(it);
    if (name.empty()) return;
    auto g = guests_.find(name);
    if (g == guests_.end()) return;
    g->second.conns.erase(conn);
    if (!g->second.conns.empty()) return;
    TableEntry* t = g->second.table.empty() ? nullptr : find_table(g->second.table);
    if (t && g->second.seat) {
        t->table->disconnected(name, now);
        publish(*t);
        return;  // the guest keeps its seat (and its entry) for a reconnect
    }
    if (t) {
        // A spectator with no connection left stops watching.
        t->watchers.erase(name);
        --t->spectators;
    }
    guests_.erase(g);  // nothing to keep: a later hello with the token starts afresh
}

void Hall::reply(ConnId conn, const json& id, json body) {
    if (!conns_.count(conn)) return;  // closed while its request was in flight
    if (!id.is_null()) body["id"] = id;
    out_.send(conn, body.dump());
}

void Hall::error(ConnId conn, const json& id, std::string_view code, std::string message) {
    json body{{"type", "error"}, {"code", code}, {"message", message.empty() ? std::string(code) : message}};
    reply(conn, id, std::move(body));
}

void Hall::storage_error(ConnId conn, const json& id, const StorageError& e) {
    error(conn, id, to_string(ProtocolError::storage_unavailable),
          "the server cannot save changes now (" + e.code() + "); nothing changed, try again later");
}

void Hall::message(ConnId conn, std::string_view text, Millis now) {
    now_ = std::max(now_, now);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    Conn& c = it->second;
    if (text.size() > config_.max_message_bytes) {
        out_.close(conn, 1009, "message too big");
        return;
    }
    // Token bucket.
    c.tokens = std::min(config_.rate_burst, c.tokens + static_cast<double>(now - c.refilled) * config_.rate_per_second / 1000.0);
    c.refilled = now;
    if (c.tokens < 1.0) {
        if (++c.limited >= config_.max_rate_rejections) {
            out_.close(conn, 1008, "rate limit");
            return;
        }
        // The request's id, so that a client waiting on it hears the answer (the parse is
        // bounded by max_message_bytes; nothing else of the message is looked at).
        const json peek = json::parse(text, nullptr, false);
        error(conn, peek.is_object() ? request_id(peek) : json(nullptr), to_string(ProtocolError::rate_limited),
              "too many messages");
        return;
    }
    c.tokens -= 1.0;
    json msg = json::parse(text, nullptr, false);
    if (msg.is_discarded() || !msg.is_object() || !msg.contains("type") || !msg["type"].is_string()) {
        if (++c.bad >= config_.max_bad_messages) {
            out_.close(conn, 1008, "malformed messages");
            return;
        }
        error(conn, nullptr, to_string(ProtocolError::bad_message), "expected a JSON object with a string \"type\"");
        return;
    }
    // A ping never waits; everything else is handled in order, after the guest's request in flight.
    if (msg["type"] == "ping") return reply(conn, request_id(msg), {{"type", "pong"}});
    if (busy(c) || !c.waiting.empty()) {
        if (c.waiting.size() >= config_.max_waiting_messages) {
            out_.close(conn, 1008, "too many messages waiting");
            return;
        }
        c.waiting.push_back(std::move(msg));
        return;
    }
    handle(conn, std::move(msg));
    run_pumps();
}

void Hall::handle(ConnId conn, json msg) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    dispatch(conn, it->second, msg);
}

void Hall::hello(ConnId conn, Conn& c, const json& msg) {
    const json id = request_id(msg);
    if (!c.name.empty()) return error(conn, id, to_string(ProtocolError::bad_message), "already signed in");
    if (auto t = msg.find("token"); t != msg.end() && t->is_string()) {
        const std::string token = t->get<std::string>();
        auto found = std::make_shared<std::optional<std::string>>();
        hold(conn);
        on_writer("hello", [token, found](Storage& s) { *found = s.name_for_token(token); },
                  [this, conn, id, token, found](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) storage_error(conn, id, *e);
                      else if (!*found) error(conn, id, to_string(ProtocolError::unknown_token));
                      else signed_in(conn, id, **found, token);
                  },
                  /*write=*/false);
        return;
    }
    if (auto n = msg.find("name"); n != msg.end() && n->is_string()) {
        // Any script, NFC; unique by confusable skeleton and case (names.hpp, docs/protocol.md).
        const NameResult checked = normalize_name(n->get_ref<const std::string&>(), config_.reserved_names);
        if (!checked.name) return error(conn, id, to_string(ProtocolError::bad_name), std::string(describe(checked.problem)));
        const std::string name = checked.name->text;
        const std::string token = secure_random_string(32, "0123456789abcdef");
        auto registered = std::make_shared<bool>(false);
        hold(conn);
        on_writer("hello", [name, token, registered](Storage& s) { *registered = s.register_name(name, token); },
                  [this, conn, id, name, token, registered](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) storage_error(conn, id, *e);
                      else if (!*registered) error(conn, id, to_string(ProtocolError::name_taken));
                      else signed_in(conn, id, name, token);
                  });
        return;
    }
    error(conn, id, to_string(ProtocolError::bad_message), "hello needs a name or a token");
}

void Hall::signed_in(ConnId conn, const json& id, const std::string& name, const std::string& token) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;  // closed meanwhile
    if (auto known = guests_.find(name);
        known != guests_.end() && static_cast<int>(known->second.conns.size()) >= config_.max_connections_per_guest)
        return error(conn, id, to_string(ProtocolError::too_many_connections),
                     "too many connections with this token (at most " + std::to_string(config_.max_connections_per_guest) + ")");
    it->second.name = name;
    Guest& g = guests_[name];
    g.conns.insert(conn);
    if (g.table.empty()) {
        // After a restart the guest's seat is known only to its table.
        for (auto& [tid, t] : tables_)
            if (auto s = t.table->seat_of(name)) {
                g.table = tid;
                g.seat = s;
                t.watchers.insert(name);
                break;
            }
    }
    json welcome{{"type", "welcome"}, {"name", name}, {"token", token}, {"protocol", 1},
                 {"table", g.table.empty() ? json(nullptr) : json(g.table)},
                 {"seat", g.seat && !g.table.empty() ? json(index(*g.seat)) : json(nullptr)}};
    reply(conn, id, std::move(welcome));
    if (TableEntry* t = g.table.empty() ? nullptr : find_table(g.table)) {
        t->table->connected(name, now_);
        publish(*t);
        advance(g.table);
    }
}

void Hall::forget_watcher(const std::string& name) {
    Guest& g = guests_[name];
    const std::string tid = g.table;
    g.table.clear();
    g.seat.reset();
    TableEntry* t = tid.empty() ? nullptr : find_table(tid);
    if (!t) return;
    --t->spectators;
    t->watchers.erase(name);
    publish(*t);  // the others see one spectator less
    close_if_empty(tid);
}

void Hall::close_if_empty(const std::string& tid) {
    TableEntry* t = find_table(tid);
    if (!t || t->busy || !t->parked.empty() || !t->table->no_humans() || !t->watchers.empty()) return;
    close_table_in_storage(tid);
    tables_.erase(tid);
}

void Hall::leave_table(ConnId conn, const std::string& name, Done then) {
    Guest& g = guests_[name];
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t || !g.seat) {
        // A spectator (or a guest whose table is gone) leaves without a write.
        if (t) forget_watcher(name);
        else g.table.clear();
        if (then) then(std::nullopt);
        return;
    }
    const std::string tid = g.table;
    auto change = t->table->prepare_leave(name);
    if (!change.ok()) {  // unreachable: the guest is seated there
        g.table.clear();
        g.seat.reset();
        if (then) then(std::nullopt);
        return;
    }
    hold(conn);
    change_table(tid, std::move(change), [this, conn, name, then = std::move(then)](const std::optional<StorageError>& e) {
        release(conn);
        if (!e) {
            // Still watching? No: the guest leaves the table altogether.
            Guest& left = guests_[name];
            if (TableEntry* at = find_table(left.table)) at->watchers.erase(name);
            left.table.clear();
            left.seat.reset();
            if (left.conns.empty()) guests_.erase(name);  // closed meanwhile: nothing to keep
        }
        if (then) then(e);
    });
}

void Hall::dispatch(ConnId conn, Conn& c, const json& msg) {
    const std::string& type = msg["type"].get_ref<const std::string&>();
    const json id = request_id(msg);
    // An unknown type is `unknown_type` wherever the guest is (before hello, at no table...).
    static constexpr std::string_view kTypes[] = {"ping", "hello", "list",    "create",     "join",
                                                  "leave", "add_bot", "remove_bot", "start", "act"};
    if (std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes)) {
        // At most 32 bytes of the type, cut at a character boundary (the answer must stay UTF-8).
        std::size_t n = std::min<std::size_t>(type.size(), 32);
        while (n > 0 && n < type.size() && (static_cast<unsigned char>(type[n]) & 0xC0) == 0x80) --n;
        return error(conn, id, to_string(ProtocolError::unknown_type), "unknown message type " + type.substr(0, n));
    }
    if (type == "ping") return reply(conn, id, {{"type", "pong"}});
    if (type == "hello") return hello(conn, c, msg);
    if (c.name.empty()) return error(conn, id, to_string(ProtocolError::not_signed_in));
    const std::string name = c.name;
    Guest& g = guests_[name];
    const auto seat_field = [&](const char* key) -> std::optional<int> {
        auto it = msg.find(key);
        if (it == msg.end() || !it->is_number_integer()) return std::nullopt;
        return static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), -1, 4));
    };

    if (type == "list") return list_tables(conn, id, msg);
    if (type == "create") {
        auto settings = TableSettings::from_json(msg);
        if (!settings) return error(conn, id, to_string(ProtocolError::bad_settings));
        if (static_cast<int>(tables_.size()) >= config_.max_tables) return error(conn, id, to_string(ProtocolError::too_many_tables));
        if (const auto limit = create_limit(c)) return error(conn, id, to_string(*limit), "start or leave your waiting table first");
        settings->code.clear();
        settings->code_hash.clear();
        if (settings->is_private) {
            settings->code = secure_random_string(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
            settings->code_hash = hash_token(settings->code);  // the database keeps only this
        }
        auto tid = std::make_shared<std::string>();
        hold(conn);
        on_writer("create", [s = settings->to_json(), tid](Storage& st) { *tid = st.create_table(s); },
                  [this, conn, id, settings = *settings, tid, creator = name, address = c.address](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) {
                          storage_error(conn, id, *e);
                      } else {
                          TableEntry entry;
                          entry.table = std::make_unique<Table>(*tid, settings, config_.timing, bots_);
                          entry.creator = creator;
                          entry.creator_address = address;
                          tables_.emplace(*tid, std::move(entry));
                          reply(conn, id, {{"type", "created"}, {"table", *tid},
                                           {"code", settings.is_private ? json(settings.code) : json(nullptr)}});
                      }
                  });
        return;
    }
    if (type == "join") {
        auto tf = msg.find("table");
        if (tf == msg.end() || !tf->is_string()) return error(conn, id, to_string(ProtocolError::bad_message), "join needs a table");
        const std::string tid = tf->get<std::string>();
        TableEntry* t = find_table(tid);
        if (!t) return error(conn, id, to_string(ProtocolError::no_such_table));
        if (t->table->settings().is_private) {
            auto code = msg.find("code");
            const TableSettings& ts = t->table->settings();
            const bool good = code != msg.end() && code->is_string() &&
                              (ts.code_hash.empty() ? code->get<std::string>() == ts.code
                                                    : hash_token(code->get<std::string>()) == ts.code_hash);
            if (!good) return error(conn, id, to_string(ProtocolError::bad_code));
        }
        if (t->busy) return park(*t, conn, msg);
        if (TableEntry* old = g.table.empty() || g.table == tid ? nullptr : find_table(g.table); old && old->busy)
            return park(*old, conn, msg);
        if (msg.contains("seat") && !msg["seat"].is_null()) {
            const auto s = seat_field("seat");
            if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
            const bool here = g.table == tid;
            if (here && g.seat && index(*g.seat) == *s) return reply(conn, id, {{"type", "ok"}});
            auto change = t->table->prepare_sit(seat(*s), name);
            if (!change.ok()) return error(conn, id, change.error);
            if (!here && !g.table.empty()) {
                // Leave the other table first (a journal write), then sit here (another one),
                // by handling this join again. Each write comes before its change, so when the
                // database fails the guest is at one table or at none.
                return leave_table(conn, name, [this, conn, id, msg](const std::optional<StorageError>& e) {
                    if (e) return storage_error(conn, id, *e);
                    handle(conn, msg);
                });
            }
            hold(conn);
            change_table(tid, std::move(change), [this, conn, id, name, tid, here, s](const std::optional<StorageError>& e) {
                release(conn);
                if (e) return storage_error(conn, id, *e);
                Guest& sat = guests_[name];
                TableEntry* at = find_table(tid);
                if (here && !sat.seat) --at->spectators;
                sat.table = tid;
                sat.seat = seat(*s);
                at->watchers.insert(name);
                // Closed while the write was in flight: the grace period starts now.
                if (sat.conns.empty()) at->table->disconnected(name, now_);
                reply(conn, id, {{"type", "ok"}});
            });
            return;
        }
        // Watch as a spectator.
        if (g.table == tid && !g.seat) return reply(conn, id, {{"type", "ok"}});
        if (g.table == tid) {
            // From a seat of this table to watching it: the guest stays at the table, so it must
            // not be left on the way (a table with no human and no watcher is closed).
            auto change = t->table->prepare_leave(name);
            if (!change.ok()) return error(conn, id, change.error);
            hold(conn);
            change_table(tid, std::move(change), [this, conn, id, name, tid](const std::optional<StorageError>& e) {
                release(conn);
                if (e) return storage_error(conn, id, *e);
                guests_[name].seat.reset();
                ++find_table(tid)->spectators;
                reply(conn, id, {{"type", "ok"}});
            });
            return;
        }
        if (!g.table.empty()) {
            return leave_table(conn, name, [this, conn, id, msg](const std::optional<StorageError>& e) {
                if (e) return storage_error(conn, id, *e);
                handle(conn, msg);
            });
        }
        g.table = tid;
        g.seat.reset();
        t->watchers.insert(name);
        ++t->spectators;
        reply(conn, id, {{"type", "ok"}});
        send_table(name, *t, json::array());
        return;
    }
    if (type == "leave") {
        if (g.table.empty()) return error(conn, id, to_string(ProtocolError::not_at_table));
        if (TableEntry* t = find_table(g.table); t && t->busy) return park(*t, conn, msg);
        return leave_table(conn, name, [this, conn, id](const std::optional<StorageError>& e) {
            if (e) return storage_error(conn, id, *e);
            reply(conn, id, {{"type", "ok"}});
        });
    }
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (!g.seat) return error(conn, id, to_string(type == "act" ? ProtocolError::spectator : ProtocolError::not_seated));
    if (t->busy) return park(*t, conn, msg);
    const std::string tid = g.table;
    const auto t0 = std::chrono::steady_clock::now();
    Change change;
    std::vector<MatchRow> pending;
    if (type == "start") {
        change = t->table->prepare_start(next_seed(), next_seed());
        // The journal of a finished match is dropped by the start: its record is stored first.
        for (const auto& row : pending_matches_)
            if (row.table == tid) pending.push_back(row);
    } else if (type == "act") {
        auto v = msg.find("version");
        if (v == msg.end() || !v->is_number_unsigned()) return error(conn, id, to_string(ProtocolError::bad_message), "act needs a version");
        auto a = msg.find("action");
        const auto action = a == msg.end() ? std::nullopt : parse_action(*a);
        if (!action) return error(conn, id, to_string(ProtocolError::bad_action));
        change = t->table->prepare_act(*g.seat, *action, v->get<std::uint64_t>(), next_seed());
        if (change.error == to_string(ProtocolError::stale))
            return error(conn, id, change.error, "table is at version " + std::to_string(t->table->version()));
    } else {
        const auto s = seat_field("seat");
        if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
        if (type == "add_bot") {
            std::string bot = config_.default_bot;
            if (auto b = msg.find("bot"); b != msg.end() && b->is_string()) bot = b->get<std::string>();
            change = t->table->prepare_add_bot(seat(*s), bot, next_seed());
        } else {
            change = t->table->prepare_remove_bot(seat(*s));
        }
    }
    if (!change.ok()) return error(conn, id, change.error);
    if (!pending.empty()) {
        // Stored before the start's rewrite (the writer runs in order); a failure refuses the start.
        hold(conn);
        on_writer("store_match", [pending](Storage& s) {
                      for (const auto& row : pending) s.store_match(row);
                  },
                  [this, conn, id, tid, msg](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) return storage_error(conn, id, *e);
                      std::erase_if(pending_matches_, [&](const MatchRow& r) { return r.table == tid; });
                      handle(conn, msg);
                  });
        return;
    }
    const bool is_act = type == "act";
    hold(conn);
    change_table(tid, std::move(change), [this, conn, id, tid, is_act, t0](const std::optional<StorageError>& e) {
        release(conn);
        if (e) return storage_error(conn, id, *e);
        if (is_act) {
            reply(conn, id, {{"type", "ok"}, {"version", find_table(tid)->table->version()}});
            record_latency(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), now_);
        } else {
            reply(conn, id, {{"type", "ok"}});
        }
    });
}

std::optional<ProtocolError> Hall::create_limit(const Conn& c) const {
    int by_guest = 0, by_address = 0;
    for (const auto& [tid, t] : tables_) {
        if (t.table->state() != TableState::waiting) continue;
        by_guest += !t.creator.empty() && t.creator == c.name;
        by_address += !t.creator.empty() && t.creator_address == c.address;
    }
    if (by_guest >= config_.max_waiting_tables_per_guest || by_address >= config_.max_waiting_tables_per_address)
        return ProtocolError::too_many_waiting_tables;
    return std::nullopt;
}

void Hall::list_tables(ConnId conn, const json& id, const json& msg) {
    // One page of public tables in id order after `cursor` (docs/protocol.md "list").
    const auto cursor = msg.find("cursor");
    if (cursor != msg.end() && !cursor->is_null() && !cursor->is_string())
        return error(conn, id, to_string(ProtocolError::bad_message), "cursor must be a string or null");
    const auto limit_field = msg.find("limit");
    const std::int64_t max = static_cast<std::int64_t>(std::max<std::size_t>(1, config_.list_page_max));
    std::int64_t limit = max;
    if (limit_field != msg.end() && !limit_field->is_null()) {
        if (!limit_field->is_number_integer() || limit_field->get<std::int64_t>() < 1)
            return error(conn, id, to_string(ProtocolError::bad_message), "limit must be an integer of at least 1");
        limit = std::min(max, limit_field->get<std::int64_t>());
    }
    auto it = cursor == msg.end() || cursor->is_null() ? tables_.begin() : tables_.upper_bound(cursor->get<std::string>());
    json list = json::array();
    json next = nullptr;
    for (; it != tables_.end(); ++it) {
        if (it->second.table->settings().is_private) continue;
        if (static_cast<std::int64_t>(list.size()) == limit) {
            next = list.back()["table"];
            break;
        }
        list.push_back(it->second.table->summary_json(it->second.spectators));
    }
    reply(conn, id, {{"type", "tables"}, {"tables", std::move(list)}, {"next", std::move(next)}});
}

void Hall::send_table(const std::string& name, TableEntry& t, const json& events) {
    auto g = guests_.find(name);
    if (g == guests_.end() || g->second.conns.empty()) return;
    json j = t.table->view_json(g->second.seat, t.spectators);
    j["type"] = "table";
    j["events"] = events;
    j["now_ms"] = now_;
    const std::string text = j.dump();
    for (ConnId c : g->second.conns) out_.send(c, text);
}

void Hall::publish(TableEntry& t) {
    auto events = t.table->take_events();
    if (auto f = t.table->take_finished()) {
        MatchRow row{f->id, t.table->id(), 0, f->names, f->bots, f->status, f->winner, f->scores, f->record.dump()};
        row.finished_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        store_match(std::move(row));
    }
    // One shared message per change (the spectator's view without the per-seat keys), then
    // for each connection its seat's legal actions and hand spliced in: the JSON is built and
    // serialised once instead of once per connection. The keys are the same as view_json's.
    json shared = t.table->view_json(std::nullopt, t.spectators);
    shared.erase("legal");
    shared.erase("you");
    shared.erase("timeout_action");
    shared["type"] = "table";
    shared["events"] = std::move(events);
    shared["now_ms"] = now_;
    const std::string text = shared.dump();
    constexpr std::string_view kRound = "\"round\":{";
    const auto round_at = text.find(kRound);
    std::string out;
    for (const auto& name : t.watchers) {
        auto g = guests_.find(name);
        if (g == guests_.end() || g->second.conns.empty()) continue;
        out.clear();
        out += '{';
        out += t.table->seat_prefix(g->second.seat);
        if (g->second.seat && round_at != std::string::npos) {
            out.append(text, 1, round_at + kRound.size() - 1);
            out += t.table->hand_text(*g->second.seat);
            out.append(text, round_at + kRound.size());
        } else {
            out.append(text, 1);
        }
        for (ConnId c : g->second.conns) out_.send(c, out);
    }
}

void Hall::sweep(Millis now) {
    last_sweep_ = now;
    std::vector<std::string> gone;
    for (auto& [tid, t] : tables_) {
        bool watched = false;
        for (const auto& name : t.watchers) {
            auto g = guests_.find(name);
            watched |= g != guests_.end() && !g->second.conns.empty();
        }
        if (t.busy || !t.parked.empty() || t.table->state() == TableState::playing || t.table->humans_connected() || watched) {
            t.abandoned_since.reset();
        } else if (!t.abandoned_since) {
            t.abandoned_since = now;
        } else if (now - *t.abandoned_since >= config_.timing.grace_ms) {
            gone.push_back(tid);
        }
    }
    for (const auto& tid : gone) {
        for (auto& [name, g] : guests_)
            if (g.table == tid) {
                g.table.clear();
                g.seat.reset();
            }
        close_table_in_storage(tid);
        tables_.erase(tid);
    }
    if (!pending_matches_.empty()) {
        auto rows = std::exchange(pending_matches_, {});
        for (auto& row : rows) store_match(std::move(row));
    }
}

void Hall::tick(Millis now) {
    now_ = std::max(now_, now);
    if (now - last_sweep_ >= 1000) sweep(now);
    std::vector<std::string> due;
    for (auto& [tid, t] : tables_) {
        const auto w = t.table->next_wakeup();
        if (w && *w <= now && !t.busy) due.push_back(tid);
    }
    for (const auto& tid : due) {
        TableEntry* t = find_table(tid);
        if (!t) continue;
        t->due_failed = false;
        t->table->tick(now);  // stand-ins after the grace period (not journaled)
        if (t->table->has_events()) publish(*t);
        advance(tid);
    }
    run_pumps();
}

std::optional<Millis> Hall::next_wakeup() const {
    std::optional<Millis> w;
    for (const auto& [tid, t] : tables_) {
        const auto x = t.table->next_wakeup();
        if (x && (!w || *x < *w)) w = x;
    }
    return w;
}

void Hall::record_latency(double ms, Millis now) {
    ++actions_total_;
    recent_actions_.push_back(now);
    while (!recent_actions_.empty() && recent_actions_.front() < now - 10000) recent_actions_.pop_front();
    if (ms >= 0) {
        latencies_ms_.push_back(ms);
        if (latencies_ms_.size() > 10000) latencies_ms_.pop_front();
    }
}

bool Hall::http_path(std::string_view target) {
    const std::string_view path = target.substr(0, target.find('?'));
    return path == "/healthz" || path == "/metrics" || path.starts_with("/api/");
}

void Hall::http_get(std::string_view target, Millis now, std::function<void(HttpReply)> done) {
    now_ = std::max(now_, now);
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    if (path == "/healthz") {
        if (storage_failing_) return done(HttpReply{503, "application/json", json{{"status", "storage_unavailable"}, {"code", *storage_failing_}}.dump()});
        return done(HttpReply{200, "application/json", R"({"status":"ok"})"});
    }
    if (path == "/metrics") {
        while (!recent_actions_.empty() && recent_actions_.front() < now - 10000) recent_actions_.pop_front();
        int playing = 0;
        for (const auto& [tid, t] : tables_) playing += t.table->state() == TableState::playing;
        int signed_in = 0;
        for (const auto& [id, c] : conns_) signed_in += !c.name.empty();
        const std::vector<double> lat(latencies_ms_.begin(), latencies_ms_.end());
        const double window = std::max<double>(1.0, std::min<double>(10.0, static_cast<double>(now - started_) / 1000.0));
        json m{{"tables", tables_.size()}, {"tables_playing", playing}, {"connections", conns_.size()},
               {"signed_in", signed_in}, {"actions_total", actions_total_},
               {"actions_per_second", static_cast<double>(recent_actions_.size()) / window},
               {"latency_ms", {{"p50", percentile(lat, 0.5)}, {"p90", percentile(lat, 0.9)}, {"p99", percentile(lat, 0.99)},
                               {"max", lat.empty() ? 0.0 : *std::max_element(lat.begin(), lat.end())}}},
               {"uptime_s", (now - started_) / 1000}, {"storage_errors", storage_errors_},
               {"storage", storage_failing_ ? json(*storage_failing_) : json("ok")},
               {"write_queue", writer_ ? writer_->waiting() : 0}};
        return done(HttpReply{200, "application/json", m.dump()});
    }
    auto reply = std::make_shared<std::optional<HttpReply>>();
    on_writer("read", [path = std::string(path), reply](Storage& s) { *reply = api_get(s, path); },
              [reply, done = std::move(done)](const std::optional<StorageError>& e) {
                  if (e) done(HttpReply{503, "application/json", json{{"error", "storage_unavailable"}, {"code", e->code()}}.dump()});
                  else if (*reply) done(std::move(**reply));
                  else done(HttpReply{404, "application/json", R"({"error":"not_found"})"});
              },
              /*write=*/false);
}

std::optional<HttpReply> Hall::api_get(Storage& storage, std::string_view path) {
    if (path == "/api/leaderboard") return HttpReply{200, "application/json", storage.leaderboard().dump()};
    constexpr std::string_view kMatches = "/api/matches/";
    if (path.starts_with(kMatches)) {
        const std::string id = url_decode(path.substr(kMatches.size()));
        if (auto rec = storage.match_record(id)) return HttpReply{200, "application/json", *rec};
        return HttpReply{404, "application/json", R"({"error":"no_such_match"})"};
    }
    constexpr std::string_view kPlayers = "/api/players/";
    if (path.starts_with(kPlayers) && path.ends_with("/matches")) {
        const auto rest = path.substr(kPlayers.size(), path.size() - kPlayers.size() - std::string_view("/matches").size());
        // Names are stored in NFC: a decomposed spelling in the URL finds the same player.
        std::string name = url_decode(rest);
        if (const NameResult n = normalize_name(name); n.name) name = n.name->text;
        return HttpReply{200, "application/json", storage.player_matches(name).dump()};
    }
    if (path.starts_with("/api/")) return HttpReply{404, "application/json", R"({"error":"not_found"})"};
    return std::nullopt;
}

}  // namespace tarneeb::server
