// The hall, running tables: each change's table message fanned out to every player and
// spectator (each built from that recipient's seat: TableMessage), the timers (due tables from
// the wakeup heap, bots and turn clocks through advance) and the once-a-second sweep of
// abandoned tables (the hall's other roles: hall.cpp; include/tarneeb/server/hall.hpp says what
// the hall is).
#include <algorithm>
#include <chrono>

#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

using nlohmann::json;

void Hall::send_table(const std::string& name, TableEntry& t) {
    auto g = guests_.find(name);
    if (g == guests_.end() || g->second.conns.empty()) return;
    const TableMessage message(*t.table, t.spectators, {}, now_, &t.history);
    send_to_guest(name, g->second, t, message, t.table->id() + "@" + t.history.key());
}

void Hall::send_to_guest(const std::string& name, Guest& g, TableEntry& t, const TableMessage& message,
                         const std::string& history_key) {
    std::string with, without;  // each built at most once for the guest's connections
    for (ConnId c : g.conns) {
        auto conn = conns_.find(c);
        const bool has = conn != conns_.end() && conn->second.history_sent == history_key;
        std::string& text = has ? without : with;
        if (text.empty()) text = message.to(g.seat, is_creator(t, name), !has);
        if (conn != conns_.end() && !has) conn->second.history_sent = history_key;
        out_.send(c, text);
    }
}

void Hall::publish(TableEntry& t) {
    if (t.table->state() != TableState::waiting) uncount_waiting(t);  // it started
    if (!t.table->settings().is_private) lobby_changed();  // seats, state, spectators... may have changed
    const auto events = t.table->take_events();
    if (auto f = t.table->take_finished()) {
        attach_chat(*f, t);  // the match's chat lines, under the record's "chat" (hall_chat.cpp)
        store_finished(*f, *t.table);
    }
    // One message per change, serialised once; each connection gets its seat's version of it.
    const TableMessage message(*t.table, t.spectators, events, now_, &t.history);
    const std::string history_key = t.table->id() + "@" + t.history.key();
    for (const auto& name : t.watchers) {
        auto g = guests_.find(name);
        if (g == guests_.end() || g->second.conns.empty()) continue;
        send_to_guest(name, g->second, t, message, history_key);
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
        if (t.busy || !t.parked.empty() || t.table->state() == TableState::playing || t.table->humans_connected() || watched ||
            tournament_holds(tid)) {
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
        erase_table(tid);
        lobby_changed();
    }
    if (!pending_matches_.empty()) {
        auto rows = std::exchange(pending_matches_, {});
        for (auto& row : rows) store_match(std::move(row));
    }
}

void Hall::tick(Millis now) {
    now_ = std::max(now_, now);
    if (started_ == 0) started_ = now;  // a shard that resumed nothing and saw no client yet
    if (now - last_sweep_ >= 1000) sweep(now);
    for (const auto& tid : due_tables(now)) {
        TableEntry* t = find_table(tid);
        if (!t) continue;
        t->due_failed = false;
        t->table->tick(now);  // stand-ins after the grace period (not journaled)
        if (t->table->has_events()) publish(*t);
        advance(tid);
    }
    run_tournaments(now);  // hall_tournament.cpp
    push_lobby(now);
    run_pumps();
}

std::vector<std::string> Hall::due_tables(Millis now) {
    std::vector<std::string> due;
    auto queue = [this](const std::string& tid, TableEntry& t, std::optional<Millis> w) {
        if (w && w != t.queued) wakeups_.emplace(*w, tid);  // the entry of the old one is stale now
        t.queued = w;
    };
    for (const auto& tid : touched_)
        if (auto it = tables_.find(tid); it != tables_.end()) {
            it->second.touched = false;
            queue(tid, it->second, it->second.table->next_wakeup());
        }
    touched_.clear();
    std::vector<std::pair<Millis, std::string>> later;  // due but busy: looked at again next tick
    while (!wakeups_.empty() && wakeups_.top().first <= now) {
        auto [at, tid] = wakeups_.top();
        wakeups_.pop();
        auto it = tables_.find(tid);
        if (it == tables_.end() || it->second.queued != at) continue;  // gone, or stale
        TableEntry& t = it->second;
        t.queued.reset();
        const auto w = t.table->next_wakeup();
        if (!w) continue;
        if (*w > now) {
            queue(tid, t, w);
        } else if (t.busy) {
            t.queued = at;
            later.emplace_back(at, std::move(tid));
        } else {
            due.push_back(std::move(tid));
        }
    }
    for (auto& e : later) wakeups_.push(std::move(e));
    // The safety net, once a second: every table whose time came has been popped by now, so one
    // still due and not busy was changed without a touch. It runs now, and is counted.
    if (now - last_timer_check_ >= 1000) {
        last_timer_check_ = now;
        for (const auto& [tid, t] : tables_)
            if (const auto w = t.table->next_wakeup(); w && *w <= now && !t.busy && std::find(due.begin(), due.end(), tid) == due.end()) {
                ++late_wakeups_;
                due.push_back(tid);
            }
    }
    return due;
}

std::optional<Millis> Hall::next_wakeup() const {
    std::optional<Millis> w;
    for (const auto& [tid, t] : tables_) {
        const auto x = t.table->next_wakeup();
        if (x && (!w || *x < *w)) w = x;
    }
    if (lobby_changed_ && (!w || lobby_pushed_ + config_.lobby_push_ms < *w)) w = lobby_pushed_ + config_.lobby_push_ms;
    return w;
}

}  // namespace tarneeb::server
