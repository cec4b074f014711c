// The one loop for players (include/tarneeb/bots/loop.hpp) and the one phase dispatch.
#include "tarneeb/bots/loop.hpp"

#include <chrono>
#include <exception>

#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

Action Bot::decide(const SeatView& view) {
    switch (view.phase()) {
        case Phase::auction: return decide_call(view);
        case Phase::trump: return decide_trump(view);
        default: return decide_card(view);
    }
}

Action decide_or_default(Bot& bot, const SeatView& view, bool* replaced) {
    bool bad = false;
    Action a{};
    try {
        a = bot.decide(view);
        bad = view.check(a) != ErrorCode::ok;
    } catch (const std::exception&) {
        bad = true;  // a player that fails plays the default action, as one whose time ran out
    }
    if (replaced) *replaced = bad;
    return bad ? view.default_action() : a;
}

std::optional<Action> play_turn(Match& match, const Lineup& lineup, const LoopHooks& hooks) {
    const Seat actor = match.round().to_act();
    const SeatView view = SeatView::of(match, actor);
    Bot& player = *lineup[actor];
    bool replaced = false;
    Action a{};
    if (hooks.timer) {
        const auto t0 = std::chrono::steady_clock::now();
        a = decide_or_default(player, view, &replaced);
        const auto t1 = std::chrono::steady_clock::now();
        (*hooks.timer)(actor, static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    } else {
        a = decide_or_default(player, view, &replaced);
    }
    if (hooks.stats) {
        ++hooks.stats->decisions;
        if (replaced) ++hooks.stats->illegal_actions;
    }
    if (hooks.stop && hooks.stop()) return std::nullopt;
    match.apply(a);
    for (Seat s : kSeats) lineup[s]->observe(SeatView::of(match, s), actor, a);
    if (hooks.observe) hooks.observe(match, actor, a);
    return a;
}

bool play_round(Match& match, const Lineup& lineup, const LoopHooks& hooks) {
    while (!match.round().over())
        if (!play_turn(match, lineup, hooks)) return false;
    return true;
}

bool play_on(Match& match, std::uint64_t seed, const Lineup& lineup, const LoopHooks& hooks) {
    while (!match.over()) {
        if (match.awaiting_deal()) {
            deal_next_from_seed(match, seed);
            if (hooks.dealt) hooks.dealt(match);
        }
        if (!play_round(match, lineup, hooks)) return false;
    }
    return true;
}

}  // namespace tarneeb::bots
