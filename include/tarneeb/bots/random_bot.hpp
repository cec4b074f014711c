// The `random` bot: a uniformly random legal action (call, trump or card) at every turn.
//
// Its only state is an Rng seeded at construction, so the same seed and the same sequence of
// views give the same decisions. It is the baseline every other bot is measured against.
#pragma once

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

class RandomBot final : public Bot {
public:
    explicit RandomBot(std::uint64_t seed) : rng_(seed) {}
    std::string_view name() const override { return "random"; }
    /// Uniform over view.legal_actions() (pass and every legal bid).
    Action decide_call(const SeatView& view) override;
    /// Uniform over the four suits.
    Action decide_trump(const SeatView& view) override;
    /// Uniform over view.legal_cards().
    Action decide_card(const SeatView& view) override;

private:
    Action pick(const SeatView& view);
    Rng rng_;
};

}  // namespace tarneeb::bots
