#include "tarneeb/bots/random_bot.hpp"

namespace tarneeb::bots {

Action RandomBot::pick(const SeatView& view) {
    if (view.phase() == Phase::play) {
        const CardSet legal = view.legal_cards();
        return Action::play(legal.nth(static_cast<int>(rng_.below(static_cast<std::uint64_t>(legal.size())))));
    }
    const ActionList legal = view.legal_actions();
    return legal[static_cast<int>(rng_.below(static_cast<std::uint64_t>(legal.size())))];
}

Action RandomBot::decide_call(const SeatView& view) { return pick(view); }
Action RandomBot::decide_trump(const SeatView& view) { return pick(view); }
Action RandomBot::decide_card(const SeatView& view) { return pick(view); }

}  // namespace tarneeb::bots
