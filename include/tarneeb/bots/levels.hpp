// Levels of computer player a person picks (issue 28; docs/bots.md "Levels"): easy, medium,
// hard, expert, each a registered bot name (src/bots/registry.cpp) mapped to one of our engines:
//   easy   — the heuristic with a seeded share of random legal cards (weakened_bot.hpp)
//   medium — the heuristic
//   hard   — the learned card player (learned_bot.hpp): no solver, so offline play has it too
//   expert — pimc as registered (`pimc`)
// The engine names (`random`, `heuristic`, `learned`, `pimc`) stay registered; level_of maps them
// and the levels to the level a person reads (records and older tables name their bots by
// engine). Until 2026-12 `hard` was pimc with a small budget: tables and records from then show
// it as hard still (their actions are kept; a bot seated again plays as hard plays now).
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "tarneeb/bots/pimc_bot.hpp"

namespace tarneeb::bots {

struct LevelInfo {
    std::string_view name;         ///< the registry name and the level: "easy", ..., "expert"
    std::string_view engine;       ///< the engine it plays with: "heuristic", "learned" or "pimc"
    std::string_view description;  ///< one line for help texts and docs
};

/// The share of card decisions the `easy` level plays at random (docs/bots.md "Levels").
inline constexpr double kEasyRandomShare = 0.35;

/// The four levels, weakest first.
std::span<const LevelInfo> levels();

/// The level a bot name plays at: a level's own name ("hard"), or the nearest level of an
/// engine name ("heuristic" → "medium", "learned" → "hard", "pimc" → "expert"). Empty for
/// "random" (weaker than every level: shown as a plain bot), an outside engine or any other name.
std::string_view level_of(std::string_view bot);

/// The pimc options the registered bot `bot` plays with ("pimc" and "expert":
/// registry_pimc_options()); nullopt for a bot that is not pimc.
std::optional<PimcOptions> pimc_options_of(std::string_view bot);

}  // namespace tarneeb::bots
