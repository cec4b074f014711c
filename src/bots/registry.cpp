// The bot registry: the one list of every bot a name can select (`--bot NAME`).
// To add a bot, add one entry to kEntries below; no caller changes.
#include <string>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/bots/random_bot.hpp"

namespace tarneeb::bots {

const std::vector<BotInfo>& registry() {
    // Built once, never modified afterwards (a function-local constant, not mutable state).
    static const std::vector<BotInfo> kEntries{
        {"random", "uniformly random legal actions (seeded)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<RandomBot>(seed); }},
        {"heuristic", "rule-based bidding and card play (hand evaluation, card and void tracking)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<HeuristicBot>(seed); }},
        {"pimc", "perfect-information Monte Carlo: sampled layouts solved double-dummy by DDS (docs/analysis.md)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<PimcBot>(seed, registry_pimc_options()); }},
    };
    return kEntries;
}

std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed) {
    for (const BotInfo& info : registry())
        if (info.name == name) return info.make(seed);
    return nullptr;
}

std::string bot_names() {
    std::string out;
    for (const BotInfo& info : registry()) {
        if (!out.empty()) out += ", ";
        out += info.name;
    }
    return out;
}

}  // namespace tarneeb::bots
