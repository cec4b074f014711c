// The table host, running tables: each change's table message fanned out to every player and
// spectator (each built from that recipient's seat: TableMessage, sent by the front), the timers
// (due tables from the wakeup heap, bots and turn clocks through advance) and the once-a-second
// sweep of abandoned tables (include/tarneeb/server/table_host.hpp says what the host is).
#include <algorithm>
#include <chrono>

#include "tarneeb/server/table_host.hpp"

namespace tarneeb::server {

using nlohmann::json;

void TableHost::send_table(const std::string& guest, Hosted& t) {
    auto g = guests_.find(guest);
    if (g == guests_.end() || !g->second.present) return;
    const TableMessage message(*t.table, t.spectators, {}, front_.now(), &t.history);
    front_.deliver(guest, g->second.seat, is_creator(t, guest), message, t.table->id() + "@" + t.history.key());
}

void TableHost::publish(Hosted& t) {
    if (t.table->state() != TableState::waiting) uncount_waiting(t);  // it started
    if (!t.table->settings().is_private) front_.lobby_changed();  // seats, state, spectators... may have changed
    const auto events = t.table->take_events();
    if (auto f = t.table->take_finished()) {
        attach_chat(*f, t);  // the match's chat lines, under the record's "chat" (table_host_chat.cpp)
        store_finished(*f, *t.table);
    }
    // One message per change, serialised once; each connection gets its seat's version of it.
    const TableMessage message(*t.table, t.spectators, events, front_.now(), &t.history);
    const std::string history_key = t.table->id() + "@" + t.history.key();
    for (const auto& name : t.watchers) {
        auto g = guests_.find(name);
        if (g == guests_.end() || !g->second.present) continue;
        front_.deliver(name, g->second.seat, is_creator(t, name), message, history_key);
    }
}

void TableHost::sweep(Millis now) {
    last_sweep_ = now;
    for (auto a = chat_by_address_.begin(); a != chat_by_address_.end();)  // idle addresses' chat rates
        a = a->second.idle(now) ? chat_by_address_.erase(a) : std::next(a);
    std::vector<std::string> gone;
    for (auto& [tid, t] : tables_) {
        bool watched = false;
        for (const auto& name : t.watchers) {
            auto g = guests_.find(name);
            watched |= g != guests_.end() && g->second.present;
        }
        if (t.busy || !t.parked.empty() || t.table->state() == TableState::playing || t.table->humans_connected() || watched ||
            front_.holds(tid)) {
            t.abandoned_since.reset();
        } else if (!t.abandoned_since) {
            t.abandoned_since = now;
        } else if (now - *t.abandoned_since >= config_.timing.grace_ms) {
            gone.push_back(tid);
        }
    }
    // Playing with nobody connected (every person's seat held or played by a stand-in): closed
    // after unattended_ms, its match stored as abandoned.
    for (auto& [tid, t] : tables_) {
        if (t.busy || t.table->state() != TableState::playing || t.table->humans_connected() || front_.holds(tid)) {
            t.unattended_since.reset();
        } else if (!t.unattended_since) {
            t.unattended_since = now;
        } else if (now - *t.unattended_since >= config_.unattended_ms) {
            gone.push_back(tid);
        }
    }
    for (const auto& tid : gone) close_now(tid);
    std::erase_if(guests_, [](const auto& g) { return !g.second.present && g.second.table.empty(); });
    if (!pending_matches_.empty()) {
        auto rows = std::exchange(pending_matches_, {});
        for (auto& row : rows) store_match(std::move(row));
    }
}

int TableHost::playing_from(const std::string& address) const {
    if (address.empty()) return 0;
    int n = 0;
    for (const auto& [tid, t] : tables_) n += t.creator_address == address && t.table->state() == TableState::playing;
    return n;
}

void TableHost::tick(Millis now) {
        if (now - last_sweep_ >= 1000) sweep(now);
    for (const auto& tid : due_tables(now)) {
        Hosted* t = find(tid);
        if (!t) continue;
        t->due_failed = false;
        t->table->tick(now);  // stand-ins after the grace period (not journaled)
        if (t->table->has_events()) publish(*t);
        advance(tid);
    }
}

void TableHost::touch(const std::string& tid, Hosted& t) {
    if (t.touched) return;
    t.touched = true;
    touched_.push_back(tid);
}

std::vector<std::string> TableHost::due_tables(Millis now) {
    std::vector<std::string> due;
    auto queue = [this](const std::string& tid, Hosted& t, std::optional<Millis> w) {
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
        Hosted& t = it->second;
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

std::optional<Millis> TableHost::next_wakeup() const {
    std::optional<Millis> w;
    for (const auto& [tid, t] : tables_) {
        const auto x = t.table->next_wakeup();
        if (x && (!w || *x < *w)) w = x;
    }
    return w;
}

}  // namespace tarneeb::server
