#include "tarneeb/core/simulate.hpp"

namespace tarneeb {

Action random_action(const Round& round, Rng& rng) {
    if (round.phase() == Phase::play) {
        const CardSet legal = round.legal_cards();
        return Action::play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))));
    }
    const ActionList legal = round.legal_actions();
    return legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))];
}

Round play_random_round(const Rules& rules, Seat dealer, Rng& rng) {
    Round round(rules, dealer, deal_hands(shuffled_deck(rng), dealer));
    while (!round.over()) round.apply(random_action(round, rng));
    return round;
}

Match play_random_match(const Rules& rules, Seat first_dealer, std::uint64_t seed) {
    Match match(rules, first_dealer);
    Rng rng(derive_seed(seed, 0xA11CE));
    while (!match.over()) {
        if (match.awaiting_deal()) {
            deal_next_from_seed(match, seed);
            continue;
        }
        match.apply(random_action(match.round(), rng));
    }
    return match;
}

}  // namespace tarneeb
