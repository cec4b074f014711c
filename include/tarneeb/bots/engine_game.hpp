// The engine's side of the engine protocol's game lines (docs/engine-protocol.md "Match, deal
// and actions"): EngineGame reads the lines an EngineFeed wrote (engine_feed.hpp) back into the
// seat's SeatView, which `tarneeb engine --bot NAME` hands to a registered bot
// (engine_adapter.hpp).
//
// Hidden information: EngineGame rebuilds a Round that replays the history (the cards of the
// other seats filled in consistently with the plays and the suits they showed out of) and hands
// out only SeatView(round, seat): equal to the host's view of the same seat
// (tests/bots/engine_protocol_test.cpp).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// The game as an engine rebuilds it from the host's lines: newmatch, deal and every event.
/// view() is then exactly the host's SeatView of this seat (same knowledge: equal views).
class EngineGame {
public:
    /// Applies one host line of the game (newmatch, deal, call, passout, contract, trump, play,
    /// trick, score). nullopt when applied; otherwise why not (an unknown keyword, a malformed
    /// line, or an action the round refuses: the host and the engine disagree), and the game is
    /// unchanged. The summary lines (passout, contract, trick, score) are checked against the
    /// round; score also sets the match totals.
    std::optional<std::string> apply(std::string_view line);

    /// True once a newmatch was read.
    bool has_match() const { return match_; }
    /// True once a deal was given (and until the next newmatch).
    bool has_deal() const { return deal_; }
    /// This seat (newmatch's `seat`) and the match's rules (newmatch's keys over its preset).
    Seat seat() const { return seat_; }
    const Rules& rules() const { return rules_; }
    /// The totals as the host last told them (newmatch's, then each score's), by team.
    std::array<int, 2> totals() const { return totals_; }
    /// The seat's view now. Precondition: has_deal().
    SeatView view() const;
    /// The action the last apply() added (a call, trump or play line) and its seat; nullopt
    /// after any other line.
    std::optional<std::pair<Seat, Action>> last_action() const { return last_action_; }

private:
    using Words = std::vector<std::string_view>;
    // One handler per kind of line (apply() dispatches by the first word); each returns why
    // it refused the line, and then changed nothing.
    std::optional<std::string> on_newmatch(const Words& w);
    std::optional<std::string> on_deal(const Words& w);
    std::optional<std::string> on_action(const Words& w);  ///< call, trump, play
    std::optional<std::string> on_passout(const Words& w);
    std::optional<std::string> on_contract(const Words& w);
    std::optional<std::string> on_trick(const Words& w);
    std::optional<std::string> on_score(const Words& w);
    std::optional<std::string> on_play(Seat by, Card c);
    /// Rebuilds round_ with the other seats' hands filled in so that every play so far and
    /// `extra` (by `extra_by`) replays; false if no deal fits (the host lied).
    bool rebuild(Seat extra_by, Card extra);

    bool match_ = false;
    bool deal_ = false;
    Seat seat_ = Seat::s0;
    Rules rules_{};
    std::array<int, 2> totals_{};
    std::array<int, 2> deal_start_{};  ///< the totals when this deal began
    Seat dealer_ = Seat::s0;
    CardSet hand_{};
    std::vector<Action> history_;  ///< every action of the deal, in order
    Round round_;
    std::optional<std::pair<Seat, Action>> last_action_;
};

}  // namespace tarneeb::bots
