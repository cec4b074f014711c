// The `cheater` test bot (issue 27, docs/fairplay.md): a player that sees every hand. It bids
// and names trump as the heuristic does and plays, at every card, a double-dummy best card of
// the real deal (DDS on the full position; among equal cards the first in card order).
//
// It exists to test the fair-play report, and it breaks the one rule every other player keeps
// (docs/architecture.md "Hidden information": a player gets only its SeatView). So the break
// is as narrow as it can be: the bot reads the deal from the Match it plays in, a reference
// given to its constructor by whoever owns that match (a test, `tarneeb simulate`); nothing
// passes a Match to any other bot, and the registry cannot make it from a name alone
// (BotInfo::make is empty for it: make_bot("cheater") is nullptr, so the server's add_bot,
// `tarneeb play` and `tarneeb engine` refuse it).
#pragma once

#include <cstdint>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/core/match.hpp"

namespace tarneeb::bots {

class CheaterBot final : public Bot {
public:
    /// `match` must outlive the bot; the bot reads its current round at each card decision.
    CheaterBot(std::uint64_t seed, const Match& match) : heuristic_(seed), match_(match) {}
    std::string_view name() const override { return "cheater"; }
    Action decide_call(const SeatView& view) override { return heuristic_.decide_call(view); }
    Action decide_trump(const SeatView& view) override { return heuristic_.decide_trump(view); }
    /// A double-dummy best card of match.round() (the heuristic's card if the match's round is
    /// not this view's position or the solver fails). Leases a DDS thread index for the call
    /// only (solver.hpp), so cheaters at several seats never hold all indices between calls.
    Action decide_card(const SeatView& view) override;

private:
    HeuristicBot heuristic_;
    const Match& match_;
};

}  // namespace tarneeb::bots
