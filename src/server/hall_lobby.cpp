// The hall, signing in and the lobby: hello, the
// message dispatcher (a table of handlers, one per client message), list, create, join, leave
// and the requests of a seated player (add_bot, remove_bot, start, act) (the hall's other roles: hall.cpp, hall_admission.cpp, hall_lobby.cpp,
// hall_http.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says what the hall is).
#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

void Hall::hello(ConnId conn, Conn& c, const json& msg, const json& id) {
    if (!c.name.empty()) return error(conn, id, to_string(ProtocolError::bad_message), "already signed in");
    if (msg.contains("password")) return sign_in(conn, c, msg, id);  // a registered player (hall_accounts.cpp)
    if (auto t = msg.find("token"); t != msg.end() && t->is_string()) {
        const std::string token = t->get<std::string>();
        auto found = std::make_shared<std::optional<TokenOwner>>();
        hold(conn);
        on_writer("hello", [token, found, now = now_](Storage& s) { *found = s.token_owner(token, now); },
                  [this, conn, id, token, found](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) storage_error(conn, id, *e);
                      else if (!*found) error(conn, id, to_string(ProtocolError::unknown_token));
                      else signed_in(conn, id, (*found)->name, token, (*found)->registered);
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

void Hall::signed_in(ConnId conn, const json& id, const std::string& name, const std::string& token, bool registered) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;  // closed meanwhile
    if (auto known = guests_.find(name);
        known != guests_.end() && static_cast<int>(known->second.conns.size()) >= config_.max_connections_per_guest)
        return error(conn, id, to_string(ProtocolError::too_many_connections),
                     "too many connections with this token (at most " + std::to_string(config_.max_connections_per_guest) + ")");
    it->second.name = name;
    it->second.token_hash = hash_token(token);
    it->second.registered = registered;
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
    json welcome = welcome_json(name, token, g.table, g.table.empty() ? std::nullopt : g.seat);
    welcome["registered"] = registered;  // accounts (docs/protocol.md "Accounts")
    reply(conn, id, std::move(welcome));
    if (TableEntry* t = g.table.empty() ? nullptr : find_table(g.table)) {
        t->table->connected(name, now_);
        publish(*t);
        send_chat_history(name, *t);
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
    if (tournament_holds(tid)) return;  // a tournament's match, bots only maybe
    close_table_in_storage(tid);
    erase_table(tid);
    lobby_changed();
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
    // The client messages (docs/protocol.md), each with its handler; all but ping and hello
    // need the guest to be signed in.
    struct Route {
        std::string_view type;
        bool signed_in;
        void (Hall::*handle)(ConnId, Conn&, const json& msg, const json& id);
    };
    static constexpr Route kRoutes[] = {
        {"ping", false, &Hall::on_ping},          {"hello", false, &Hall::hello},
        {"list", true, &Hall::on_list},           {"create", true, &Hall::on_create},
        {"join", true, &Hall::on_join},           {"leave", true, &Hall::on_leave},
        {"add_bot", true, &Hall::on_seat_request}, {"remove_bot", true, &Hall::on_seat_request},
        {"start", true, &Hall::on_seat_request},  {"act", true, &Hall::on_seat_request},
        {"hint", true, &Hall::on_hint},
        // Accounts (hall_accounts.cpp).
        {"register", true, &Hall::on_register},   {"change_password", true, &Hall::on_change_password},
        {"sign_out", true, &Hall::on_sign_out},   {"sign_out_everywhere", true, &Hall::on_sign_out_everywhere},
        // Chat (hall_chat.cpp).
        {"chat", true, &Hall::on_chat},
        // Tournaments (hall_tournament.cpp).
        {"tournament_create", true, &Hall::on_tournament}, {"tournament_open", true, &Hall::on_tournament},
        {"tournament_close", true, &Hall::on_tournament},  {"tournament_start", true, &Hall::on_tournament},
        {"tournament_cancel", true, &Hall::on_tournament}, {"tournament_enter", true, &Hall::on_tournament},
        {"tournament_withdraw", true, &Hall::on_tournament},
    };
    const std::string& type = msg["type"].get_ref<const std::string&>();
    const json id = request_id(msg);
    const auto route = std::find_if(std::begin(kRoutes), std::end(kRoutes), [&](const Route& r) { return r.type == type; });
    // An unknown type is `unknown_type` wherever the guest is (before hello, at no table...).
    if (route == std::end(kRoutes)) {
        // At most 32 bytes of the type, cut at a character boundary (the answer must stay UTF-8).
        std::size_t n = std::min<std::size_t>(type.size(), 32);
        while (n > 0 && n < type.size() && (static_cast<unsigned char>(type[n]) & 0xC0) == 0x80) --n;
        return error(conn, id, to_string(ProtocolError::unknown_type), "unknown message type " + type.substr(0, n));
    }
    if (route->signed_in) {
        if (c.name.empty()) return error(conn, id, to_string(ProtocolError::not_signed_in));
        guests_[c.name];  // the guest's entry (every signed-in guest has one)
    }
    (this->*route->handle)(conn, c, msg, id);
}

void Hall::on_ping(ConnId conn, Conn&, const json&, const json& id) { reply(conn, id, pong_json()); }

void Hall::on_hint(ConnId conn, Conn& c, const json&, const json& id) {
    Guest& g = guests_[c.name];
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (!g.seat) return error(conn, id, to_string(ProtocolError::spectator));
    const Match& match = t->table->match();
    if (t->table->state() != TableState::playing || !match.has_round() || match.round().over())
        return error(conn, id, to_string(ErrorCode::no_deal));
    if (match.round().to_act() != *g.seat) return error(conn, id, to_string(ErrorCode::out_of_turn));
    // One hint at a time per connection: the bot threads are shared by every table.
    if (c.hinting) return error(conn, id, to_string(ProtocolError::rate_limited), "a hint is already on its way");
    std::shared_ptr<bots::Bot> bot = bots_("heuristic", secure_random_u64());
    if (!bot) return error(conn, id, to_string(ProtocolError::unknown_bot));
    c.hinting = true;
    ++outstanding_;
    const std::uint64_t version = t->table->version();
    auto alive = std::weak_ptr<bool>(alive_);
    // The seat's own view: the hint knows what the player knows, no hidden card.
    const bool queued = thinkers_->submit([this, alive, conn, id, version, bot, view = SeatView::of(match, *g.seat)]() mutable {
        const Action a = bots::decide_or_default(*bot, view);
        bot.reset();
        out_.post([this, alive, conn, id, version, a] {
            if (alive.expired()) return;
            --outstanding_;
            auto it = conns_.find(conn);
            if (it == conns_.end()) return;  // closed meanwhile
            it->second.hinting = false;
            reply(conn, id, hint_json(a, version));
        });
    });
    if (!queued) {
        --outstanding_;
        c.hinting = false;
        error(conn, id, to_string(ProtocolError::rate_limited), "the server is stopping");
    }
}

void Hall::on_list(ConnId conn, Conn&, const json& msg, const json& id) { list_tables(conn, id, msg); }

namespace {
/// One table counted in a WaitingTables before its create is written. It is counted out again
/// when the table is not made: on a write error, and also when the hall goes before the write's
/// answer comes (that answer, which holds this, is then dropped without running).
class WaitingReservation {
public:
    WaitingReservation(std::shared_ptr<WaitingTables> count, std::string guest, std::string address)
        : count_(std::move(count)), guest_(std::move(guest)), address_(std::move(address)) {}
    ~WaitingReservation() { give_back(); }
    WaitingReservation(const WaitingReservation&) = delete;
    WaitingReservation& operator=(const WaitingReservation&) = delete;
    /// The table was made: its entry counts it from now on (TableEntry::counted_waiting).
    void keep() { count_.reset(); }
    /// The table was not made.
    void give_back() {
        if (count_) count_->release(guest_, address_);
        count_.reset();
    }

private:
    std::shared_ptr<WaitingTables> count_;
    std::string guest_, address_;
};

/// A seat number field clamped to -1..4 (out of range either way: bad_seat), nullopt when absent
/// or not an integer.
std::optional<int> seat_field(const json& msg, const char* key) {
    auto it = msg.find(key);
    if (it == msg.end() || !it->is_number_integer()) return std::nullopt;
    return static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), -1, 4));
}
}  // namespace

