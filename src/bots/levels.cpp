#include "tarneeb/bots/levels.hpp"

#include <array>

namespace tarneeb::bots {

namespace {

constexpr std::array<LevelInfo, 4> kLevels{{
    {"easy", "heuristic", "level easy: the heuristic with 35% of its cards random (seeded)"},
    {"medium", "heuristic", "level medium: the heuristic"},
    {"hard", "pimc", "level hard: pimc with a small budget (8 layouts, 200 ms per decision)"},
    {"expert", "pimc", "level expert: pimc as registered (20 layouts, 700 ms per decision)"},
}};

}  // namespace

std::span<const LevelInfo> levels() { return kLevels; }

std::string_view level_of(std::string_view bot) {
    for (const LevelInfo& l : kLevels)
        if (l.name == bot) return l.name;
    if (bot == "heuristic") return "medium";
    if (bot == "pimc") return "expert";
    return {};
}

PimcOptions hard_pimc_options() {
    PimcOptions o = registry_pimc_options();
    o.samples = 8;
    o.first_trick_samples = 2;
    o.second_trick_samples = 4;
    o.time_budget_ms = 200;
    return o;
}

std::optional<PimcOptions> pimc_options_of(std::string_view bot) {
    if (bot == "pimc" || bot == "expert") return registry_pimc_options();
    if (bot == "hard") return hard_pimc_options();
    return std::nullopt;
}

}  // namespace tarneeb::bots
