#include "tarneeb/server/hall.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "tarneeb/core/random.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

bool valid_name(std::string_view n) {
    if (n.empty() || n.size() > 24 || n.front() == ' ' || n.back() == ' ') return false;
    return std::all_of(n.begin(), n.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == ' ' ||
               ch == '_' || ch == '-' || ch == '.';
    });
}

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
    if (rng_state_ == 0) {
        std::random_device rd;
        rng_state_ = (std::uint64_t{rd()} << 32) ^ rd();
    }
}

std::uint64_t Hall::next_seed() {
    rng_state_ += 0x9E3779B97F4A7C15ULL;
    return mix64(rng_state_);
}

std::string Hall::new_token() {
    std::random_device rd;
    char buf[33];
    std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    return buf;
}

Table::JournalSink Hall::journal_for(const std::string& id) {
    return {[this, id](const json& e) {
                storage_.append(id, e);
                storage_worked();
            },
            [this, id](const std::vector<json>& es) {
                storage_.rewrite(id, es);
                storage_worked();
            }};
}

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

void Hall::store_pending() {
    while (!pending_matches_.empty()) {
        storage_.store_match(pending_matches_.front());
        pending_matches_.erase(pending_matches_.begin());
        storage_worked();
    }
}

void Hall::close_table_in_storage(const std::string& id) {
    // A table closed in memory but still live in the database is resumed after a restart and
    // closed again there (no humans) or swept as abandoned: nothing is lost.
    try {
        storage_.close_table(id);
        storage_worked();
    } catch (const StorageError& e) {
        storage_failed(e, "close_table");
    }
}

