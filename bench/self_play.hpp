// self_play.hpp: deal k of seed S (deal_options.hpp: the deals of `tarneeb simulate --duplicate
// --seed S`, table a) played by four heuristics, for the benchmarks that value its positions
// one by one (card_costs, decision_costs).
#pragma once

#include <cstdint>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::bench {

/// The round of deal `k` of seed `seed` as four heuristics with `params` play it under `rules`
/// (passed out, or played to the end).
inline Round heuristic_self_play(const Rules& rules, std::uint64_t seed, int k, const bots::HeuristicParams& params = {}) {
    const Seat dealer = seat(k);
    const Hands hands = deal_from_seed(derive_seed(seed, static_cast<std::uint64_t>(k)), dealer);
    bots::HeuristicBot b0(0, params), b1(0, params), b2(0, params), b3(0, params);
    return bots::play_deal(rules, dealer, hands, bots::Lineup{&b0, &b1, &b2, &b3}).rounds().front();
}

}  // namespace tarneeb::bench
