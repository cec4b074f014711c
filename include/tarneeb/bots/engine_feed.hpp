// The host's side of the engine protocol's game lines (docs/engine-protocol.md "Match, deal and
// actions"): EngineFeed remembers what one engine has been told and writes the lines (newmatch,
// deal, call, passout, contract, trump, play, trick, score) that tell it the rest of what its
// seat sees. engine_game.hpp reads these lines back on the engine's side.
//
// Hidden information: EngineFeed reads only a SeatView, so it can write no card that the seat
// may not see (the seat's own hand, and each card once played).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// What one engine has been told, and the lines that tell it the rest (docs/engine-protocol.md
/// "Match, deal and actions"). Feed it the seat's view after every action (observe) and before
/// each request (go): sync(view) returns the lines the engine has not had yet, ending in "\n",
/// or "" when it knows everything. A new process knows nothing: reset(), and the next sync
/// tells it the match (newmatch, deal) and every action of the deal so far.
///
/// A new match is announced (newmatch) when the view cannot continue what the engine knows: no
/// match yet, another seat or other rules, a deal whose starting scores are not the totals the
/// engine was told last, or a new deal while the last one was unfinished. A new deal (deal) is
/// announced when the dealer, the dealt hand or the number of actions no longer fit the deal
/// the engine knows.
class EngineFeed {
public:
    std::string sync(const SeatView& view);
    void reset() { *this = EngineFeed(); }

private:
    void new_match(const SeatView& view, std::string& out);
    void new_deal(const SeatView& view, std::string& out);

    bool match_ = false;
    Seat seat_ = Seat::s0;
    Rules rules_{};
    std::array<int, 2> totals_{};
    bool deal_ = false;
    Seat dealer_ = Seat::s0;
    CardSet dealt_{};
    std::size_t calls_ = 0;
    bool closed_ = false;  ///< contract or passout told
    bool passed_out_ = false;
    bool trump_ = false;
    std::size_t plays_ = 0;
    bool scored_ = false;
};

}  // namespace tarneeb::bots
