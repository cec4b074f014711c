// Computer players: the Bot interface and the name registry (`--bot NAME` everywhere).
//
// A bot sees only a SeatView (docs/architecture.md "Hidden information"). It is asked for a
// call, a trump or a card when it is its seat's turn, and may be told of every action at the
// table (observe) to keep its own memory. Bots are deterministic for a given seed.
// A new bot plugs in by adding one entry to the registry (src/bots/registry.cpp); callers
// (CLI, simulate, server) only use names.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tarneeb/core/match.hpp"
#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

class Bot {
public:
    virtual ~Bot() = default;
    /// The registry name, e.g. "heuristic".
    virtual std::string_view name() const = 0;
    /// A call (Action::pass() or Action::bid(n)) in phase auction. Must be legal.
    virtual Action decide_call(const SeatView& view) = 0;
    /// A trump (Action::name_trump) in phase trump, for the declarer. Must be legal.
    virtual Action decide_trump(const SeatView& view) = 0;
    /// A card (Action::play) in phase play. Must be legal.
    virtual Action decide_card(const SeatView& view) = 0;
    /// Told of every action at the table, including its own, after it was applied.
    /// `view` is this bot's view after the action.
    virtual void observe(const SeatView& view, Seat actor, Action action) {
        (void)view; (void)actor; (void)action;
    }

    /// The one phase dispatch: decide_call, decide_trump or decide_card by view.phase()
    /// (src/bots/loop.cpp). Precondition: view.my_turn(). Unchecked: the loop
    /// (decide_or_default in loop.hpp) checks the answer and falls back to the default action.
    Action decide(const SeatView& view);
};

struct BotInfo {
    std::string name;
    std::string description;
    /// Makes a bot from a seed (same seed, same decisions). Empty for a test bot that sees
    /// every hand (`cheater`): such a bot is made only by make_seeing.
    std::function<std::unique_ptr<Bot>(std::uint64_t seed)> make;
    /// Test bots only (cheater_bot.hpp): makes the bot for the match it plays in, whose every
    /// hand it reads. Empty for every honest bot.
    std::function<std::unique_ptr<Bot>(std::uint64_t seed, const Match& match)> make_seeing;
};

/// Every registered bot, in a fixed order (test bots included, so their names stay reserved).
const std::vector<BotInfo>& registry();
/// The registered honest bot `name` with `seed`; nullptr if no such name, and for a test bot
/// that sees every hand (so nothing that makes bots by name, the server included, can seat one).
std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed);
/// The test bot `name` (one with make_seeing) for `match`, which must outlive it; nullptr for
/// any other name. Only a match's owner that wants a cheating seat calls this (tests,
/// `tarneeb simulate`).
std::unique_ptr<Bot> make_seeing_bot(std::string_view name, std::uint64_t seed, const Match& match);
/// True when `name` is a test bot that sees every hand.
bool is_seeing_bot(std::string_view name);
/// "random, heuristic, ..." for help texts: the honest bots.
std::string bot_names();

}  // namespace tarneeb::bots