void Hall::advance(TableEntry& t, Millis now) {
    try {
        t.table->tick(now);
    } catch (const StorageError& e) {
        storage_failed(e, "journal");  // the table stays where it was; the next tick tries again
        if (!t.table->has_events()) return;  // nothing new to tell
    }
    publish(t);
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
    started_ = now;
    int n = 0;
    for (auto& live : storage_.live_tables()) {
        auto settings = TableSettings::from_json(live.settings);
        if (!settings) {
            storage_.close_table(live.id);
            continue;
        }
        auto table = std::make_unique<Table>(live.id, *settings, config_.timing, bots_, journal_for(live.id));
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

bool Hall::admits(const std::string& address) const {
    const auto it = conns_per_address_.find(address);
    return it == conns_per_address_.end() || it->second < config_.max_connections_per_address;
}

void Hall::open(ConnId conn, const std::string& address, Millis now) {
    if (started_ == 0) started_ = now;
    if (!admits(address)) {
        error(conn, nullptr, to_string(ProtocolError::too_many_connections),
              "too many connections from this address (at most " + std::to_string(config_.max_connections_per_address) + ")");
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
    if (!id.is_null()) body["id"] = id;
    out_.send(conn, body.dump());
}

void Hall::error(ConnId conn, const json& id, std::string_view code, std::string message) {
    json body{{"type", "error"}, {"code", code}, {"message", message.empty() ? std::string(code) : message}};
    reply(conn, id, std::move(body));
}

void Hall::message(ConnId conn, std::string_view text, Millis now) {
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
        error(conn, nullptr, to_string(ProtocolError::rate_limited), "too many messages");
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
    try {
        dispatch(conn, c, msg, now);
    } catch (const StorageError& e) {
        // Nothing was answered yet and the write that failed changed nothing.
        storage_failed(e, msg["type"].get<std::string>().substr(0, 16));
        error(conn, request_id(msg), to_string(ProtocolError::storage_unavailable),
              "the server cannot save changes now (" + e.code() + "); nothing changed, try again later");
    }
}

void Hall::hello(ConnId conn, Conn& c, const json& msg, Millis now) {
    const json id = request_id(msg);
    if (!c.name.empty()) return error(conn, id, to_string(ProtocolError::bad_message), "already signed in");
    std::string name, token;
    if (auto t = msg.find("token"); t != msg.end() && t->is_string()) {
        token = t->get<std::string>();
        auto found = storage_.name_for_token(token);
        if (!found) return error(conn, id, to_string(ProtocolError::unknown_token));
        name = *found;
    } else if (auto n = msg.find("name"); n != msg.end() && n->is_string()) {
        name = n->get<std::string>();
        if (!valid_name(name)) return error(conn, id, to_string(ProtocolError::bad_name));
        token = new_token();
        if (!storage_.register_name(name, token)) return error(conn, id, to_string(ProtocolError::name_taken));
    } else {
        return error(conn, id, to_string(ProtocolError::bad_message), "hello needs a name or a token");
    }
    if (auto known = guests_.find(name);
        known != guests_.end() && static_cast<int>(known->second.conns.size()) >= config_.max_connections_per_guest)
        return error(conn, id, to_string(ProtocolError::too_many_connections),
                     "too many connections with this token (at most " + std::to_string(config_.max_connections_per_guest) + ")");
    c.name = name;
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
        t->table->connected(name, now);
        advance(*t, now);
    }
}

void Hall::leave_table(const std::string& name, Millis now) {
    Guest& g = guests_[name];
    if (g.table.empty()) return;
    const std::string tid = g.table;
    TableEntry* t = find_table(tid);
    // The journal first: when it throws, nothing has changed.
    if (t && g.seat) t->table->leave(name, now);
    g.table.clear();
    if (!t) return;
    if (!g.seat) --t->spectators;
    t->watchers.erase(name);
    g.seat.reset();
    advance(*t, now);
    if (t->table->no_humans() && t->watchers.empty()) {
        close_table_in_storage(tid);
        tables_.erase(tid);
    }
}

void Hall::dispatch(ConnId conn, Conn& c, const json& msg, Millis now) {
    const std::string& type = msg["type"].get_ref<const std::string&>();
    const json id = request_id(msg);
    if (type == "ping") return reply(conn, id, {{"type", "pong"}});
    if (type == "hello") return hello(conn, c, msg, now);
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
        if (settings->is_private) {
            static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
            std::random_device rd;
            for (int i = 0; i < 6; ++i) settings->code.push_back(kAlphabet[rd() % 32]);
        }
        const std::string tid = storage_.create_table(settings->to_json());
        TableEntry entry;
        entry.table = std::make_unique<Table>(tid, *settings, config_.timing, bots_, journal_for(tid));
        entry.creator = name;
        entry.creator_address = c.address;
        tables_.emplace(tid, std::move(entry));
        return reply(conn, id, {{"type", "created"}, {"table", tid},
                                {"code", settings->is_private ? json(settings->code) : json(nullptr)}});
    }
    if (type == "join") {
        auto tf = msg.find("table");
        if (tf == msg.end() || !tf->is_string()) return error(conn, id, to_string(ProtocolError::bad_message), "join needs a table");
        const std::string tid = tf->get<std::string>();
        TableEntry* t = find_table(tid);
        if (!t) return error(conn, id, to_string(ProtocolError::no_such_table));
        if (t->table->settings().is_private) {
            auto code = msg.find("code");
            if (code == msg.end() || !code->is_string() || code->get<std::string>() != t->table->settings().code)
                return error(conn, id, to_string(ProtocolError::bad_code));
        }
        if (msg.contains("seat") && !msg["seat"].is_null()) {
            const auto s = seat_field("seat");
            if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
            const bool here = g.table == tid;
            if (here && g.seat && index(*g.seat) == *s) return reply(conn, id, {{"type", "ok"}});
            if (auto e = t->table->can_sit(seat(*s))) return error(conn, id, *e);
            // Leave the other table first (a journal write), then sit here (another one). Each
            // write comes before its change, so when the database fails the guest is at one
            // table or at none, and every table is as its journal says.
            if (!here && !g.table.empty()) leave_table(name, now);
            t = find_table(tid);
            if (auto e = t->table->sit(seat(*s), name, now)) return error(conn, id, *e);
            if (here && !g.seat) --t->spectators;
            g.table = tid;
            g.seat = seat(*s);
            t->watchers.insert(name);
            reply(conn, id, {{"type", "ok"}});
            advance(*t, now);
            return;
        }
        // Watch as a spectator.
        if (g.table == tid && !g.seat) return reply(conn, id, {{"type", "ok"}});
        if (g.table == tid) {
            // From a seat of this table to watching it: the guest stays at the table, so it must
            // not be left on the way (a table with no human and no watcher is closed).
            t->table->leave(name, now);  // the journal first: when it throws, nothing changed
            g.seat.reset();
            ++t->spectators;
            reply(conn, id, {{"type", "ok"}});
            advance(*t, now);
            return;
        }
        if (!g.table.empty()) leave_table(name, now);
        t = find_table(tid);
        if (!t) return error(conn, id, to_string(ProtocolError::no_such_table));
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
        leave_table(name, now);
        return reply(conn, id, {{"type", "ok"}});
    }
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (type == "add_bot" || type == "remove_bot" || type == "start") {
        if (!g.seat) return error(conn, id, to_string(ProtocolError::not_seated));
        Table::Result r;
        if (type == "start") {
            store_pending();  // the journal of a finished match is dropped by the next start
            r = t->table->start(next_seed(), now);
        } else {
            const auto s = seat_field("seat");
            if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
            if (type == "add_bot") {
                std::string bot = config_.default_bot;
                if (auto b = msg.find("bot"); b != msg.end() && b->is_string()) bot = b->get<std::string>();
                r = t->table->add_bot(seat(*s), bot, next_seed(), now);
            } else {
                r = t->table->remove_bot(seat(*s), now);
            }
        }
        if (r) return error(conn, id, *r);
        reply(conn, id, {{"type", "ok"}});
        advance(*t, now);
        return;
    }
    if (type == "act") {
        const auto t0 = std::chrono::steady_clock::now();
        if (!g.seat) return error(conn, id, to_string(ProtocolError::spectator));
        auto v = msg.find("version");
        if (v == msg.end() || !v->is_number_unsigned()) return error(conn, id, to_string(ProtocolError::bad_message), "act needs a version");
        auto a = msg.find("action");
        const auto action = a == msg.end() ? std::nullopt : parse_action(*a);
        if (!action) return error(conn, id, to_string(ProtocolError::bad_action));
        if (auto r = t->table->act(*g.seat, *action, v->get<std::uint64_t>(), now)) {
            std::string text = *r;
            if (*r == to_string(ProtocolError::stale)) text = "table is at version " + std::to_string(t->table->version());
            return error(conn, id, *r, text);
        }
        reply(conn, id, {{"type", "ok"}, {"version", t->table->version()}});
        advance(*t, now);
        record_latency(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), now);
        return;
    }
    error(conn, id, to_string(ProtocolError::unknown_type), "unknown message type " + type.substr(0, 32));
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
    const std::string text = j.dump();
    for (ConnId c : g->second.conns) out_.send(c, text);
}

