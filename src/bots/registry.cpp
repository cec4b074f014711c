// The bot registry: the one list of every bot a name can select (`--bot NAME`).
// To add a bot, add one entry to kEntries below; no caller changes. The levels a person picks
// (easy, medium, hard, expert: levels.hpp) are entries too, beside the engine names.
#include <string>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/cheater_bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/bots/levels.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/bots/random_bot.hpp"
#include "tarneeb/bots/weakened_bot.hpp"

namespace tarneeb::bots {

namespace {

/// An engine's bot under a level's name: every decision and observation is the inner bot's;
/// only name() differs (a level's bot reports its registry name, e.g. "medium").
class LevelBot final : public Bot {
public:
    LevelBot(std::string_view name, std::unique_ptr<Bot> inner) : name_(name), inner_(std::move(inner)) {}
    std::string_view name() const override { return name_; }
    Action decide_call(const SeatView& view) override { return inner_->decide_call(view); }
    Action decide_trump(const SeatView& view) override { return inner_->decide_trump(view); }
    Action decide_card(const SeatView& view) override { return inner_->decide_card(view); }
    void observe(const SeatView& view, Seat actor, Action action) override { inner_->observe(view, actor, action); }

private:
    std::string_view name_;
    std::unique_ptr<Bot> inner_;
};

/// The registry entry of level `name` (levels.hpp), made by `make`.
BotInfo level_entry(std::string_view name, std::function<std::unique_ptr<Bot>(std::uint64_t seed)> make) {
    for (const LevelInfo& l : levels())
        if (l.name == name) return {std::string(name), std::string(l.description), std::move(make), {}};
    return {std::string(name), "", std::move(make), {}};
}

}  // namespace

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
        {"learned", "the heuristic's auction and trump; cards by small policy networks (their mean score) fitted to double-dummy values, no solver (docs/analysis.md)",
         [](std::uint64_t seed) -> std::unique_ptr<Bot> { return std::make_unique<LearnedBot>(seed); },
         {}},
        // The levels a person picks (levels.hpp, docs/bots.md "Levels"), weakest first.
        level_entry("easy", [](std::uint64_t seed) -> std::unique_ptr<Bot> {
            return std::make_unique<WeakenedBot>(seed, kEasyRandomShare, "easy");
        }),
        level_entry("medium", [](std::uint64_t seed) -> std::unique_ptr<Bot> {
            return std::make_unique<LevelBot>("medium", std::make_unique<HeuristicBot>(seed));
        }),
        level_entry("hard", [](std::uint64_t seed) -> std::unique_ptr<Bot> {
            return std::make_unique<LearnedBot>(seed, kLearnedMargin, fitted_card_policy(), "hard");
        }),
        level_entry("expert", [](std::uint64_t seed) -> std::unique_ptr<Bot> {
            return std::make_unique<LevelBot>("expert", std::make_unique<PimcBot>(seed, registry_pimc_options()));
        }),
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