void Hall::on_create(ConnId conn, Conn& c, const json& msg, const json& id) {
    const std::string name = c.name;
    auto settings = parse_settings(msg);
    if (!settings) return error(conn, id, to_string(ProtocolError::bad_settings));
    if (static_cast<int>(tables_.size()) >= config_.max_tables) return error(conn, id, to_string(ProtocolError::too_many_tables));
    // Counted before the write, so that two creates in flight (or on two shards) cannot both pass.
    if (!waiting_tables_->reserve(name, c.address, config_.max_waiting_tables_per_guest, config_.max_waiting_tables_per_address))
        return error(conn, id, to_string(ProtocolError::too_many_waiting_tables), "start or leave your waiting table first");
    auto reserved = std::make_shared<WaitingReservation>(waiting_tables_, name, c.address);
    settings->code.clear();
    settings->code_hash.clear();
    settings->bracket_tiebreak = false;  // only a tournament's tables (hall_tournament.cpp)
    if (settings->is_private) {
        settings->code = secure_random_string(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
        settings->code_hash = hash_token(settings->code);  // the database keeps only this
    }
    auto tid = std::make_shared<std::string>();
    auto fence = std::make_shared<std::int64_t>(0);
    hold(conn);
    on_writer("create",
              [s = settings_json(*settings), tid, fence, take = cluster_.take](Storage& st) {
                  *tid = st.create_table(s);
                  if (take) *fence = take(st, *tid);  // a cluster node: its lease and fence first
              },
              [this, conn, id, settings = *settings, tid, fence, creator = name, address = c.address, reserved](const std::optional<StorageError>& e) {
                  release(conn);
                  if (e) {
                      reserved->give_back();
                      storage_error(conn, id, *e);
                  } else {
                      reserved->keep();
                      TableEntry entry;
                      entry.table = std::make_unique<Table>(*tid, settings, config_.timing, bots_);
                      entry.creator = creator;
                      entry.creator_address = address;
                      entry.counted_waiting = true;
                      entry.fence = *fence;
                      add_table(*tid, std::move(entry));
                      lobby_changed();
                      reply(conn, id, created_json(*tid, settings.is_private ? std::optional<std::string>(settings.code) : std::nullopt));
                  }
              });
}

void Hall::on_join(ConnId conn, Conn& c, const json& msg, const json& id) {
    const std::string name = c.name;
    Guest& g = guests_[name];
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
        const auto s = seat_field(msg, "seat");
        if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
        if (auto why = tournament_refuses(tid, "join", *s, name)) return error(conn, id, *why, std::string(tournament_error_text(*why)));
        const bool here = g.table == tid;
        if (here && g.seat && index(*g.seat) == *s) return reply(conn, id, ok_json());
        auto change = t->table->prepare_sit(seat(*s), name);
        if (!change.ok()) return error(conn, id, to_string(*change.error));
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
            reply(conn, id, ok_json());
            if (!here) send_chat_history(name, *at);
        });
        return;
    }
    // Watch as a spectator.
    if (g.table == tid && !g.seat) return reply(conn, id, ok_json());
    if (g.table == tid) {
        // From a seat of this table to watching it: the guest stays at the table, so it must
        // not be left on the way (a table with no human and no watcher is closed).
        auto change = t->table->prepare_leave(name);
        if (!change.ok()) return error(conn, id, to_string(*change.error));
        hold(conn);
        change_table(tid, std::move(change), [this, conn, id, name, tid](const std::optional<StorageError>& e) {
            release(conn);
            if (e) return storage_error(conn, id, *e);
            guests_[name].seat.reset();
            ++find_table(tid)->spectators;
            reply(conn, id, ok_json());
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
    reply(conn, id, ok_json());
    send_table(name, *t);
    send_chat_history(name, *t);
}

void Hall::on_leave(ConnId conn, Conn& c, const json& msg, const json& id) {
    const std::string name = c.name;
    Guest& g = guests_[name];
    if (g.table.empty()) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (TableEntry* t = find_table(g.table); t && t->busy) return park(*t, conn, msg);
    return leave_table(conn, name, [this, conn, id](const std::optional<StorageError>& e) {
        if (e) return storage_error(conn, id, *e);
        reply(conn, id, ok_json());
    });
}

void Hall::on_seat_request(ConnId conn, Conn& c, const json& msg, const json& id) {
    const std::string& type = msg["type"].get_ref<const std::string&>();
    const std::string name = c.name;
    Guest& g = guests_[name];
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (!g.seat) return error(conn, id, to_string(type == "act" ? ProtocolError::spectator : ProtocolError::not_seated));
    if (t->busy) return park(*t, conn, msg);
    const std::string tid = g.table;
    if (type != "act")
        if (auto why = tournament_refuses(tid, type, std::nullopt, name)) return error(conn, id, *why, std::string(tournament_error_text(*why)));
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
        if (change.error == Refusal{ProtocolError::stale})
            return error(conn, id, to_string(*change.error), "table is at version " + std::to_string(t->table->version()));
    } else {
        const auto s = seat_field(msg, "seat");
        if (!s || *s < 0 || *s > 3) return error(conn, id, to_string(ProtocolError::bad_seat));
        if (type == "add_bot") {
            std::string bot = config_.default_bot;
            if (auto b = msg.find("bot"); b != msg.end() && b->is_string()) bot = b->get<std::string>();
            change = t->table->prepare_add_bot(seat(*s), bot, next_seed());
        } else {
            change = t->table->prepare_remove_bot(seat(*s));
        }
    }
    if (!change.ok()) return error(conn, id, to_string(*change.error));
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
            reply(conn, id, ok_json(find_table(tid)->table->version()));
            record_latency(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), now_);
        } else {
            reply(conn, id, ok_json());
        }
    });
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
    const auto watch = msg.find("watch");
    if (watch != msg.end() && !watch->is_null() && !watch->is_boolean())
        return error(conn, id, to_string(ProtocolError::bad_message), "watch must be a boolean");
    std::optional<std::string> from;
    if (cursor != msg.end() && cursor->is_string()) from = cursor->get<std::string>();
    json page = lobby_page(from, limit);
    // Every list replaces the connection's subscription: with `watch`, this page is pushed again
    // whenever it changes (push_lobby); without it, nothing more is pushed.
    Conn& c = conns_.at(conn);
    c.lobby.reset();
    if (watch != msg.end() && watch->is_boolean() && watch->get<bool>()) {
        c.lobby.emplace(from, limit);
        c.lobby_sent = std::hash<std::string>{}(page.dump());
    }
    reply(conn, id, std::move(page));
}