void Hall::publish(TableEntry& t) {
    auto events = t.table->take_events();
    if (auto f = t.table->take_finished()) {
        MatchRow row{f->id, t.table->id(), 0, f->names, f->bots, f->status, f->winner, f->scores, f->record.dump()};
        row.finished_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        try {
            storage_.store_match(row);
            storage_worked();
        } catch (const StorageError& e) {
            storage_failed(e, "store_match");
            pending_matches_.push_back(std::move(row));  // stored again at the next sweep or start
        }
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
        if (t.table->state() == TableState::playing || t.table->humans_connected() || watched) {
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
    try {
        store_pending();
    } catch (const StorageError& e) {
        storage_failed(e, "store_match");
    }
}

void Hall::tick(Millis now) {
    if (now - last_sweep_ >= 1000) sweep(now);
    std::vector<std::string> due;
    for (auto& [tid, t] : tables_) {
        const auto w = t.table->next_wakeup();
        if (w && *w <= now) due.push_back(tid);
    }
    for (const auto& tid : due) {
        TableEntry* t = find_table(tid);
        if (!t) continue;
        const auto before = t->table->actions_applied();
        advance(*t, now);
        const auto n = t->table->actions_applied() - before;
        for (std::uint64_t i = 0; i < n; ++i) record_latency(-1, now);
    }
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

std::optional<HttpReply> Hall::http_get(std::string_view target, Millis now) {
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    if (path == "/healthz") {
        if (storage_failing_) return HttpReply{503, "application/json", json{{"status", "storage_unavailable"}, {"code", *storage_failing_}}.dump()};
        return HttpReply{200, "application/json", R"({"status":"ok"})"};
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
               {"storage", storage_failing_ ? json(*storage_failing_) : json("ok")}};
        return HttpReply{200, "application/json", m.dump()};
    }
    try {
        return api_get(path);
    } catch (const StorageError& e) {
        storage_failed(e, "read");
        return HttpReply{503, "application/json", json{{"error", "storage_unavailable"}, {"code", e.code()}}.dump()};
    }
}

std::optional<HttpReply> Hall::api_get(std::string_view path) {
    if (path == "/api/leaderboard") return HttpReply{200, "application/json", storage_.leaderboard().dump()};
    constexpr std::string_view kMatches = "/api/matches/";
    if (path.starts_with(kMatches)) {
        const std::string id = url_decode(path.substr(kMatches.size()));
        if (auto rec = storage_.match_record(id)) return HttpReply{200, "application/json", *rec};
        return HttpReply{404, "application/json", R"({"error":"no_such_match"})"};
    }
    constexpr std::string_view kPlayers = "/api/players/";
    if (path.starts_with(kPlayers) && path.ends_with("/matches")) {
        const auto rest = path.substr(kPlayers.size(), path.size() - kPlayers.size() - std::string_view("/matches").size());
        return HttpReply{200, "application/json", storage_.player_matches(url_decode(rest)).dump()};
    }
    if (path.starts_with("/api/")) return HttpReply{404, "application/json", R"({"error":"not_found"})"};
    return std::nullopt;
}

}  // namespace tarneeb::server
