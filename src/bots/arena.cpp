#include "tarneeb/bots/arena.hpp"

#include <chrono>

#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

Action play_one_action(Match& match, const Table& table, ArenaStats* stats, const DecisionTimer* timer) {
    const Seat actor = match.round().to_act();
    const SeatView view = SeatView::of(match, actor);
    Action a{};
    if (timer) {
        const auto t0 = std::chrono::steady_clock::now();
        a = table[index(actor)]->decide(view);
        const auto t1 = std::chrono::steady_clock::now();
        (*timer)(actor, static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    } else {
        a = table[index(actor)]->decide(view);
    }
    if (stats) ++stats->decisions;
    if (match.round().check(a) != ErrorCode::ok) {
        if (stats) ++stats->illegal_actions;
        a = match.round().default_action();
    }
    match.apply(a);
    for (Seat s : kSeats) table[index(s)]->observe(SeatView::of(match, s), actor, a);
    return a;
}

void play_round(Match& match, const Table& table, ArenaStats* stats, const DecisionTimer* timer) {
    while (!match.round().over()) play_one_action(match, table, stats, timer);
}

Match play_match(const Rules& rules, Seat first_dealer, std::uint64_t seed, const Table& table,
                 ArenaStats* stats, const DecisionTimer* timer) {
    Match match(rules, first_dealer);
    while (!match.over()) {
        deal_next_from_seed(match, seed);
        play_round(match, table, stats, timer);
    }
    return match;
}

Match play_deal(const Rules& rules, Seat dealer, const Hands& hands, const Table& table, ArenaStats* stats,
                const DecisionTimer* timer) {
    Match match(rules, dealer);
    match.start_round(hands);
    play_round(match, table, stats, timer);
    return match;
}

}  // namespace tarneeb::bots
