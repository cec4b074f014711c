// Table (table.hpp): its clock and its people's presence. When the next turn is due (a bot's
// delay, a person's turn time, a quick-play table's fill), which bot thinks next and what it
// decided, a seat's player connecting (a reclaim) and disconnecting (the grace, then a
// stand-in). The changes a request makes and their journal entries are in table.cpp.
#include <algorithm>

#include "tarneeb/core/random.hpp"
#include "tarneeb/room/table.hpp"

namespace tarneeb::server {

Table::TurnKey Table::turn_key() const {
    return {match_number_, match_.rounds().size(), actions_applied_};
}

void Table::schedule(Millis now) {
    turn_deadline_.reset();
    bot_due_.reset();
    if (turn_key() != offered_key_) drop_decision();  // a new turn: an earlier decision is void
    if (summary_until_ && now >= *summary_until_) summary_until_.reset();
    // A quick-play table waits quick_fill_ms from its first person's sitting down.
    if (settings_.quick && state_ == TableState::waiting &&
        std::any_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; })) {
        if (!fill_at_) fill_at_ = now + timing_.quick_fill_ms;
    } else {
        fill_at_.reset();
    }
    if (state_ != TableState::playing || !match_.has_round() || match_.round().over()) return;
    // A turn during the round summary starts when the summary ends (TableTiming::summary_ms).
    const Millis start = summary_until_ ? *summary_until_ : now;
    const Seat s = match_.round().to_act();
    if (bot_controlled(s)) {
        bot_due_ = start + timing_.bot_delay_ms;
    } else if (settings_.turn_seconds > 0) {
        turn_deadline_ = start + Millis{settings_.turn_seconds} * 1000;
    }
}

void Table::drop_decision() {
    offered_ = 0;
    bot_decision_.reset();
}

std::optional<BotTurn> Table::bot_turn() {
    // One bot of a table thinks at a time (a bot is never used by two threads), once per turn.
    if (!bot_due_ || offered_ != 0 || thinking_ != 0 || state_ != TableState::playing || !match_.has_round() ||
        match_.round().over())
        return std::nullopt;
    const Seat s = match_.round().to_act();
    auto& h = seats_[s];
    if (!bot_controlled(s)) return std::nullopt;
    offered_ = ++requests_made_;
    offered_key_ = turn_key();
    if (!h.bot) {
        // No bot could be made (unknown stand-in name): the rules' default action.
        bot_decision_ = match_.round().default_action();
        return std::nullopt;
    }
    thinking_ = offered_;
    return BotTurn{offered_, s, SeatView::of(match_, s), h.bot};
}

void Table::decided(std::uint64_t request, Action action) {
    if (request == 0) return;
    if (request == thinking_) thinking_ = 0;
    if (request == offered_ && offered_key_ == turn_key()) bot_decision_ = action;
}

void Table::connected(const std::string& name, Millis now) {
    const auto seat = seat_of(name);
    if (!seat) return;
    auto& h = seats_[*seat];
    const bool was_away = !h.connected;
    h.connected = true;
    h.disconnected_since.reset();
    if (h.standin) {
        // Reclaim: the player makes the seat's next decision.
        h.standin = false;
        h.bot.reset();
        if (state_ == TableState::playing && match_.has_round() && !match_.round().over() && match_.round().to_act() == *seat)
            drop_decision();  // the stand-in's decision, if it comes, is the player's no more
        events_.push_back(event::Reclaimed{*seat});
        if (state_ == TableState::playing && match_.has_round() && !match_.round().over() && match_.round().to_act() == *seat)
            schedule(now);
    } else if (was_away && state_ == TableState::playing) {
        events_.push_back(event::Reclaimed{*seat});
    }
}

void Table::disconnected(const std::string& name, Millis now) {
    const auto seat = seat_of(name);
    if (!seat) return;
    auto& h = seats_[*seat];
    h.connected = false;
    if (state_ == TableState::playing && !h.standin) {
        h.disconnected_since = now;
        events_.push_back(event::Disconnected{*seat});
    }
}

std::optional<Millis> Table::next_wakeup() const {
    std::optional<Millis> t = turn_deadline_;
    if (fill_at_ && (!t || *fill_at_ < *t)) t = fill_at_;
    if (bot_due_ && (!t || *bot_due_ < *t)) t = bot_due_;
    if (state_ == TableState::playing)
        for (const auto& h : seats_)
            if (h.kind == SeatHolder::Kind::human && !h.standin && h.disconnected_since) {
                const Millis g = *h.disconnected_since + timing_.grace_ms;
                if (!t || g < *t) t = g;
            }
    return t;
}

void Table::tick(Millis now) {
    if (state_ != TableState::playing) return;
    for (Seat s : kSeats) {
        auto& h = seats_[s];
        if (h.kind == SeatHolder::Kind::human && !h.standin && h.disconnected_since &&
            now >= *h.disconnected_since + timing_.grace_ms) {
            h.standin = true;
            h.disconnected_since.reset();
            h.bot = make_bot_ ? std::shared_ptr<bots::Bot>(make_bot_(timing_.standin_bot, derive_seed(match_seed_, 200 + static_cast<std::uint64_t>(index(s)))))
                              : nullptr;
            events_.push_back(event::BotTookOver{s});
            if (match_.has_round() && !match_.round().over() && match_.round().to_act() == s) schedule(now);
        }
    }
}

}  // namespace tarneeb::server
