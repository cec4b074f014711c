// Random play through the engine's public API: used by the benchmarks, the `bench`
// signature, the random-simulation tests and the `random` bot's building blocks.
#pragma once

#include <cstdint>

#include "tarneeb/core/match.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb {

/// A uniformly random legal action for the seat to act (precondition: !round.over()).
Action random_action(const Round& round, Rng& rng);

/// Shuffles and deals with `rng`, then plays a uniformly random legal auction, trump and
/// 13 tricks (or stops at a pass-out). Returns the finished round.
Round play_random_round(const Rules& rules, Seat dealer, Rng& rng);

/// Plays a whole match of random legal actions from `seed` (deals from deal_next_from_seed).
Match play_random_match(const Rules& rules, Seat first_dealer, std::uint64_t seed);

}  // namespace tarneeb
