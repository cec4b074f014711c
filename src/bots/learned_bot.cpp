// The learned card player (include/tarneeb/bots/learned_bot.hpp).
#include "tarneeb/bots/learned_bot.hpp"

namespace tarneeb::bots {

Action LearnedBot::decide_card(const SeatView& view) {
    const Card heuristic = heuristic_card(view).card;
    return Action::play(policy_card(view, heuristic, nets_, margin_));
}

}  // namespace tarneeb::bots
