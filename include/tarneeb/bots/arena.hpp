// Matches and deals between bots, played by the one loop (loop.hpp). Used by `tarneeb
// simulate`, the benchmarks and the tests.
#pragma once

#include <cstdint>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/core/match.hpp"

namespace tarneeb::bots {

/// Plays a whole match: deal k comes from deal_next_from_seed(match, seed).
Match play_match(const Rules& rules, Seat first_dealer, std::uint64_t seed, const Lineup& lineup,
                 LoopStats* stats = nullptr, const DecisionTimer* timer = nullptr);

/// Plays one deal as a one-round match (for duplicate play): `hands` dealt by `dealer`.
/// The result is in_progress as a match (a single round is not a match) but its round() is
/// over and its record replays cleanly.
Match play_deal(const Rules& rules, Seat dealer, const Hands& hands, const Lineup& lineup,
                LoopStats* stats = nullptr, const DecisionTimer* timer = nullptr);

}  // namespace tarneeb::bots
