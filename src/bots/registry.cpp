// The bot registry: the one list of every bot a name can select (`--bot NAME`).
// To add a bot, add one entry to kEntries below; no caller changes.
#include <string>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/cheater_bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/bots/random_bot.hpp"

namespace tarneeb::bots {

const std::vector<BotInfo>& registry() {
    // Built once, never modified afterwards (a function-local constant, not mutable state).
    static const std::vector<BotInfo> kEntries{
        {"random", "uniformly random legal actions (seeded)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<RandomBot>(seed); },
         {}},
        {"heuristic", "rule-based bidding and card play (hand evaluation, card and void tracking)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<HeuristicBot>(seed); },
         {}},
        {"pimc", "perfect-information Monte Carlo: sampled layouts solved double-dummy by DDS (docs/analysis.md)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<PimcBot>(seed, registry_pimc_options()); },
         {}},
        // A test bot: sees every hand (cheater_bot.hpp). No `make`: never made from a name alone.
        {"cheater", "test bot: plays the double-dummy best card of the real deal (docs/fairplay.md); never at a server table",
         {},
         [](std::uint64_t seed, const Match& match) -> std::unique_ptr<Bot> { return std::make_unique<CheaterBot>(seed, match); }},
    };
    return kEntries;
}

std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed) {
    for (const BotInfo& info : registry())
        if (info.name == name) return info.make ? info.make(seed) : nullptr;
    return nullptr;
}

std::unique_ptr<Bot> make_seeing_bot(std::string_view name, std::uint64_t seed, const Match& match) {
    for (const BotInfo& info : registry())
        if (info.name == name) return info.make_seeing ? info.make_seeing(seed, match) : nullptr;
    return nullptr;
}

bool is_seeing_bot(std::string_view name) {
    for (const BotInfo& info : registry())
        if (info.name == name) return static_cast<bool>(info.make_seeing);
    return false;
}

std::string bot_names() {
    std::string out;
    for (const BotInfo& info : registry()) {
        if (!info.make) continue;
        if (!out.empty()) out += ", ";
        out += info.name;
    }
    return out;
}

}  // namespace tarneeb::bots
