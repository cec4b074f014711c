#include "tarneeb/core/simulate.hpp"

namespace tarneeb {

namespace {

/// A uniformly random legal card (phase play).
inline Action random_card(const Round& round, Rng& rng) {
    const CardSet legal = round.legal_cards();
    return Action::play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))));
}

}  // namespace

Action random_action(const Round& round, Rng& rng) {
    if (round.phase() == Phase::play) return random_card(round, rng);
    // Without building the action list, the same choice as picking among legal_actions():
    // in the auction a pass, then the bids from lowest_bid() up; naming trump, the four suits.
    if (round.phase() == Phase::trump) return Action::name_trump(kSuits[rng.below(4)]);
    const auto low = round.lowest_bid();
    const int bids = low ? round.rules().max_bid - *low + 1 : 0;
    const int k = static_cast<int>(rng.below(static_cast<std::uint64_t>(1 + bids)));
    return k == 0 ? Action::pass() : Action::bid(*low + k - 1);
}

Round play_random_round(const Rules& rules, Seat dealer, Rng& rng) {
    Round round(rules, dealer, deal_hands(shuffled_deck(rng), dealer));
    while (round.phase() == Phase::auction || round.phase() == Phase::trump) round.apply(random_action(round, rng));
    // The play: 52 cards, with the generator in a local (registers, not memory).
    Rng local = rng;
    round.play_out([&local](CardSet legal) { return legal.nth(static_cast<int>(local.below(static_cast<std::uint64_t>(legal.size())))); });
    rng = local;
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
