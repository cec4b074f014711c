#include "tarneeb/bots/arena.hpp"

namespace tarneeb::bots {

Match play_match(const Rules& rules, Seat first_dealer, std::uint64_t seed, const Lineup& lineup, LoopStats* stats,
                 const DecisionTimer* timer) {
    Match match(rules, first_dealer);
    LoopHooks hooks;
    hooks.stats = stats;
    hooks.timer = timer;
    play_on(match, seed, lineup, hooks);
    return match;
}

Match play_deal(const Rules& rules, Seat dealer, const Hands& hands, const Lineup& lineup, LoopStats* stats,
                const DecisionTimer* timer) {
    Match match(rules, dealer);
    match.start_round(hands);
    LoopHooks hooks;
    hooks.stats = stats;
    hooks.timer = timer;
    play_round(match, lineup, hooks);
    return match;
}

}  // namespace tarneeb::bots
