// Playing rounds and matches between bots: the loop that asks the seat to act for a
// decision, applies it and tells every bot what happened. Used by `tarneeb simulate`, the
// benchmarks and the tests; the terminal game (`tarneeb play`) runs its own loop because one
// seat is a person.
//
// Every bot receives only SeatView::of(match, its seat) (hidden information stays hidden).
// A bot that returns an illegal action is a bug: the arena then applies the table's default
// action (rules.md "Turn timer") and counts it in Arena statistics so that tests can see it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/match.hpp"

namespace tarneeb::bots {

/// Four bots by seat (not owned). The same Bot may sit in several seats only if it keeps no
/// per-seat memory.
using Table = std::array<Bot*, 4>;

/// Counts gathered while playing (summed over calls).
struct ArenaStats {
    std::uint64_t decisions = 0;        ///< decisions asked of bots
    std::uint64_t illegal_actions = 0;  ///< decisions that were illegal and replaced
};

/// Called after each decision with the deciding seat and its duration in nanoseconds
/// (only when a timer is passed; measuring costs about 40 ns per decision).
using DecisionTimer = std::function<void(Seat seat, std::uint64_t nanoseconds)>;

/// Asks `table[to_act]` for the next action of the match's current round, applies it (or the
/// default action if it was illegal) and lets every seat observe it. Precondition: the match
/// has a round under way (not awaiting_deal(), not over()). Returns the action applied.
Action play_one_action(Match& match, const Table& table, ArenaStats* stats = nullptr,
                       const DecisionTimer* timer = nullptr);

/// Plays the current round of `match` to its end (scored or passed out).
void play_round(Match& match, const Table& table, ArenaStats* stats = nullptr,
                const DecisionTimer* timer = nullptr);

/// Plays a whole match: deal k comes from deal_next_from_seed(match, seed).
Match play_match(const Rules& rules, Seat first_dealer, std::uint64_t seed, const Table& table,
                 ArenaStats* stats = nullptr, const DecisionTimer* timer = nullptr);

/// Plays one deal as a one-round match (for duplicate play): `hands` dealt by `dealer`.
/// The result is in_progress as a match (a single round is not a match) but its round() is
/// over and its record replays cleanly.
Match play_deal(const Rules& rules, Seat dealer, const Hands& hands, const Table& table,
                ArenaStats* stats = nullptr, const DecisionTimer* timer = nullptr);

}  // namespace tarneeb::bots
