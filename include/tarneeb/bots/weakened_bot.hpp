// The `easy` level (docs/bots.md "Levels"): the heuristic bot that, on a seeded share of its card
// decisions, plays a random legal card instead of its own choice.
//
// A real weaker player rather than a random one: it bids and names trump as the heuristic does
// (so its contracts are the heuristic's, which its weaker card play then fails more often), and
// most of its cards are the heuristic's. The random choice of a decision is drawn from
// Rng(derive_seed(seed, key)), where the key is made only of what the view shows (hand, cards
// played, calls), so the same seed and the same view give the same decision however often and
// in whatever order it is asked (a server that rebuilds a table, an engine behind the protocol),
// and no hidden card changes it.
#pragma once

#include <cstdint>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"

namespace tarneeb::bots {

class WeakenedBot final : public Bot {
public:
    /// `random_share`: the share of card decisions (0..1, clamped) that play a uniformly random
    /// legal card; `name`: the registry name the bot reports (e.g. "easy").
    WeakenedBot(std::uint64_t seed, double random_share, std::string_view name = "easy");
    std::string_view name() const override { return name_; }
    /// The heuristic's call.
    Action decide_call(const SeatView& view) override;
    /// The heuristic's trump.
    Action decide_trump(const SeatView& view) override;
    /// A random legal card on a seeded share of decisions, else the heuristic's card.
    Action decide_card(const SeatView& view) override;

    double random_share() const { return share_; }

private:
    std::uint64_t seed_;
    double share_;
    std::string_view name_;
    HeuristicBot heuristic_;
};

}  // namespace tarneeb::bots
