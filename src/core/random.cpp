#include "tarneeb/core/random.hpp"

namespace tarneeb {

Deck shuffled_deck(Rng& rng) {
    Deck d;
    for (int i = 0; i < 52; ++i) d[static_cast<std::size_t>(i)] = Card::from_dense(i);
    for (std::uint64_t i = 51; i > 0; --i) {
        const std::uint64_t j = rng.below(i + 1);
        std::swap(d[i], d[j]);
    }
    return d;
}

Hands deal_hands(const Deck& deck, Seat dealer) {
    Hands hands{};
    for (int i = 0; i < 52; ++i) hands[next(dealer, 1 + i)] |= deck[static_cast<std::size_t>(i)];
    return hands;
}

Hands deal_from_seed(std::uint64_t seed, Seat dealer) {
    Rng rng(seed);
    return deal_hands(shuffled_deck(rng), dealer);
}

}  // namespace tarneeb
