// The table host, a guest's requests (docs/protocol.md): create, join (sit or watch), leave, and
// the requests of a seated player (add_bot, remove_bot, start, act, hint); chat is in
// table_host_chat.cpp (include/tarneeb/server/table_host.hpp says what the host is).
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/server/quick_play.hpp"
#include "tarneeb/server/table_host.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

using nlohmann::json;

json storage_error_json(const StorageError& e) {
    // A seat refused because its person sits at another table that runs (a cluster's seat
    // record, claimed just before the write): nothing was written.
    if (e.code() == kAlreadySeated) return error_json(kAlreadySeated, "you sit at another table: leave it first");
    return error_json(to_string(ProtocolError::storage_unavailable),
                      "the server cannot save changes now (" + e.code() + "); nothing changed, try again later");
}

namespace {
json refused(std::string_view code, std::string message = {}) { return error_json(code, std::move(message)); }

/// `hint` at a rated or tournament table (docs/protocol.md "hint").
constexpr std::string_view kHintsOff = "hints_off";

/// Why an engine's add_bot is refused: which budget is spent.
std::string engine_budget_text(const EngineBudget& b) {
    if (b.total() >= b.total_limit())
        return "this server runs " + std::to_string(b.total_limit()) + " outside-engine bots already; seat a built-in bot";
    return "tables from this address have " + std::to_string(b.per_address_limit()) +
           " outside-engine bots already; remove one or seat a built-in bot";
}
}  // namespace

void TableHost::request(const std::string& guest, const TableRequest& r, Answer done) {
    std::visit(Overloaded{
                   [&](const JoinRequest& j) { on_join(guest, j, r, std::move(done)); },
                   [&](const LeaveRequest&) { on_leave(guest, r, std::move(done)); },
                   [&](const HintRequest&) { on_hint(guest, std::move(done)); },
                   [&](const ChatRequest& line) { on_chat(guest, line, std::move(done)); },  // table_host_chat.cpp
                   [&](const auto&) { on_seat_request(guest, r, std::move(done)); },  // add_bot, remove_bot, start, act
               },
               r);
}

void TableHost::forget_watcher(const std::string& guest) {
    Guest& g = guests_[guest];
    const std::string tid = g.table;
    g.table.clear();
    g.seat.reset();
    Hosted* t = tid.empty() ? nullptr : find(tid);
    if (!t) return;
    --t->spectators;
    t->watchers.erase(guest);
    publish(*t);  // the others see one spectator less
    close_if_empty(tid);
}

void TableHost::leave_table(const std::string& guest, Then then) {
    Guest& g = guests_[guest];
    Hosted* t = g.table.empty() ? nullptr : find(g.table);
    if (!t || !g.seat) {
        // A spectator (or a guest whose table is gone) leaves without a write.
        if (t) forget_watcher(guest);
        else g.table.clear();
        if (then) then(std::nullopt);
        return;
    }
    const std::string tid = g.table;
    auto change = t->table->prepare_leave(guest);
    if (!change.ok()) {  // unreachable: the guest is seated there
        g.table.clear();
        g.seat.reset();
        if (then) then(std::nullopt);
        return;
    }
    change_table(tid, std::move(change), [this, guest, then = std::move(then)](const std::optional<StorageError>& e) {
        if (!e) {
            // Still watching? No: the guest leaves the table altogether.
            Guest& left = guests_[guest];
            if (Hosted* at = find(left.table)) at->watchers.erase(guest);
            left.table.clear();
            left.seat.reset();
            forget_if_gone(guest);  // closed meanwhile: nothing to keep
        }
        if (then) then(e);
    });
}

