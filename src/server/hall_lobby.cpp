// The hall, the lobby: the dispatcher (a visit of the typed request read at the edge,
// client_request.hpp), list, create, join, leave and the requests of a seated player (add_bot,
// remove_bot, start, act, hint) (the hall's other roles: hall.cpp, hall_admission.cpp, hall_lobby.cpp,
// hall_http.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says what the hall is).
#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/support/names.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

using nlohmann::json;

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

void Hall::dispatch(ConnId conn, Conn& c, const ClientRequest& r) {
    // The client messages (docs/protocol.md), each with its handler; all but ping and hello
    // (and an unknown type, refused wherever the guest is) need the guest to be signed in.
    if (r.signed_in) {
        if (c.name.empty()) return error(conn, r.id, to_string(ProtocolError::not_signed_in));
        guests_[c.name];  // the guest's entry (every signed-in guest has one)
    }
    const json& id = r.id;
    std::visit(Overloaded{
                   [&](const BadRequest& bad) { error(conn, id, bad.code, bad.message); },
                   [&](const PingRequest&) { reply(conn, id, pong_json()); },
                   [&](const HelloRequest& h) { hello(conn, c, h, id); },
                   [&](const ListRequest& l) { list_tables(conn, id, l); },
                   [&](const CreateRequest& cr) { on_create(conn, c, cr, id); },
                   [&](const TableRequest& t) { on_table_request(conn, c, t, r); },
                   // Accounts (hall_accounts.cpp).
                   [&](const RegisterRequest& reg) { on_register(conn, c, reg, id); },
                   [&](const ChangePasswordRequest& cp) { on_change_password(conn, c, cp, id); },
                   [&](const SignOutRequest&) { on_sign_out(conn, c, id); },
                   [&](const SignOutEverywhereRequest&) { on_sign_out_everywhere(conn, c, id); },
                   // Tournaments (hall_tournament.cpp).
                   [&](const TournamentCreateRequest& tc) { on_tournament_create(conn, c, tc, id); },
                   [&](const TournamentRequest& tr) { on_tournament(conn, c, tr, r); },
               },
               r.body);
}

void Hall::on_table_request(ConnId conn, Conn& c, const TableRequest& t, const ClientRequest& r) {
    std::visit(Overloaded{
                   [&](const JoinRequest& j) { on_join(conn, c, j, r); },
                   [&](const LeaveRequest&) { on_leave(conn, c, r); },
                   [&](const HintRequest&) { on_hint(conn, c, r.id); },
                   [&](const ChatRequest& line) { on_chat(conn, c, line, r.id); },  // hall_chat.cpp
                   [&](const auto&) { on_seat_request(conn, c, t, r); },  // add_bot, remove_bot, start, act
               },
               t);
}

void Hall::on_hint(ConnId conn, Conn& c, const json& id) {
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

}  // namespace