json Hall::lobby_page(const std::optional<std::string>& cursor, std::int64_t limit) const {
    // This hall's public tables and the other nodes' (cluster mode), merged in id order.
    auto it = cursor ? tables_.upper_bound(*cursor) : tables_.begin();
    auto rt = cursor ? remote_lobby_.upper_bound(*cursor) : remote_lobby_.begin();
    json list = json::array();
    json next = nullptr;
    while (it != tables_.end() || rt != remote_lobby_.end()) {
        const bool local = rt == remote_lobby_.end() || (it != tables_.end() && it->first < rt->first);
        if (local && it->second.table->settings().is_private) {
            ++it;
            continue;
        }
        if (static_cast<std::int64_t>(list.size()) == limit) {
            next = list.back()["table"];
            break;
        }
        if (local) {
            list.push_back(summary_json(*it->second.table, it->second.spectators));
            ++it;
        } else {
            list.push_back(*rt->second);
            ++rt;
        }
    }
    return tables_json(std::move(list), std::move(next));
}

void Hall::push_lobby(Millis now) {
    if (!lobby_changed_ || now - lobby_pushed_ < config_.lobby_push_ms) return;
    lobby_changed_ = false;
    lobby_pushed_ = now;
    // Watchers of the same page share its text (most watch the first page).
    std::map<std::pair<std::optional<std::string>, std::int64_t>, std::pair<std::string, std::size_t>> pages;
    for (auto& [conn, c] : conns_) {
        if (!c.lobby) continue;
        auto [at, fresh] = pages.try_emplace(*c.lobby);
        if (fresh) {
            at->second.first = lobby_page(c.lobby->first, c.lobby->second).dump();
            at->second.second = std::hash<std::string>{}(at->second.first);
        }
        if (at->second.second == c.lobby_sent) continue;  // its page did not change
        c.lobby_sent = at->second.second;
        out_.send(conn, at->second.first);
    }
}

}  // namespace tarneeb::server