namespace {
/// One table counted in a WaitingTables before its create is written. It is counted out again
/// when the table is not made: on a write error, and also when the host goes before the write's
/// answer comes (that answer, which holds this, is then dropped without running).
class WaitingReservation {
public:
    WaitingReservation(std::shared_ptr<WaitingTables> count, std::string guest, std::string address)
        : count_(std::move(count)), guest_(std::move(guest)), address_(std::move(address)) {}
    ~WaitingReservation() { give_back(); }
    WaitingReservation(const WaitingReservation&) = delete;
    WaitingReservation& operator=(const WaitingReservation&) = delete;
    /// The table was made: its entry counts it from now on (Hosted::counted_waiting).
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

void TableHost::create(const std::string& guest, const std::string& address, const CreateRequest& cr, Answer done) {
    TableSettings settings = cr.settings;
    if (static_cast<int>(tables_.size()) >= config_.max_tables) return done(refused(to_string(ProtocolError::too_many_tables)));
    // Counted before the write, so that two creates in flight cannot both pass.
    if (!waiting_tables_->reserve(guest, address, config_.max_waiting_tables_per_guest, config_.max_waiting_tables_per_address))
        return done(refused(to_string(ProtocolError::too_many_waiting_tables), "start or leave your waiting table first"));
    auto reserved = std::make_shared<WaitingReservation>(waiting_tables_, guest, address);
    settings.code.clear();
    settings.code_hash.clear();
    settings.bracket_tiebreak = false;  // only a tournament's tables (hall_tournament.cpp)
    if (settings.is_private) {
        settings.code = secure_random_string(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
        settings.code_hash = hash_token(settings.code);  // the database keeps only this
    }
    auto tid = std::make_shared<std::string>();
    auto fence = std::make_shared<std::int64_t>(0);
    front_.on_writer("create",
                     [s = settings_json(settings), tid, fence, this](Storage& st) {
                         *tid = st.create_table(s);
                         *fence = front_.take(st, *tid);  // a cluster node: its lease and fence first
                     },
                     [this, done = std::move(done), settings, tid, fence, guest, address, reserved](const std::optional<StorageError>& e) {
                         if (e) {
                             reserved->give_back();
                             return done(storage_error_json(*e));
                         }
                         reserved->keep();
                         Hosted entry;
                         entry.table = std::make_unique<Table>(*tid, settings, config_.timing, bots_);
                         entry.creator = guest;
                         entry.creator_address = address;
                         entry.counted_waiting = true;
                         entry.fence = *fence;
                         add(*tid, std::move(entry));
                         front_.lobby_changed();
                         done(created_json(*tid, settings.is_private ? std::optional<std::string>(settings.code) : std::nullopt));
                     });
}

void TableHost::on_join(const std::string& guest, const JoinRequest& j, const TableRequest& r, Answer done) {
    Guest& g = guests_[guest];
    const std::string tid = j.table;
    Hosted* t = find(tid);
    if (!t) return done(refused(to_string(ProtocolError::no_such_table)));
    if (t->table->settings().is_private) {
        // Past its free wrong codes a table's joins are spaced (whoever sends them): guessing
        // is slow, and a friend with the right code waits 30 s at most.
        if (!j.code) return done(refused(to_string(ProtocolError::bad_code)));
        if (const Millis wait = code_failures_.wait_ms(tid, front_.now()); wait > 0)
            return done(refused(kTooManyAttempts, "too many wrong codes for this table; try again in " +
                                                      std::to_string((wait + 999) / 1000) + " s"));
        const TableSettings& ts = t->table->settings();
        const bool good = ts.code_hash.empty() ? *j.code == ts.code : hash_token(*j.code) == ts.code_hash;
        if (!good) {
            code_failures_.failed(tid, front_.now());
            return done(refused(to_string(ProtocolError::bad_code)));
        }
    }
    if (t->busy) return park(*t, guest, r, std::move(done));
    if (Hosted* old = g.table.empty() || g.table == tid ? nullptr : find(g.table); old && old->busy)
        return park(*old, guest, r, std::move(done));
    // Leave the other table first (a journal write when seated there), then this join again.
    // Each write comes before its change, so when the database fails the guest is at one table
    // or at none.
    auto leave_first = [&] {
        leave_table(guest, [this, guest, r, done](const std::optional<StorageError>& e) {
            if (e) return done(storage_error_json(*e));
            request(guest, r, done);
        });
    };
    if (j.sit) {
        if (!j.seat) return done(refused(to_string(ProtocolError::bad_seat)));
        const Seat s = *j.seat;
        if (auto why = front_.refuses(tid, "join", index(s), guest)) return done(refused(*why, std::string(tournament_error_text(*why))));
        const bool here = g.table == tid;
        if (here && g.seat == s) return done(ok_json());
        auto change = t->table->prepare_sit(s, guest);
        if (!change.ok()) return done(refused(to_string(*change.error)));
        if (!here && !g.table.empty()) return leave_first();
        change_table(tid, std::move(change), [this, done, guest, tid, here, s](const std::optional<StorageError>& e) {
            if (e) return done(storage_error_json(*e));
            Guest& sat = guests_[guest];
            Hosted* at = find(tid);
            if (here && !sat.seat) --at->spectators;
            sat.table = tid;
            sat.seat = s;
            at->watchers.insert(guest);
            // Closed while the write was in flight: the grace period starts now.
            if (!sat.present) at->table->disconnected(guest, front_.now());
            done(ok_json());
            if (!here) send_chat_history(guest, *at);
        });
        return;
    }
    // Watch as a spectator.
    if (g.table == tid && !g.seat) return done(ok_json());
    if (g.table == tid) {
        // From a seat of this table to watching it: the guest stays at the table, so it must
        // not be left on the way (a table with no human and no watcher is closed).
        auto change = t->table->prepare_leave(guest);
        if (!change.ok()) return done(refused(to_string(*change.error)));
        change_table(tid, std::move(change), [this, done, guest, tid](const std::optional<StorageError>& e) {
            if (e) return done(storage_error_json(*e));
            guests_[guest].seat.reset();
            ++find(tid)->spectators;
            done(ok_json());
        });
        return;
    }
    if (!g.table.empty()) return leave_first();
    g.table = tid;
    g.seat.reset();
    t->watchers.insert(guest);
    ++t->spectators;
    done(ok_json());
    send_table(guest, *t);
    send_chat_history(guest, *t);
}

void TableHost::on_leave(const std::string& guest, const TableRequest& r, Answer done) {
    Guest& g = guests_[guest];
    if (g.table.empty()) return done(refused(to_string(ProtocolError::not_at_table)));
    if (Hosted* t = find(g.table); t && t->busy) return park(*t, guest, r, std::move(done));
    leave_table(guest, [done = std::move(done)](const std::optional<StorageError>& e) {
        done(e ? storage_error_json(*e) : ok_json());
    });
}

void TableHost::on_seat_request(const std::string& guest, const TableRequest& request, Answer done) {
    const std::string_view type = request_type(request);
    Guest& g = guests_[guest];
    Hosted* t = g.table.empty() ? nullptr : find(g.table);
    if (!t) return done(refused(to_string(ProtocolError::not_at_table)));
    if (!g.seat) return done(refused(to_string(type == "act" ? ProtocolError::spectator : ProtocolError::not_seated)));
    if (t->busy) return park(*t, guest, request, std::move(done));
    const std::string tid = g.table;
    if (type != "act")
        if (auto why = front_.refuses(tid, type, std::nullopt, guest)) return done(refused(*why, std::string(tournament_error_text(*why))));
    const auto t0 = std::chrono::steady_clock::now();
    Change change;
    std::shared_ptr<bots::Bot> engine;  // remove_bot of an outside engine: let go on a worker
    std::vector<MatchRow> pending;
    if (std::holds_alternative<StartRequest>(request)) {
        if (playing_from(t->creator_address) >= config_.max_playing_tables_per_address)
            return done(refused(to_string(ProtocolError::too_many_tables),
                                "this address has " + std::to_string(config_.max_playing_tables_per_address) + " tables playing already"));
        // A quick-play table waiting for people starts now, its empty seats given bots.
        const bool fill = t->table->settings().quick && t->table->state() == TableState::waiting;
        change = fill ? t->table->prepare_fill([this] { return front_.next_seed(); })
                      : t->table->prepare_start(front_.next_seed(), front_.next_seed());
        // The journal of a finished match is dropped by the start: its record is stored first.
        for (const auto& row : pending_matches_)
            if (row.table == tid) pending.push_back(row);
    } else if (const auto* act = std::get_if<ActRequest>(&request)) {
        if (!act->version) return done(refused(to_string(ProtocolError::bad_message), "act needs a version"));
        if (!act->action) return done(refused(to_string(ProtocolError::bad_action)));
        change = t->table->prepare_act(*g.seat, *act->action, *act->version, [this] { return front_.next_seed(); });
        if (change.error == Refusal{ProtocolError::stale})
            return done(refused(to_string(*change.error), "table is at version " + std::to_string(t->table->version())));
    } else if (const auto* add = std::get_if<AddBotRequest>(&request)) {
        if (!add->seat) return done(refused(to_string(ProtocolError::bad_seat)));
        const std::string kind = add->bot.value_or(config_.default_bot);
        change = t->table->prepare_add_bot(*add->seat, kind, front_.next_seed());
        // An outside engine's seat is counted before its write (two in flight cannot both pass),
        // and counted out again by count_engines if the write fails.
        if (change.ok() && is_engine(kind)) {
            if (!engines_.reserve(t->creator_address))
                return done(refused(to_string(ProtocolError::engine_budget), engine_budget_text(engines_)));
            t->engine_seats[index(*add->seat)] = true;
        }
    } else {
        const auto& remove = std::get<RemoveBotRequest>(request);
        if (!remove.seat) return done(refused(to_string(ProtocolError::bad_seat)));
        change = t->table->prepare_remove_bot(*remove.seat);
        // An outside engine ends in its own time (its quit grace, then its guard): the table's
        // last hold on it goes with the change, and this one is let go on a worker afterwards.
        if (t->engine_seats[index(*remove.seat)]) engine = t->table->seat_bot(*remove.seat);
    }
    if (!change.ok()) return done(refused(to_string(*change.error)));
    if (!pending.empty()) {
        // Stored before the start's rewrite (the writer runs in order); a failure refuses the start.
        front_.on_writer("store_match", [pending](Storage& s) {
                             for (const auto& row : pending) s.store_match(row);
                         },
                         [this, guest, tid, request, done = std::move(done)](const std::optional<StorageError>& e) {
                             if (e) return done(storage_error_json(*e));
                             std::erase_if(pending_matches_, [&](const MatchRow& row) { return row.table == tid; });
                             this->request(guest, request, done);
                         });
        return;
    }
    const bool is_act = std::holds_alternative<ActRequest>(request);
    change_table(tid, std::move(change), [this, done = std::move(done), tid, is_act, t0,
                                          engine = std::move(engine)](const std::optional<StorageError>& e) mutable {
        if (engine) thinkers_->submit([engine = std::move(engine)]() mutable { engine.reset(); });
        if (e) return done(storage_error_json(*e));
        if (!is_act) return done(ok_json());
        done(ok_json(find(tid)->table->version()));
        front_.acted(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    });
}

void TableHost::on_hint(const std::string& guest, Answer done) {
    Guest& g = guests_[guest];
    Hosted* t = g.table.empty() ? nullptr : find(g.table);
    if (!t) return done(refused(to_string(ProtocolError::not_at_table)));
    if (!g.seat) return done(refused(to_string(ProtocolError::spectator)));
    // No help from the computer where the result counts (issue 27): a rated table's or a
    // tournament's match. Casual and offline play keep hints.
    if (t->table->rated() || front_.holds(g.table))
        return done(refused(kHintsOff, "hints are off at rated and tournament tables"));
    const Match& match = t->table->match();
    if (t->table->state() != TableState::playing || !match.has_round() || match.round().over())
        return done(refused(to_string(ErrorCode::no_deal)));
    if (match.round().to_act() != *g.seat) return done(refused(to_string(ErrorCode::out_of_turn)));
    // One hint at a time per guest: the bot threads are shared by every table.
    if (g.hinting) return done(refused(to_string(ProtocolError::rate_limited), "a hint is already on its way"));
    std::shared_ptr<bots::Bot> bot = bots_("heuristic", secure_random_u64());
    if (!bot) return done(refused(to_string(ProtocolError::unknown_bot)));
    g.hinting = true;
    ++outstanding_;
    const std::uint64_t version = t->table->version();
    auto alive = std::weak_ptr<bool>(alive_);
    // The seat's own view: the hint knows what the player knows, no hidden card.
    const bool queued = thinkers_->submit([this, alive, guest, done, version, bot, view = SeatView::of(match, *g.seat)]() mutable {
        const Action a = bots::decide_or_default(*bot, view);
        bot.reset();
        post_([this, alive, guest, done, version, a] {
            if (alive.expired()) return;
            --outstanding_;
            if (auto it = guests_.find(guest); it != guests_.end()) it->second.hinting = false;
            done(hint_json(a, version));
            front_.settle();
        });
    });
    if (!queued) {
        --outstanding_;
        g.hinting = false;
        done(refused(to_string(ProtocolError::rate_limited), "the server is stopping"));
    }
}

}  // namespace tarneeb::server