void Hall::on_create(ConnId conn, Conn& c, const CreateRequest& cr, const json& id) {
    const std::string name = c.name;
    TableSettings settings = cr.settings;
    if (static_cast<int>(tables_.size()) >= config_.max_tables) return error(conn, id, to_string(ProtocolError::too_many_tables));
    // Counted before the write, so that two creates in flight (or on two shards) cannot both pass.
    if (!waiting_tables_->reserve(name, c.address, config_.max_waiting_tables_per_guest, config_.max_waiting_tables_per_address))
        return error(conn, id, to_string(ProtocolError::too_many_waiting_tables), "start or leave your waiting table first");
    auto reserved = std::make_shared<WaitingReservation>(waiting_tables_, name, c.address);
    settings.code.clear();
    settings.code_hash.clear();
    settings.bracket_tiebreak = false;  // only a tournament's tables (hall_tournament.cpp)
    if (settings.is_private) {
        settings.code = secure_random_string(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
        settings.code_hash = hash_token(settings.code);  // the database keeps only this
    }
    auto tid = std::make_shared<std::string>();
    auto fence = std::make_shared<std::int64_t>(0);
    hold(conn);
    on_writer("create",
              [s = settings_json(settings), tid, fence, take = cluster_.take](Storage& st) {
                  *tid = st.create_table(s);
                  if (take) *fence = take(st, *tid);  // a cluster node: its lease and fence first
              },
              [this, conn, id, settings, tid, fence, creator = name, address = c.address, reserved](const std::optional<StorageError>& e) {
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

void Hall::on_join(ConnId conn, Conn& c, const JoinRequest& j, const ClientRequest& r) {
    const json& id = r.id;
    const std::string name = c.name;
    Guest& g = guests_[name];
    const std::string tid = j.table;
    TableEntry* t = find_table(tid);
    if (!t) return error(conn, id, to_string(ProtocolError::no_such_table));
    if (t->table->settings().is_private) {
        const TableSettings& ts = t->table->settings();
        const bool good = j.code && (ts.code_hash.empty() ? *j.code == ts.code : hash_token(*j.code) == ts.code_hash);
        if (!good) return error(conn, id, to_string(ProtocolError::bad_code));
    }
    if (t->busy) return park(*t, conn, r);
    if (TableEntry* old = g.table.empty() || g.table == tid ? nullptr : find_table(g.table); old && old->busy)
        return park(*old, conn, r);
    if (j.sit) {
        if (!j.seat) return error(conn, id, to_string(ProtocolError::bad_seat));
        const Seat s = *j.seat;
        if (auto why = tournament_refuses(tid, "join", index(s), name)) return error(conn, id, *why, std::string(tournament_error_text(*why)));
        const bool here = g.table == tid;
        if (here && g.seat == s) return reply(conn, id, ok_json());
        auto change = t->table->prepare_sit(s, name);
        if (!change.ok()) return error(conn, id, to_string(*change.error));
        if (!here && !g.table.empty()) {
            // Leave the other table first (a journal write), then sit here (another one),
            // by handling this join again. Each write comes before its change, so when the
            // database fails the guest is at one table or at none.
            return leave_table(conn, name, [this, conn, r](const std::optional<StorageError>& e) {
                if (e) return storage_error(conn, r.id, *e);
                handle(conn, r);
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
            sat.seat = s;
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
        return leave_table(conn, name, [this, conn, r](const std::optional<StorageError>& e) {
            if (e) return storage_error(conn, r.id, *e);
            handle(conn, r);
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

void Hall::on_leave(ConnId conn, Conn& c, const ClientRequest& r) {
    const std::string name = c.name;
    Guest& g = guests_[name];
    if (g.table.empty()) return error(conn, r.id, to_string(ProtocolError::not_at_table));
    if (TableEntry* t = find_table(g.table); t && t->busy) return park(*t, conn, r);
    return leave_table(conn, name, [this, conn, id = r.id](const std::optional<StorageError>& e) {
        if (e) return storage_error(conn, id, *e);
        reply(conn, id, ok_json());
    });
}

void Hall::on_seat_request(ConnId conn, Conn& c, const TableRequest& request, const ClientRequest& r) {
    const json& id = r.id;
    const std::string_view type = request_type(request);
    const std::string name = c.name;
    Guest& g = guests_[name];
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (!g.seat) return error(conn, id, to_string(type == "act" ? ProtocolError::spectator : ProtocolError::not_seated));
    if (t->busy) return park(*t, conn, r);
    const std::string tid = g.table;
    if (type != "act")
        if (auto why = tournament_refuses(tid, type, std::nullopt, name)) return error(conn, id, *why, std::string(tournament_error_text(*why)));
    const auto t0 = std::chrono::steady_clock::now();
    Change change;
    std::vector<MatchRow> pending;
    if (std::holds_alternative<StartRequest>(request)) {
        change = t->table->prepare_start(next_seed(), next_seed());
        // The journal of a finished match is dropped by the start: its record is stored first.
        for (const auto& row : pending_matches_)
            if (row.table == tid) pending.push_back(row);
    } else if (const auto* act = std::get_if<ActRequest>(&request)) {
        if (!act->version) return error(conn, id, to_string(ProtocolError::bad_message), "act needs a version");
        if (!act->action) return error(conn, id, to_string(ProtocolError::bad_action));
        change = t->table->prepare_act(*g.seat, *act->action, *act->version, next_seed());
        if (change.error == Refusal{ProtocolError::stale})
            return error(conn, id, to_string(*change.error), "table is at version " + std::to_string(t->table->version()));
    } else if (const auto* add = std::get_if<AddBotRequest>(&request)) {
        if (!add->seat) return error(conn, id, to_string(ProtocolError::bad_seat));
        change = t->table->prepare_add_bot(*add->seat, add->bot.value_or(config_.default_bot), next_seed());
    } else {
        const auto& remove = std::get<RemoveBotRequest>(request);
        if (!remove.seat) return error(conn, id, to_string(ProtocolError::bad_seat));
        change = t->table->prepare_remove_bot(*remove.seat);
    }
    if (!change.ok()) return error(conn, id, to_string(*change.error));
    if (!pending.empty()) {
        // Stored before the start's rewrite (the writer runs in order); a failure refuses the start.
        hold(conn);
        on_writer("store_match", [pending](Storage& s) {
                      for (const auto& row : pending) s.store_match(row);
                  },
                  [this, conn, tid, r](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) return storage_error(conn, r.id, *e);
                      std::erase_if(pending_matches_, [&](const MatchRow& row) { return row.table == tid; });
                      handle(conn, r);
                  });
        return;
    }
    const bool is_act = std::holds_alternative<ActRequest>(request);
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

void Hall::list_tables(ConnId conn, const json& id, const ListRequest& l) {
    // One page of public tables in id order after `cursor` (docs/protocol.md "list").
    const std::int64_t max = static_cast<std::int64_t>(std::max<std::size_t>(1, config_.list_page_max));
    const std::int64_t limit = std::min(max, l.limit.value_or(max));
    const std::optional<std::string>& from = l.cursor;
    json page = lobby_page(from, limit);
    // Every list replaces the connection's subscription: with `watch`, this page is pushed again
    // whenever it changes (push_lobby); without it, nothing more is pushed.
    Conn& c = conns_.at(conn);
    c.lobby.reset();
    if (l.watch) {
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
