#include "tarneeb/bots/weakened_bot.hpp"

#include <algorithm>

#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

namespace {

/// A key of what `view` shows at a decision: its hand, the cards played and the calls made
/// (never another seat's unplayed cards).
std::uint64_t view_key(const SeatView& view) {
    std::uint64_t key = derive_seed(view.hand().bits(), view.played().bits());
    for (std::uint8_t call : view.calls()) key = derive_seed(key, call);
    return derive_seed(key, static_cast<std::uint64_t>(view.tricks_played()));
}

}  // namespace

WeakenedBot::WeakenedBot(std::uint64_t seed, double random_share, std::string_view name)
    : seed_(seed), share_(std::clamp(random_share, 0.0, 1.0)), name_(name), heuristic_(seed) {}

Action WeakenedBot::decide_call(const SeatView& view) { return heuristic_.decide_call(view); }

Action WeakenedBot::decide_trump(const SeatView& view) { return heuristic_.decide_trump(view); }

Action WeakenedBot::decide_card(const SeatView& view) {
    const CardSet legal = view.legal_cards();
    if (legal.size() > 1) {
        Rng rng(derive_seed(seed_, view_key(view)));
        // 2^53 steps: the share is exact to double precision.
        constexpr std::uint64_t kSteps = std::uint64_t{1} << 53;
        if (static_cast<double>(rng.below(kSteps)) < share_ * static_cast<double>(kSteps))
            return Action::play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))));
    }
    return heuristic_.decide_card(view);
}

}  // namespace tarneeb::bots
