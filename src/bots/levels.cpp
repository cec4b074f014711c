#include "tarneeb/bots/levels.hpp"

#include <array>

namespace tarneeb::bots {

namespace {

constexpr std::array<LevelInfo, 4> kLevels{{
    {"easy", "heuristic", "level easy: the heuristic with 35% of its cards random (seeded)"},
    {"medium", "heuristic", "level medium: the heuristic"},
    {"hard", "learned", "level hard: the learned card player (no solver; offline too)"},
    {"expert", "pimc", "level expert: pimc as registered (20 layouts, 700 ms per decision)"},
}};

}  // namespace

std::span<const LevelInfo> levels() { return kLevels; }

std::string_view level_of(std::string_view bot) {
    for (const LevelInfo& l : kLevels)
        if (l.name == bot) return l.name;
    if (bot == "heuristic") return "medium";
    if (bot == "learned") return "hard";
    if (bot == "pimc") return "expert";
    return {};
}

std::optional<PimcOptions> pimc_options_of(std::string_view bot) {
    if (bot == "pimc" || bot == "expert") return registry_pimc_options();
    return std::nullopt;
}

}  // namespace tarneeb::bots
