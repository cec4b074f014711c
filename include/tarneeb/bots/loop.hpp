// The one loop for players: ask the seat to act, check its answer, fall back to the default
// action (rules.md "Turn timer"), apply it, tell every seat and the observers. A bot and a
// person at a terminal (`tarneeb play`) are players of this loop; arena.hpp plays whole
// matches and deals of bots with it; decide_or_default is its check-and-fallback step for
// callers that run their own table (the server's bot workers).
//
// Every player receives only SeatView::of(match, its seat) (hidden information stays hidden).
// A player's answer that the round does not accept (or a bot that throws) is replaced by the
// round's default action and counted in LoopStats, so tests can see it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/match.hpp"

namespace tarneeb::bots {

/// The four players by seat (not owned). The same Bot may sit in several seats only if it
/// keeps no per-seat memory.
using Lineup = BySeat<Bot*>;

/// Counts gathered while playing (summed over calls).
struct LoopStats {
    std::uint64_t decisions = 0;        ///< decisions asked of players
    std::uint64_t illegal_actions = 0;  ///< answers that were illegal (or threw) and were replaced
};

/// Called after each decision with the deciding seat and its duration in nanoseconds
/// (only when a timer is passed; measuring costs about 40 ns per decision).
using DecisionTimer = std::function<void(Seat seat, std::uint64_t nanoseconds)>;

/// What the loop tells its caller besides the players; every member is optional.
struct LoopHooks {
    LoopStats* stats = nullptr;
    const DecisionTimer* timer = nullptr;
    /// After each action, once it is applied and every seat has observed it: the match after
    /// it, the seat that acted and the action applied.
    std::function<void(const Match& match, Seat actor, Action action)> observe;
    /// After each new deal of play_on (before anyone acts).
    std::function<void(const Match& match)> dealt;
    /// Asked after each decision, before it is applied: true stops the loop there and the
    /// decision is dropped (a person who quits).
    std::function<bool()> stop;
};

/// The checked decision of `bot` for `view` (precondition: view.my_turn()): bot.decide(view)
/// if the round accepts it (view.check(a) == ok), otherwise, or if the bot throws a
/// std::exception, view.default_action() (rules.md "Turn timer"). `replaced` (if given) tells
/// which. Touches nothing but `bot`, so a worker thread may call it with a view taken
/// elsewhere (the server's bot seats); the caller still re-checks if the round may have
/// moved on meanwhile.
Action decide_or_default(Bot& bot, const SeatView& view, bool* replaced = nullptr);

/// Asks `lineup[to_act]` for the next action of the match's current round
/// (decide_or_default), applies it and lets every seat observe it, then hooks.observe.
/// Precondition: the match has a round under way (not awaiting_deal(), not over()).
/// Returns the action applied, or nullopt if hooks.stop said stop (nothing applied).
std::optional<Action> play_turn(Match& match, const Lineup& lineup, const LoopHooks& hooks);

/// Plays the current round of `match` to its end (scored or passed out). False if
/// hooks.stop stopped it.
bool play_round(Match& match, const Lineup& lineup, const LoopHooks& hooks = {});

/// Plays `match` on until it is over, dealing each new round with deal_next_from_seed(match,
/// seed) (then hooks.dealt). False if hooks.stop stopped it first.
bool play_on(Match& match, std::uint64_t seed, const Lineup& lineup, const LoopHooks& hooks);

}  // namespace tarneeb::bots
